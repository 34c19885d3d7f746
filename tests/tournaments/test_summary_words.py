"""The regulation's summary in Russian: tomsk and kostroma's winners are the players of the winning *side*
(«игроки команды» read as the tomsk teams, whose players win on both sides: found walking as an organizer)."""

from __future__ import annotations

import pytest
from django.utils import translation

from tournaments.summaries import summary


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_winners_are_the_players_of_the_winning_side(ruleset: str) -> None:
    with translation.override("ru"):
        lines = [str(line) for line in summary(ruleset)]
    assert not any("игроки команды" in line for line in lines)
    winners = [line for line in lines if line.startswith("Победители: игроки стороны")]
    assert len(winners) == (1 if ruleset in ("tomsk", "kostroma") else 0), lines
