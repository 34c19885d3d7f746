# Check-in's models, moved from running with their tables (running_checkin, running_checkinmark, running_noshow)
# and their rows: only Django's record of them changes, and their content types (and so their permissions) follow
# them to this app.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from base.moved_models import content_types_moved


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('running', '0002_check_in_to_its_app'),
        ('tournaments', '0019_rated_and_level'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='CheckIn',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('round_number', models.PositiveIntegerField(blank=True, null=True, verbose_name='round')),
                        ('state', models.CharField(choices=[('open', 'open'), ('closed', 'closed')], default='open', max_length=10, verbose_name='state')),
                        ('opened_at', models.DateTimeField(auto_now_add=True, verbose_name='opened at')),
                        ('closed_at', models.DateTimeField(blank=True, null=True, verbose_name='closed at')),
                        ('volunteer_token', models.CharField(blank=True, max_length=64, null=True, unique=True)),
                        ('door_token', models.CharField(blank=True, max_length=64, null=True, unique=True)),
                        ('closed_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('opened_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('stage', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.stage')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='check_ins', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'running_checkin',
                        'verbose_name': 'check-in',
                        'verbose_name_plural': 'check-ins',
                        'ordering': ['tournament', '-opened_at', '-id'],
                    },
                ),
                migrations.CreateModel(
                    name='CheckInMark',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('present', models.BooleanField(default=False, verbose_name='present')),
                        ('at', models.DateTimeField(verbose_name='at')),
                        ('source', models.CharField(choices=[('organizer', 'organizer'), ('volunteer', "volunteer's link"), ('self', 'the player at the door')], max_length=10, verbose_name='source')),
                        ('by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('check_in', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='marks', to='checkin.checkin')),
                        ('participant', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.participant')),
                    ],
                    options={
                        'db_table': 'running_checkinmark',
                        'verbose_name': 'check-in mark',
                        'verbose_name_plural': 'check-in marks',
                    },
                ),
                migrations.CreateModel(
                    name='NoShow',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('marked_at', models.DateTimeField(verbose_name='marked at')),
                        ('restored_at', models.DateTimeField(blank=True, null=True, verbose_name='restored at')),
                        ('check_in', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='no_shows', to='checkin.checkin')),
                        ('marked_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('participant', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.participant')),
                        ('restored_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.round')),
                    ],
                    options={
                        'db_table': 'running_noshow',
                        'verbose_name': 'no-show',
                        'verbose_name_plural': 'no-shows',
                        'ordering': ['round', 'marked_at', 'id'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='checkin',
                    constraint=models.CheckConstraint(condition=models.Q(models.Q(('round_number__isnull', True), ('stage__isnull', True)), models.Q(('round_number__isnull', False), ('stage__isnull', False)), _connector='OR'), name='checkin_stage_round'),
                ),
                migrations.AddConstraint(
                    model_name='checkinmark',
                    constraint=models.UniqueConstraint(fields=('check_in', 'participant'), name='checkin_mark_once'),
                ),
            ],
            database_operations=[],
        ),
        content_types_moved('running', 'checkin', ('checkin', 'checkinmark', 'noshow')),
    ]
