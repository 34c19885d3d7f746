# VenueScreen moved to the app ``venue_screen`` (its 0001): Django's state forgets it here, the table stays.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('public', '0002_venue_screen'),
        ('venue_screen', '0001_initial'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='VenueScreen')],
            database_operations=[],
        ),
    ]
