# The overlay's model moved to the stream app, its table kept (stream 0001 takes it over): nothing changes in the
# database.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0010_regulation_events'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='StreamOverlay')],
            database_operations=[],
        ),
    ]
