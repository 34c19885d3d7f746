# The judges' models, moved from games with their tables (games_judge, games_judgeassignment, games_privatelink) and
# their rows: only Django's record of them changes, and their content types (and so their permissions) follow them to
# this app.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from base.moved_models import content_types_moved


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0012_judges_to_their_app'),
        ('tournaments', '0021_seating_swiss_zvezdy_spread'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Judge',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('chief', models.BooleanField(default=False, verbose_name='chief judge')),
                        ('rank', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='rank')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judges', to='tournaments.tournament')),
                        ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='judging', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'judge',
                        'verbose_name_plural': 'judges',
                        'db_table': 'games_judge',
                        'ordering': ['tournament', '-chief', 'user__username'],
                    },
                ),
                migrations.CreateModel(
                    name='JudgeAssignment',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('table', models.PositiveIntegerField(verbose_name='table')),
                        ('judge', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='assignments', to='judges.judge')),
                        ('round', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.round')),
                        ('stage', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='tournaments.stage')),
                    ],
                    options={
                        'verbose_name': "judge's table",
                        'verbose_name_plural': "judges' tables",
                        'db_table': 'games_judgeassignment',
                        'ordering': ['stage', 'round', 'table'],
                    },
                ),
                migrations.CreateModel(
                    name='PrivateLink',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('token', models.CharField(max_length=64, unique=True, verbose_name='token')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created at')),
                        ('revoked_at', models.DateTimeField(blank=True, null=True, verbose_name='revoked at')),
                        ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                        ('judge', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='links', to='judges.judge')),
                    ],
                    options={
                        'verbose_name': 'private link',
                        'verbose_name_plural': 'private links',
                        'db_table': 'games_privatelink',
                        'ordering': ['judge', '-created_at'],
                    },
                ),
                migrations.AddConstraint(
                    model_name='judge',
                    constraint=models.UniqueConstraint(fields=('tournament', 'user'), name='judge_once_per_tournament'),
                ),
                migrations.AddConstraint(
                    model_name='judge',
                    constraint=models.UniqueConstraint(condition=models.Q(('chief', True)), fields=('tournament',), name='one_chief_judge'),
                ),
                migrations.AddConstraint(
                    model_name='judgeassignment',
                    constraint=models.UniqueConstraint(fields=('judge', 'stage', 'round', 'table'), name='assignment_unique'),
                ),
                migrations.AddConstraint(
                    model_name='privatelink',
                    constraint=models.UniqueConstraint(condition=models.Q(('revoked_at__isnull', True)), fields=('judge',), name='one_link_in_force'),
                ),
            ],
            database_operations=[],
        ),
        content_types_moved('games', 'judges', ('judge', 'judgeassignment', 'privatelink')),
    ]
