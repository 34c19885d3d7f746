from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0004_round_tables_chosen_and_job_cancel"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="starts_at",
            field=models.DateTimeField(
                blank=True, help_text="The scheduled start, shown in the public program.", null=True,
                verbose_name="starts at",
            ),
        ),
    ]
