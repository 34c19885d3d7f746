"""``python -m scoring explain`` (docs/explain.md): the standings' own comparisons, walked for one player."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import fileio
from scoring.explain import PlayerNotRanked, explain, number_text
from scoring.generate import generate
from scoring.metrics import METRICS
from scoring.model import Tournament
from scoring.standings import compute_standings
from tests.scoring.build import game, players, round_, run_cli, stage, tournament

DATA = Path(__file__).parent / "data"
EXAMPLES = sorted(DATA.glob("*-example.json"))
TEN = players(10)


def check_against_standings(t: Tournament, stage_id: str, player: str) -> dict[str, Any]:
    """The explanation agrees with the standings: rank and points, who is compared, and each verdict."""
    standings = compute_standings(t, stage_id)
    out = explain(t, stage_id, player)
    rows = list(standings.rows)
    index = next(i for i, row in enumerate(rows) if row.player == player)
    mine = rows[index]
    assert (out["stage"], out["player"], out["rank"], out["points"]) == (stage_id, player, mine.rank,
                                                                         number_text(mine.points))
    against: list[dict[str, Any]] = out["against"]  # type: ignore[assignment]
    names = [entry["player"] for entry in against]
    level = [row.player for row in rows if row.player != player and (
        row.tally.average == mine.tally.average if standings.rank_by == "average" else row.points == mine.points)]
    # the players ranked just above and just below: past those who share P's rank (docs/explain.md), not merely the
    # rows next to P's
    def place(i: int) -> object:
        return ("disqualified", i) if rows[i].rank is None else rows[i].rank

    higher = [i for i in range(index) if place(i) != place(index)]
    lower = [i for i in range(index + 1, len(rows)) if place(i) != place(index)]
    neighbours = [rows[i].player for i in ([max(higher)] if higher else []) + ([min(lower)] if lower else [])]
    shared = [row.player for row in rows if row.player != player and mine.rank is not None and row.rank == mine.rank]
    assert set(names) == set(level) | set(neighbours) | set(shared)
    assert names == [row.player for row in rows if row.player in names]  # in standings order
    for entry in against:
        theirs = rows[next(i for i, row in enumerate(rows) if row.player == entry["player"])]
        steps = entry["steps"]
        assert entry["rank"] == theirs.rank
        decisive = [step for step in steps if step.get("decides")]
        assert all("decides" not in step for step in steps[:-1])
        if mine.rank is not None and theirs.rank is not None and mine.rank == theirs.rank:
            assert not decisive  # nothing separates them: the whole chain, then lots nobody drew
            assert steps[-1] == {"metric": "lots", "mine": None, "theirs": None}
            chain = ["average" if standings.rank_by == "average" else "points", *standings.chain, "lots"]
            assert [step["metric"] for step in steps] == chain
        else:
            assert len(decisive) == 1
            step = decisive[0]
            above = rows.index(theirs) < index
            if step["metric"] in ("points", "average"):
                assert (Fraction(step["theirs"]) > Fraction(step["mine"])) == above
            elif step["metric"] in METRICS and step["mine"] is not None and step["theirs"] is not None:
                metric = METRICS[step["metric"]]
                values = [Fraction(v) for v in (step["mine"], step["theirs"])]
                theirs_better = values[1] < values[0] if metric.fewer_ranks_higher else values[1] > values[0]
                assert theirs_better == above
            elif step["metric"] == "lots":
                drawn = [v for v in (step["mine"], step["theirs"]) if v is not None]
                assert drawn  # someone was drawn
    return out


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_every_player_of_the_examples_is_explained_as_the_standings_rank_them(path: Path) -> None:
    t = fileio.loads(path.read_text())
    for s in t.stages:
        for row in compute_standings(t, s.id).rows:
            check_against_standings(t, s.id, row.player)


@settings(max_examples=25, deadline=None)
@given(ruleset=st.sampled_from(["tomsk", "kostroma", "fiim", "zvezdy"]), players_=st.integers(10, 30),
       rounds=st.integers(1, 3), seed=st.integers(0, 10**6), stages=st.integers(1, 2), guests=st.integers(0, 2))
def test_generated_tournaments(ruleset: str, players_: int, rounds: int, seed: int, stages: int,
                               guests: int) -> None:
    t = generate(ruleset, players_, rounds, seed, stages, guests)
    for s in t.stages:
        for row in compute_standings(t, s.id).rows[:12]:
            check_against_standings(t, s.id, row.player)


def load(data: dict[str, Any]) -> Tournament:
    return fileio.load(data)


def entry(out: dict[str, Any], player: str) -> dict[str, Any]:
    return next(e for e in out["against"] if e["player"] == player)


def test_the_contracts_example_shape_a_tie_on_points_decided_by_wins() -> None:
    # Reds win rounds 1 and 3, blacks round 2; a winner's extra 1 goes to p05 in round 1 and to p06 in round 3.
    rounds = [round_(1, [game("fiim", TEN, "red", seats={5: {"extra": 1}})]),
              round_(2, [game("fiim", TEN, "black", seats={1: {"extra": 1}})]),
              round_(3, [game("fiim", TEN, "red", seats={6: {"extra": 1}})])]
    t = load(tournament("fiim", [stage("q", rounds)]))
    # p05: 3 + 0 + 2 = 5 and p06: 2 + 0 + 3 = 5, 2 wins each, both named best once: level on the chain.
    out = check_against_standings(t, "q", "p05")
    assert out["points"] == "5"
    assert entry(out, "p06")["steps"][:2] == [{"metric": "points", "mine": "5", "theirs": "5"},
                                             {"metric": "wins", "mine": 2, "theirs": 2}]


def test_a_tie_broken_by_wins() -> None:
    rounds = [round_(1, [game("kostroma", TEN, "black")]),  # blacks p01–p03: 4 each
              round_(2, [game("kostroma", TEN, "red", seats={1: {"extra": 1}})])]  # reds 3; p01 extra 1 → 5
    t = load(tournament("kostroma", [stage("q", rounds)]))
    # p01: 4 + 1 = 5, extra 1; p02: 4, p04: 3. Chain: points → extra → wins → don_sheriff_wins.
    out = check_against_standings(t, "q", "p02")
    assert out["rank"] == 2 and out["points"] == "4"
    assert entry(out, "p01")["steps"] == [{"metric": "points", "mine": "4", "theirs": "5", "decides": True}]
    assert entry(out, "p03")["steps"] == [
        {"metric": "points", "mine": "4", "theirs": "4"}, {"metric": "extra", "mine": "0", "theirs": "0"},
        {"metric": "wins", "mine": 1, "theirs": 1}, {"metric": "don_sheriff_wins", "mine": 0, "theirs": 0},
        {"metric": "lots", "mine": None, "theirs": None}]
    sheriff = check_against_standings(t, "q", "p04")  # 3 points, 1 win as sheriff; p05..p10 3 points, 1 win
    assert entry(sheriff, "p05")["steps"][-1] == {"metric": "don_sheriff_wins", "mine": 1, "theirs": 0,
                                                  "decides": True}


def test_only_the_lots_separate() -> None:
    rounds = [round_(1, [game("fiim", TEN, "red")])]
    t = load(tournament("fiim", [stage("q", rounds, lots=["p07", "p05"])]))
    out = check_against_standings(t, "q", "p05")
    assert out["rank"] == 3  # the sheriff p04 first (a win as sheriff), then the drawn p07, p05
    assert entry(out, "p07")["steps"][-1] == {"metric": "lots", "mine": 2, "theirs": 1, "decides": True}
    assert entry(out, "p06")["steps"][-1] == {"metric": "lots", "mine": 2, "theirs": None, "decides": True}


def test_the_players_ranked_just_above_and_below_are_named_past_a_shared_rank() -> None:
    # Reds win: the sheriff p04 first, then p05-p10 level on everything (rank 2); the blacks p01-p03 level on
    # nothing but lots (rank 8). The rows next to p02 (p01, p03) share its rank: the one ranked just above is the
    # last civilian, 2 points more (7 of 63 players' explanations lacked the rank above or below).
    t = load(tournament("fiim", [stage("q", [round_(1, [game("fiim", TEN, "red")])])]))
    rows = list(compute_standings(t, "q").rows)
    assert [row.rank for row in rows] == [1, 2, 2, 2, 2, 2, 2, 8, 8, 8]
    out = check_against_standings(t, "q", "p02")
    names = [e["player"] for e in out["against"]]
    assert rows[6].player in names and rows[6].rank == 2
    assert entry(out, rows[6].player)["steps"] == [{"metric": "points", "mine": "0", "theirs": "2", "decides": True}]
    middle = check_against_standings(t, "q", "p07")  # shares rank 2: above is p04 (rank 1), below the first black
    assert {"p04", rows[7].player} <= {e["player"] for e in middle["against"]}
    bottom = check_against_standings(t, "q", "p03")
    assert rows[6].player in {e["player"] for e in bottom["against"]}


def test_average_ranked_stage_names_the_average() -> None:
    second = ["p11", *TEN[1:]]
    rounds = [round_(1, [game("fiim", TEN, "red")]), round_(2, [game("fiim", second, "black")], byes=["p01"])]
    t = load(tournament("fiim", [stage("q", rounds)], params={"rank_by": "average", "min_games": 2}))
    out = check_against_standings(t, "q", "p11")
    assert out["average"] == "2"
    # p11 has the best average but one game: ranked after those who played two, by the min_games tier.
    above = out["against"][0]
    assert above["steps"] == [{"metric": "short_of_games", "mine": True, "theirs": False, "decides": True}]
    leader = check_against_standings(t, "q", compute_standings(t, "q").rows[0].player)
    assert leader["against"][0]["steps"][0]["metric"] == "average"


def test_head_to_head_in_zvezdy() -> None:
    # Two games with the same ten: reds win, then blacks win. Civilians p05–p10 all have 5 points as red, then the
    # head-to-head of the tied group gives the same; the chain ends at lots.
    rounds = [round_(1, [game("zvezdy", TEN, "red")]), round_(2, [game("zvezdy", TEN, "black")])]
    t = load(tournament("zvezdy", [stage("q", rounds)]))
    out = check_against_standings(t, "q", "p05")
    steps = entry(out, "p06")["steps"]
    assert [s["metric"] for s in steps] == ["points", "red_points", "sheriff_average", "head_to_head", "lots"]


def test_a_disqualified_player_is_explained_as_the_standings_list_them() -> None:
    rounds = [round_(1, [game("fiim", TEN, "red")])]
    data = tournament("fiim", [stage("q", rounds)])
    data["tournament"] = {"name": "Cup", "disqualifications": [{"player": "p05", "reason": "x"}]}
    t = load(data)
    out = check_against_standings(t, "q", "p05")
    assert out["rank"] is None and out["disqualified"] is True
    assert entry(out, "p06")["steps"] == [{"metric": "disqualified", "mine": True, "theirs": False, "decides": True}]
    other = check_against_standings(t, "q", "p06")
    assert entry(other, "p05")["steps"][0]["metric"] == "disqualified"


def test_not_ranked_players_are_refused() -> None:
    rounds = [round_(1, [game("fiim", TEN, "red")])]
    t = load(tournament("fiim", [stage("q", rounds), stage("f", [])], player_ids=[*TEN, "g1", "p99"],
                        guests=["g1"]))
    with pytest.raises(PlayerNotRanked, match="a guest"):
        explain(t, "q", "g1")
    with pytest.raises(PlayerNotRanked, match="no such player"):
        explain(t, "q", "zz")
    with pytest.raises(PlayerNotRanked, match="not a player of this stage"):
        explain(t, "q", "p99")


def test_number_text_is_exact() -> None:
    assert [number_text(Fraction(v)) for v in ("11.5", "-0.25", "12", "10/3", "-7/2", "0.05")] == [
        "11.5", "-0.25", "12", "10/3", "-3.5", "0.05"]


def test_cli_explain_and_its_errors() -> None:
    path = str(DATA / "kostroma-example.json")
    first = json.loads(run_cli("standings", path, "--stage", "qualifying").stdout)["standings"][0]["player"]
    result = run_cli("explain", path, "--stage", "qualifying", "--player", first)
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert set(out) == {"stage", "player", "rank", "points", "against"} and out["rank"] == 1
    missing = run_cli("explain", path, "--stage", "qualifying", "--player", "nobody")
    assert missing.returncode == 2 and missing.stdout == ""
    assert missing.stderr == "stage qualifying, player nobody: no such player in the tournament\n"
    assert run_cli("explain", path, "--stage", "nope", "--player", first).returncode == 2
    assert run_cli("explain", path, "--stage", "qualifying").returncode == 2  # --player is required
