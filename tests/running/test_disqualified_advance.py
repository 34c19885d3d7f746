"""Closing a stage sends on the engine's ``advance``: a player disqualified at the cut stays behind and the
next one takes the slot (docs/rules/tournament.md), whatever the ruleset."""

from __future__ import annotations

from typing import Any

import pytest

from running.services.stages import close_stage
from tests.scoring.build import LAYOUTS, game, players, round_, stage, standings, tournament
from tournaments.services.disqualification import disqualify

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_closing_skips_a_disqualified_player_at_the_cut(import_file: Any, organizer: Any, ruleset: str) -> None:
    seated = players(len(LAYOUTS[ruleset]))
    data = tournament(ruleset, [stage("q", [round_(1, [game(ruleset, seated, "red")])], lots=seated[::-1],
                                      advance={"top": 3}, players=seated),
                                stage("f", [], kind="final")], player_ids=seated)
    order = [row.player for row in standings(data, "q").rows]  # the lots leave no tie
    assert len({row.rank for row in standings(data, "q").rows}) == len(seated)
    t = import_file(data, f"cut-{ruleset}")
    disqualify(t.participants.get(ext_id=order[1]), organizer, "Left the venue")
    closed = close_stage(t.stages.get(ext_id="q"), short_confirmed=True)
    assert list(closed.advanced) == [order[0], order[2], order[3]]
    following = t.stages.get(ext_id="f")
    assert list(following.entries.order_by("position").values_list("participant__ext_id", flat=True)) == \
        [order[0], order[2], order[3]]
