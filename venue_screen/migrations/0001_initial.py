# The model VenueScreen moved here from the app ``public``: its table ``public_venuescreen`` stays as it is (with
# its rows), only Django's state moves (public's 0003 removes it there); the content type follows, so that its
# permissions and any admin history keep pointing at it.

import django.db.models.deletion
from django.db import migrations, models

from base.moved_models import content_types_moved


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('public', '0002_venue_screen'),
        ('tournaments', '0019_rated_and_level'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='VenueScreen',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('announcements', models.TextField(blank=True, help_text='One announcement a paragraph (an empty line between two).', verbose_name='announcements')),
                        ('seconds_per_slide', models.PositiveSmallIntegerField(default=15, verbose_name='seconds per slide')),
                        ('timer_label', models.CharField(blank=True, max_length=100, verbose_name="timer's title")),
                        ('timer_ends_at', models.DateTimeField(blank=True, null=True, verbose_name='timer ends at')),
                        ('timer_left', models.PositiveIntegerField(blank=True, null=True, verbose_name='seconds left (paused)')),
                        ('updated', models.DateTimeField(auto_now=True, verbose_name='updated')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='venue_screen', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'venue screen',
                        'verbose_name_plural': 'venue screens',
                        'db_table': 'public_venuescreen',
                    },
                ),
            ],
            database_operations=[],
        ),
        content_types_moved('public', 'venue_screen', ('venuescreen',)),
    ]
