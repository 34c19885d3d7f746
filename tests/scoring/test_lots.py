"""Ties at a cut and the lots that break them (scoring/lots.py), under each of the four rulesets."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.lots import (
    Cut,
    CutKind,
    CutTie,
    DrawOrderError,
    check_draw_order,
    decided_by_lot,
    merge_lots,
    ties_at_cuts,
    ties_at_places,
    without_lots,
)
from scoring.standings import compute_standings
from scoring.validation import ruleset_for
from tests.scoring.build import game, load, players, round_, stage, tournament

TEN = players(10)
TWELVE = players(12)


def ties(data: dict[str, Any], places: tuple[int, ...] = ()) -> list[CutTie]:
    model = load(data)
    ruleset, _ = ruleset_for(model)
    return ties_at_cuts(model, compute_standings(model), ruleset, places)


def one_game(ruleset: str, winner: str, **facts: Any) -> dict[str, Any]:
    seated = TWELVE if ruleset == "tomsk" else TEN
    return tournament(ruleset, [stage("q", [round_(1, [game(ruleset, seated, winner)])], **facts)])


@pytest.mark.parametrize(("ruleset", "rank", "tied", "through"), [
    # black wins one game; top 2 go on. fiim, kostroma: the don is 1st (wins as don), the two mafia tie 2nd.
    ("fiim", 2, ("p02", "p03"), 1),
    ("kostroma", 2, ("p02", "p03"), 1),
    # zvezdy: nothing breaks the three blacks: they share 1st and two of the three places go on.
    ("zvezdy", 1, ("p01", "p02", "p03"), 2),
    # tomsk top 2 (the stage overrides per_game): the three mafia share 1st.
    ("tomsk", 1, ("p01", "p02", "p03"), 2),
])
def test_a_tie_straddling_the_top_cut_is_found(ruleset: str, rank: int, tied: tuple[str, ...], through: int) -> None:
    found = ties(one_game(ruleset, "black", advance={"top": 2}))
    assert found == [CutTie(rank, tied, (Cut(CutKind.ADVANCE, through),))]
    assert found[0].last == rank + len(tied) - 1


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "zvezdy", "tomsk"])
def test_a_cut_between_two_ranks_is_no_tie(ruleset: str) -> None:
    assert ties(one_game(ruleset, "black", advance={"top": 3})) == []


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "zvezdy", "tomsk"])
def test_lots_that_break_the_tie_leave_nothing_to_draw(ruleset: str) -> None:
    data = one_game(ruleset, "black", advance={"top": 2}, lots=["p03", "p02", "p01"])
    assert ties(data) == []
    assert decided_by_lot(compute_standings(load(data))) >= {"p02", "p03"}


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "zvezdy", "tomsk"])
def test_a_stage_with_no_result_has_no_tie_to_draw(ruleset: str) -> None:
    data = tournament(ruleset, [stage("q", [], players=TEN, advance={"top": 2})])
    assert ties(data) == []


def test_tomsk_per_game_counts_a_tie_inside_a_game_across_its_k() -> None:
    # Red wins the table of 12: its 8 players tie on 2.5; K = 3 per table.
    found = ties(one_game("tomsk", "red"))
    assert found == [CutTie(1, tuple(TWELVE[4:]), (Cut(CutKind.GAME, 3, round=1, table=1),))]


def test_tomsk_per_game_tie_between_games_at_the_same_rank_is_one_group() -> None:
    # Two tables: each has 8 tied red players; they all share rank 1 and the draw covers all 16.
    other = players(12, start=13)
    data = tournament("tomsk", [stage("q", [round_(1, [game("tomsk", TWELVE, "red"),
                                                        game("tomsk", other, "red", table=2)])])])
    (tie,) = ties(data)
    assert len(tie.players) == 16
    assert [(c.round, c.table) for c in tie.cuts] == [(1, 1), (1, 2)]


def test_tomsk_final_winner_limit_cuts_the_winning_side() -> None:
    # Red's 8 players win the final and share 1st; at most 6 winners.
    found = ties(one_game("tomsk", "red", kind="final"))
    assert found == [CutTie(1, tuple(TWELVE[4:]), (Cut(CutKind.WINNER, 6),))]


def test_kostroma_final_has_no_winner_cut_but_prize_places_count() -> None:
    # kostroma's winners are the whole winning side (no limit); places 1–3 still straddle the reds' tie.
    data = one_game("kostroma", "red", kind="final")
    assert ties(data) == []
    assert ties(data, places=(1, 2, 3)) == [CutTie(2, ("p05", "p06", "p07", "p08", "p09", "p10"),
                                                 (Cut(CutKind.PLACE, 1), Cut(CutKind.PLACE, 2)))]


@pytest.mark.parametrize("ruleset", ["fiim", "zvezdy"])
def test_best_ranked_winner_tie_is_a_cut(ruleset: str) -> None:
    data = one_game(ruleset, "black", kind="final")
    found = ties(data)
    if ruleset == "zvezdy":  # three blacks share 1st
        assert found == [CutTie(1, ("p01", "p02", "p03"), (Cut(CutKind.WINNER, 1),))]
    else:  # fiim: the don wins alone
        assert found == []


def test_ties_at_places_names_any_line() -> None:
    result = compute_standings(load(one_game("fiim", "red")))
    assert ties_at_places(result, [1]) == []
    assert ties_at_places(result, [4]) == [CutTie(2, ("p05", "p06", "p07", "p08", "p09", "p10"),
                                                 (Cut(CutKind.PLACE, 3),))]


def test_decided_by_lot_marks_the_group_the_lots_split_only() -> None:
    # fiim, black wins: p02, p03 tie 2nd; the lots put p03 first. p01 won alone: not by lot.
    data = one_game("fiim", "black", lots=["p03"])
    result = compute_standings(load(data))
    assert [(r.rank, r.player) for r in result.rows[:3]] == [(1, "p01"), (2, "p03"), (3, "p02")]
    assert decided_by_lot(result) == {"p02", "p03"}
    assert decided_by_lot(compute_standings(load(one_game("fiim", "black")))) == frozenset()


def test_check_draw_order_names_the_player() -> None:
    assert check_draw_order(["a", "b", "c"], ["c", "a", "b"]) == ("c", "a", "b")
    for order, problem, player in [(["a", "b"], "missing", "c"), (["a", "a", "b", "c"], "twice", "a"),
                                   (["a", "b", "x"], "stranger", "x")]:
        with pytest.raises(DrawOrderError) as error:
            check_draw_order(["a", "b", "c"], order)
        assert (error.value.problem, error.value.player) == (problem, player)


def test_merge_and_remove_lots() -> None:
    assert merge_lots(None, ["b", "a"]) == ["b", "a"]
    assert merge_lots(["x", "a"], ["b", "a"]) == ["x", "b", "a"]
    assert without_lots(["x", "b", "a"], ["a", "b"]) == ["x"]
