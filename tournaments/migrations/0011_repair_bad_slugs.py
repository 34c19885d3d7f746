"""Tournaments stored with an address that is not a slug (``import_tournament --slug`` took any text once:
``cup.2025`` made the home page and ``/p/`` answer 500 for everyone) get one: the text slugified,
or ``tournament-<id>``, unique. Nothing can store such an address any more; this repairs what was stored."""

from __future__ import annotations

import re

from django.db import migrations
from django.utils.text import slugify

SLUG = re.compile(r"^[-a-zA-Z0-9_]+\Z")


def repair(apps, schema_editor):  # type: ignore[no-untyped-def]
    tournament = apps.get_model("tournaments", "Tournament")
    taken = set(tournament.objects.values_list("slug", flat=True))
    for row in tournament.objects.order_by("pk"):
        if SLUG.match(row.slug):
            continue
        base = (slugify(row.slug) or f"tournament-{row.pk}")[:56]
        slug, n = base, 2
        while slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        tournament.objects.filter(pk=row.pk).update(slug=slug)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0010_tournament_four_eyes")]
    operations = [migrations.RunPython(repair, migrations.RunPython.noop)]
