"""Final places (``scoring.places``) under the four regulations' examples: the final's players first in its order,
then those who stopped at each earlier stage in that stage's order; guests and the disqualified get none; a shared
rank is a shared place; a stage with no games yet places nobody (a tournament not finished)."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from scoring import fileio
from scoring.model import Tournament
from scoring.places import final_places
from scoring.standings import Standings, compute_standings
from tests.helpers import example_text

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def example(ruleset: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(example_text(f"{ruleset}-example.json"))
    return data


def places_of(model: Tournament) -> tuple[list[Any], dict[str, Standings]]:
    computed = {s.id: compute_standings(model, s.id) for s in model.stages if any(r.games for r in s.rounds)}
    return final_places(model, computed.__getitem__), computed


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_last_stage_first_then_each_earlier_stage(ruleset: str) -> None:
    model = fileio.load(example(ruleset))
    places, standings = places_of(model)
    final = standings[model.stages[-1].id]
    guests = {p.id for p in model.players if p.guest}
    assert not guests & {p.player for p in places}
    assert len({p.player for p in places}) == len(places)  # once each
    # the final's players, in its order, take the first places: a place is the stage's rank
    head = places[:len(final.rows)]
    assert [(p.player, p.place) for p in head] == [(r.player, r.rank) for r in final.rows]
    assert {p.stage for p in head} == {model.stages[-1].id}
    # then those who stopped in the stage before, their place after the final's players, in that stage's order
    before = standings[model.stages[-2].id]
    stopped = [r for r in before.rows if r.player not in {p.player for p in head}]
    nxt = places[len(head)]
    assert nxt.player == stopped[0].player and nxt.stage == model.stages[-2].id
    assert nxt.place == len(head) + 1
    assert [p.place for p in places] == sorted(p.place for p in places)
    # everyone who played and is no guest has a place
    played = {seat.player for s in model.stages for r in s.rounds for g in r.games for seat in g.seats}
    assert {p.player for p in places} == played - guests


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_disqualified_get_no_place(ruleset: str) -> None:
    data = example(ruleset)
    winner = places_of(fileio.load(data))[0][0].player
    data["tournament"]["disqualifications"] = [{"player": winner, "reason": "cheating", "at": "2025-03-16T12:00:00Z"}]
    places, _ = places_of(fileio.load(data))
    assert winner not in {p.player for p in places}
    assert places[0].place == 1


@pytest.mark.parametrize("ruleset", RULESETS)
def test_an_unfinished_final_places_by_the_stage_before(ruleset: str) -> None:
    """The final not played yet: its players are placed by the semifinal (or qualifying) standings."""
    data = example(ruleset)
    data["stages"][-1]["rounds"] = []
    model = fileio.load(data)
    places, standings = places_of(model)
    before = standings[model.stages[-2].id]
    assert [p.player for p in places][:5] == [r.player for r in before.rows][:5]
    assert {p.stage for p in places[:5]} == {model.stages[-2].id}


def test_a_shared_rank_is_a_shared_place() -> None:
    """Two players third in the final: both 3rd, the next 5th; the next stage's first after them is 6th."""
    model = fileio.load(example("kostroma"))
    rows = {model.stages[-1].id: [("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 5), ("x", None)],
            model.stages[0].id: [("a", 1), ("f", 1), ("c", 2), ("g", 7), ("h", 8)]}

    def standings_of(stage: str) -> Any:
        return SimpleNamespace(rows=[SimpleNamespace(player=p, rank=r) for p, r in rows[stage]])

    places = final_places(model, standings_of)
    assert [(p.player, p.place) for p in places] == [("a", 1), ("b", 2), ("c", 3), ("d", 3), ("e", 5),
                                                     ("f", 6), ("g", 7), ("h", 8)]
