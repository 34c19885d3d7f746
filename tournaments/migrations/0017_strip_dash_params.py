"""Parameters that do not apply to a tournament's regulation (a dash in docs/rules/parameters.md) were kept and
ignored before; they are refused now, so a tournament holding one could not be read. They are removed, each
removal recorded as a change of parameters with the reason (the sets are written out: a migration does not follow
later code)."""

from django.db import migrations
from django.utils import timezone

TOMSK_ONLY = {"day_points", "sp_min", "sp_max"}
NOT_APPLICABLE = {
    "tomsk": {"extra_values_winner", "extra_values_loser"},
    "kostroma": TOMSK_ONLY,
    "fiim": TOMSK_ONLY,
    "zvezdy": TOMSK_ONLY,
}
REASON = "removed on upgrade: does not apply to the regulation"


def strip(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    ParamChange = apps.get_model("tournaments", "ParamChange")
    now = timezone.now()
    for tournament in Tournament.objects.exclude(params=None).only("pk", "ruleset", "params"):
        params = dict(tournament.params or {})
        dropped = sorted(set(params) & NOT_APPLICABLE.get(tournament.ruleset, set()))
        if not dropped:
            continue
        kept = {name: value for name, value in params.items() if name not in dropped}
        ParamChange.objects.create(tournament=tournament, before=params, after=kept or None,
                                   changes=[[name, params[name], None] for name in dropped],
                                   reason=REASON, changed_at=now)
        Tournament.objects.filter(pk=tournament.pk).update(params=kept or None)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0016_param_changes"),
    ]

    operations = [
        migrations.RunPython(strip, migrations.RunPython.noop),
    ]
