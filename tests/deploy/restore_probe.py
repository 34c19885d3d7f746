"""What a restore is checked by, read from the database in use as JSON: the same function runs in the test
against the original database and, in a subprocess, against the restored one (``python -m`` this module).

``observe()`` covers what the tournament file carries (each tournament's file, the standings API and the
organizer's standings of every stage, the participants' numbers and disqualifications); with ``everything``
also what only a database backup carries (users, judges and their tables, protocols' states and every
version in their history, protests with who recorded them, keep-apart pairs, draft rounds, closed stages,
the players' registry details, the public results version).
"""

from __future__ import annotations

import json
import sys
from typing import Any


def observe(*, everything: bool) -> dict[str, Any]:
    from tournaments.models import Tournament

    return {t.slug: tournament_facts(t, everything) for t in Tournament.objects.order_by("slug")}


def tournament_facts(t: Any, everything: bool) -> dict[str, Any]:
    from django.test import Client

    from exchange.files import export_data
    from running.services.stages import stage_standings

    client = Client()
    stages = list(t.stages.order_by("order"))
    facts: dict[str, Any] = {
        "file": export_data(t),
        "api": {s.ext_id: api_answer(client, t.slug, s.ext_id) for s in stages},
        "standings": {s.ext_id: [[row.rank, row.player, str(row.points), row.tally.games, row.tally.wins,
                                  row.eligible] for row in stage_standings(s).rows] for s in stages},
        "numbers": dict(t.participants.filter(status="accepted").values_list("ext_id", "number")),
        "disqualified": dict(t.participants.filter(disqualified_at__isnull=False)
                             .values_list("ext_id", "disqualification_reason")),
    }
    if everything:
        facts.update(database_facts(t))
    return facts


def api_answer(client: Any, slug: str, stage: str) -> list[Any]:
    response = client.get(f"/api/tournaments/{slug}/standings/?stage={stage}")
    return [response.status_code, response.json()]


def database_facts(t: Any) -> dict[str, Any]:
    from games.models import Game, GameSeat, Protest
    from judges.models import Judge, JudgeAssignment
    from public.models import ResultsVersion
    from tournaments.models import KeepApart, Participant, Round

    games = Game.objects.filter(table__round__stage__tournament=t).select_related("table__round__stage")
    return {
        "organizers": sorted(t.organizers.values_list("username", flat=True)),
        "judges": sorted(Judge.objects.filter(tournament=t).values_list("user__username", "chief")),
        "assignments": sorted(JudgeAssignment.objects.filter(judge__tournament=t)
                              .values_list("judge__user__username", "stage__ext_id", "round__number", "table")),
        "protocols": {
            f"{g.table.round.stage.ext_id}/{g.table.round.number}/{g.table.number}": {
                "state": g.state, "version": g.version, "winner": g.winner,
                "history": [[h.version, h.state, h.history_user.username if h.history_user else None,
                             h.history_change_reason, h.history_date.isoformat()]
                            for h in g.history.order_by("history_date", "history_id")],
                "seat_versions": GameSeat.history.filter(game_id=g.pk).count(),  # type: ignore[attr-defined]
            }
            for g in games
        },
        "protests": [[p.seat, p.text, p.decision, p.reason, p.recorded_by.username if p.recorded_by else None,
                      p.decider.username if p.decider else None]
                     for p in Protest.objects.filter(game__in=games).order_by("id").select_related(
                         "recorded_by", "decider")],
        "keep_apart": sorted(KeepApart.objects.filter(tournament=t).values_list("first__ext_id", "second__ext_id")),
        "rounds": sorted([r.stage.ext_id, r.number, r.state, r.starts_at.isoformat() if r.starts_at else None]
                         for r in Round.objects.filter(stage__tournament=t).select_related("stage")),
        "closed": sorted(t.stages.filter(closed=True).values_list("ext_id", flat=True)),
        "registry": sorted([p.ext_id, p.number, p.status, p.player.full_name, p.player.phone,
                            p.player.birth_date.isoformat() if p.player.birth_date else None,
                            p.disqualified_by.username if p.disqualified_by else None]
                           for p in Participant.objects.filter(tournament=t).select_related("player",
                                                                                              "disqualified_by")),
        "results_version": list(ResultsVersion.objects.filter(tournament=t).values_list("version", flat=True)),
    }


def write_after_restore(slug: str) -> None:
    """The restored database takes new rows (its sequences came back too): a penalty and a user."""
    from decimal import Decimal

    from django.contrib.auth import get_user_model

    from tournaments.models import Round
    from tournaments.services import penalties

    round_ = Round.objects.filter(stage__tournament__slug=slug, state="published").order_by("-id").first()
    assert round_ is not None
    player = penalties.candidates(round_).first()
    assert player is not None
    penalties.add(round_, player, Decimal("-0.25"), "after the restore")
    get_user_model().objects.create_user("after-restore", password="pw-after-restore")


def main(argv: list[str]) -> None:
    """``restore_probe observe [--everything]`` | ``restore_probe import SLUG=FILE... `` | ``write SLUG``."""
    import django

    django.setup()
    if argv[0] == "import":
        import io

        from django.core.management import call_command

        for pair in argv[1:]:
            slug, _, path = pair.partition("=")
            call_command("import_tournament", path, slug=slug, stdout=io.StringIO())
        argv = ["observe"]
    if argv[0] == "write":
        write_after_restore(argv[1])
        return
    sys.stdout.write(json.dumps(observe(everything="--everything" in argv), sort_keys=True))


if __name__ == "__main__":
    main(sys.argv[1:])
