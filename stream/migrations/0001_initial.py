# The overlay's model, moved from games with its table (games_streamoverlay) and its rows: only Django's record of
# it changes, and the content type (and so its permissions) follows it to this app.

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models

from base.moved_models import content_types_moved


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0011_stream_overlay_to_its_app'),
        ('tournaments', '0020_player_registry'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='StreamOverlay',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('token', models.CharField(max_length=64, unique=True, verbose_name='token')),
                        ('show_roles', models.BooleanField(default=False, verbose_name='show the roles to the stream')),
                        ('delay_seconds', models.PositiveIntegerField(default=0, validators=[django.core.validators.MaxValueValidator(900)], verbose_name='delay, seconds')),
                        ('updated', models.DateTimeField(auto_now=True, verbose_name='updated')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='stream_overlay', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'stream overlay',
                        'verbose_name_plural': 'stream overlays',
                        'db_table': 'games_streamoverlay',
                    },
                ),
            ],
            database_operations=[],
        ),
        content_types_moved('games', 'stream', ('streamoverlay',)),
    ]
