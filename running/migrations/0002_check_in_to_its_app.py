# Check-in's models moved to the checkin app, their tables kept (checkin 0001 takes them over): nothing changes in
# the database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('running', '0001_check_in'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name='NoShow'),
                migrations.DeleteModel(name='CheckInMark'),
                migrations.DeleteModel(name='CheckIn'),
            ],
            database_operations=[],
        ),
    ]
