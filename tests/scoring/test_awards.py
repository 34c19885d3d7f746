"""Awards as data (scoring.awards, docs/rules/awards.md): each kind's candidate, ties, exclusions, proposals."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.awards import KINDS, compute_candidate
from scoring.rulesets import get_ruleset

from .build import LAYOUTS, game, load, players, round_, stage, tournament

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def two_games(ruleset: str, first: dict[int, dict[str, Any]] | None = None, **info: Any) -> dict[str, Any]:
    """Two games of the same players: red wins the first, black the second (seat 1 is black in every layout)."""
    ids = players(len(LAYOUTS[ruleset]))
    games = [round_(1, [game(ruleset, ids, "red", seats=first)]), round_(2, [game(ruleset, ids, "black")])]
    return tournament(ruleset, [stage("s1", games)], **({"tournament": info} if info else {}))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_proposal_is_a_registered_kind(ruleset: str) -> None:
    proposals = get_ruleset(ruleset)().proposed_awards()
    assert proposals and all(p.kind in KINDS for p in proposals)
    assert len({p.kind for p in proposals}) == len(proposals)


def test_only_tomsk_gives_an_award_by_default() -> None:
    enabled = {r: [p.kind for p in get_ruleset(r)().proposed_awards() if p.enabled] for r in RULESETS}
    assert enabled == {"tomsk": ["best_player"], "kostroma": [], "fiim": [], "zvezdy": []}


def test_suggestions_follow_the_table() -> None:
    kinds = {r: {p.kind for p in get_ruleset(r)().proposed_awards()} for r in RULESETS}
    assert "best_role:don" not in kinds["tomsk"] and "best_role:maniac" in kinds["tomsk"]
    assert "best_role:don" in kinds["fiim"] and "best_role:doctor" in kinds["kostroma"]
    assert "most_best" not in kinds["tomsk"] and "most_best" in kinds["zvezdy"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_best_black_player_is_the_don_who_won_twice_as_black(ruleset: str) -> None:
    """Seat 1 is black in both games; in the first, red won. With the lot, ties on black points go to p01."""
    data = two_games(ruleset)
    data["stages"][0]["lots"] = ["p01"]
    candidate = compute_candidate(load(data), "best_side:black", min_games=2)
    assert candidate.players == ("p01",) and not candidate.tied


@pytest.mark.parametrize("ruleset", ["tomsk", "zvezdy"])
def test_an_unbroken_tie_names_everyone_tied(ruleset: str) -> None:
    data = two_games(ruleset)
    candidate = compute_candidate(load(data), "best_side:black", min_games=2)
    blacks = len([r for r in LAYOUTS[ruleset] if r in ("don", "mafia")])
    assert candidate.tied and len(candidate.players) == blacks


@pytest.mark.parametrize("ruleset", ["kostroma", "fiim"])
def test_the_chain_breaks_a_tie_before_the_lots(ruleset: str) -> None:
    """Equal black points; kostroma (wins as don or sheriff) and fiim (wins as don) put the don first."""
    candidate = compute_candidate(load(two_games(ruleset)), "best_side:black", min_games=2)
    assert candidate.players == ("p01",) and not candidate.tied


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_disqualified_player_never_receives_an_award(ruleset: str) -> None:
    data = two_games(ruleset)
    data["stages"][0]["lots"] = ["p01"]
    data["tournament"] = {"disqualifications": [{"player": "p01", "reason": "cheating"}]}
    candidate = compute_candidate(load(data), "best_side:black", min_games=2)
    assert "p01" not in candidate.players and candidate.players


@pytest.mark.parametrize("ruleset", RULESETS)
def test_too_few_games_in_the_role_is_no_candidate(ruleset: str) -> None:
    candidate = compute_candidate(load(two_games(ruleset)), "best_role:sheriff", min_games=3)
    assert candidate.players == () and candidate.value is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_best_player_has_the_most_points(ruleset: str) -> None:
    data = two_games(ruleset)
    model = load(data)
    candidate = compute_candidate(model, "best_player")
    from scoring.standings import compute_standings
    rows = compute_standings(model).rows
    top = max(row.points for row in rows)
    assert candidate.value == top and set(candidate.players) <= {r.player for r in rows if r.points == top}


def test_most_best_counts_the_players_named_best() -> None:
    data = two_games("fiim", first={6: {"best": True}, 7: {"extra": 1}})  # p07's extra point is not a naming
    candidate = compute_candidate(load(data), "most_best")
    assert candidate.players == ("p06",) and candidate.value == 1


def test_fiim_ineligible_player_is_left_out() -> None:
    """fiim 5.: missing two rounds or more bars a player from the awards."""
    ids = players(10)
    rounds = [round_(n, [game("fiim", ids, "black")]) for n in (1, 2)]
    rounds.append(round_(3, [game("fiim", ids, "black")]))
    data = tournament("fiim", [stage("s1", rounds)], player_ids=[*ids, "p11"])
    data["stages"][0]["rounds"][0]["absent"] = ["p11"]
    data["stages"][0]["rounds"][1]["absent"] = ["p11"]
    data["stages"][0]["lots"] = ["p11", "p01"]
    candidate = compute_candidate(load(data), "best_side:black", min_games=1)
    assert candidate.players == ("p01",)
