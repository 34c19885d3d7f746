"""Only a protocol change the public can see bumps the results version (found by
bench/tournament_day.py: every draft save and confirmation had every public page built again)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games.models import GameState
from games.permissions import staff_of
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from public.models import ResultsVersion
from public.versioning import bump
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db


def version(tournament: Any) -> int:
    return ResultsVersion.objects.filter(tournament=tournament).values_list("version", flat=True).first() or 0


def roles(facts: ProtocolFacts) -> None:
    for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
        seat.role = role


def black_wins(facts: ProtocolFacts) -> None:
    facts.winner = "black"


def a_foul(facts: ProtocolFacts) -> None:
    facts.seats[0].foul_reasons = [*facts.seats[0].foul_reasons, "other"]


def test_drafts_confirming_and_reopening_do_not_bump_submitting_and_changing_do(
    round_: Any, people: dict[str, Any], django_capture_on_commit_callbacks: Any,
) -> None:
    tournament = round_.stage.tournament
    judge, chief = people["judge"], people["chief"]
    chief_staff = staff_of(chief, tournament)

    def bumps(call: Callable[[], Any]) -> int:
        before = version(tournament)
        with django_capture_on_commit_callbacks(execute=True):
            call()
        return version(tournament) - before

    bump(tournament.pk)  # the version row exists: each bump adds one from now on
    game = service.open_protocol(table(round_, 1), judge)
    assert bumps(lambda: service.open_protocol(table(round_, 2), judge)) == 0
    steps = [
        ("draft: roles", 0, lambda g: service.change(g, judge, g.version, roles)),
        ("draft: result", 0, lambda g: service.change(g, judge, g.version, black_wins)),
        ("submitted", 1, lambda g: service.submit(g, judge, g.version)),
        ("confirmed", 0, lambda g: service.confirm(g, chief_staff, chief, g.version)),
        ("reopened", 0, lambda g: service.reopen(g, chief_staff, chief, g.version, "a protest")),
        ("submitted, changed", 1, lambda g: service.change(g, chief, g.version, a_foul)),
        ("confirmed again", 0, lambda g: service.confirm(g, chief_staff, chief, g.version)),
    ]
    for name, expected, step in steps:
        game.refresh_from_db()
        assert bumps(lambda step=step: step(game)) == expected, name
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED and game.version == 8
    assert game.history.count() == 8  # each step is still in the protocol's history


def test_a_confirmed_protocol_reads_the_same_to_the_public(
    round_: Any, people: dict[str, Any], client: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    """What the public pages show does not depend on the state (so a confirmation needs no bump)."""
    from exchange.reading import to_model

    tournament = round_.stage.tournament
    judge, chief = people["judge"], people["chief"]
    game = service.open_protocol(table(round_, 1), judge)
    game = service.change(game, judge, game.version, roles)
    game = service.change(game, judge, game.version, black_wins)
    with django_capture_on_commit_callbacks(execute=True):
        game = service.submit(game, judge, game.version)
    submitted = to_model(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        service.confirm(game, staff_of(chief, tournament), chief, game.version)
    assert to_model(tournament) == submitted
