# The judges' models moved to the judges app, their tables kept (judges 0001 takes them over): nothing changes in the
# database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_stream_overlay_to_its_app'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='PrivateLink'),
                migrations.DeleteModel(name='JudgeAssignment'),
                migrations.DeleteModel(name='Judge'),
            ],
            database_operations=[],
        ),
    ]
