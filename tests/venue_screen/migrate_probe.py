"""Run by test_moved_model.py in a process of its own, on an empty database: migrate to the state before the hall
screen's model left ``public``, store a screen there (with its content type and a permission), migrate to the last
state and read it through ``venue_screen``, then back again. Prints one JSON line of what it found."""

from __future__ import annotations

import datetime as dt
import json

import django

django.setup()

from django.db import connection  # noqa: E402
from django.db.migrations.executor import MigrationExecutor  # noqa: E402

MOVED = {"public", "venue_screen"}


def executor() -> MigrationExecutor:
    return MigrationExecutor(connection)


def before_the_move() -> list[tuple[str, str]]:
    leaves = executor().loader.graph.leaf_nodes()
    return [leaf for leaf in leaves if leaf[0] not in MOVED] + [("public", "0002_venue_screen")]


def main() -> None:
    found: dict[str, object] = {}
    earlier = before_the_move()
    run = executor()
    run.migrate(earlier)
    old = run.loader.project_state(earlier).apps
    tournament = old.get_model("tournaments", "Tournament").objects.create(
        slug="moved", name="Moved", ruleset="fiim", starts=dt.date(2026, 12, 1))
    old.get_model("public", "VenueScreen").objects.create(
        tournament_id=tournament.pk, announcements="Финал в 16:00.", seconds_per_slide=20, timer_label="До финала")
    kind = old.get_model("contenttypes", "ContentType").objects.create(app_label="public", model="venuescreen")
    old.get_model("auth", "Permission").objects.create(content_type=kind, codename="change_venuescreen",
                                                       name="Can change venue screen")

    run = executor()
    run.migrate(run.loader.graph.leaf_nodes())
    from django.contrib.auth.models import Permission
    from django.contrib.contenttypes.models import ContentType

    from venue_screen.models import VenueScreen

    ContentType.objects.clear_cache()
    screen = VenueScreen.objects.get(tournament__slug="moved")
    found["after"] = [screen.announcements, screen.seconds_per_slide, screen.timer_label]
    found["content_type_kept"] = ContentType.objects.get_for_model(VenueScreen).pk == kind.pk
    found["permission"] = Permission.objects.get(codename="change_venuescreen").content_type.app_label
    found["public_types_left"] = ContentType.objects.filter(app_label="public", model="venuescreen").count()

    run = executor()
    run.migrate([*earlier, ("venue_screen", None)])  # venue_screen unapplied too: public's 0002 alone keeps it
    back = run.loader.project_state(earlier).apps
    again = back.get_model("public", "VenueScreen").objects.get(tournament_id=tournament.pk)
    found["back"] = [again.announcements, again.seconds_per_slide, again.timer_label]
    found["back_type"] = back.get_model("contenttypes", "ContentType").objects.get(pk=kind.pk).app_label
    print(json.dumps(found, ensure_ascii=False))


if __name__ == "__main__":
    main()
