"""The options of rated tournaments (docs/rules/parameters.md, "Options of rated tournaments"): each parameter and
metric on a hand-worked case, the arithmetic in the comments, and the defaults changing nothing.

Layouts (``build``): fiim seats 1 don, 2–3 mafia, 4 sheriff, 5–10 civilians.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio
from scoring.generate import generate
from scoring.standings import compute_standings, standings_json
from tests.scoring.build import game, players, problems, round_, stage, standings, tournament

TEN = players(10)
GOLDEN = Path(__file__).parent / "data" / "golden" / "standings-before-rated-options.json"


def rated(params: dict[str, Any], rounds: list[dict[str, Any]], ruleset: str = "fiim", **facts: Any) -> dict[str, Any]:
    return tournament(ruleset, [stage("q", rounds)], params=params, **facts)


def row_points(data: dict[str, Any], stage_id: str | None = None) -> dict[str, Fraction]:
    return {row.player: row.points for row in standings(data, stage_id).rows}


# --- The defaults change nothing ---------------------------------------------------------------------


def test_the_standings_are_byte_identical_to_those_before_the_options() -> None:
    """The golden file was written by the code before these parameters existed (commit 850ef1e): every stage of
    every example and of two generated tournaments per ruleset (three stages, guests). Its fiim entries were
    written again when "named best" became the judges' naming only (``best: true``), no longer any extra points:
    the points, games and wins of every row stayed the same."""
    golden = json.loads(GOLDEN.read_text())
    now: dict[str, Any] = {}
    for path in sorted((Path(__file__).parent / "data").glob("*.json")):
        t = fileio.load(json.loads(path.read_text()))
        now[path.stem] = {s.id: standings_json(compute_standings(t, s.id)) for s in t.stages}
    for ruleset in ("tomsk", "kostroma", "fiim", "zvezdy"):
        for seed in (1, 2):
            t = generate(ruleset, players=40, rounds=6, seed=seed, stages=3, guests=2)
            now[f"generated-{ruleset}-{seed}"] = {s.id: standings_json(compute_standings(t, s.id)) for s in t.stages}
    assert json.dumps(now, sort_keys=True, ensure_ascii=False) == json.dumps(golden, sort_keys=True,
                                                                            ensure_ascii=False)


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim"])
@pytest.mark.parametrize("seed", [3, 4])
def test_the_defaults_written_out_change_nothing(ruleset: str, seed: int) -> None:
    """Writing every new parameter at its default gives the same standings as leaving it out (zvezdy's chain
    switches with the tally, so its written-out chain is the ruleset's only where black won at least as often)."""
    t = generate(ruleset, players=30, rounds=4, seed=seed, stages=2)
    data = fileio.dump(t)
    chain = {"tomsk": ["wins", "days_survived"], "kostroma": ["extra", "wins", "don_sheriff_wins"],
             "fiim": ["wins", "best", "don_wins", "sheriff_wins", "mafia_wins", "first_killed"]}[ruleset]
    written = {**data, "params": {"tiebreaks": [*chain, "lots"], "loss_points": 0, "role_points": {},
                                  "ci_rate": 0, "ci_share": 0.4, "ci_cap": None, "rank_by": "points", "min_games": 0}}
    for s in t.stages:
        before = standings_json(compute_standings(fileio.load(data), s.id))
        assert standings_json(compute_standings(fileio.load(written), s.id)) == before


# --- Ci, the first-night compensation ----------------------------------------------------------------


def twelve_rounds(killed_first: dict[int, tuple[int, str]], ci: dict[str, Any]) -> dict[str, Any]:
    """12 rounds of one fiim table; ``killed_first``: round → (seat killed first, winner); other rounds black wins
    with nobody killed first."""
    rounds = []
    for number in range(1, 13):
        seat, winner = killed_first.get(number, (0, "black"))
        facts = {"first_killed": seat} if seat else {}
        rounds.append(round_(number, [game("fiim", TEN, winner, **facts)]))
    return rated(ci, rounds)


def test_ci_on_the_worked_12_round_example() -> None:
    # ci_rate 0.4, N = 12 rounds, B = max(1, round_half_up(0.4 × 12 = 4.8)) = 5. Seat 5 (p05, civilian) was killed
    # first twice (K = 2): in round 1 the red side lost → Ci = min(0.4, 0.4 × 2 / 5) = 0.16; in round 2 red won →
    # no Ci (+2 for the win). Every other round black won: 0. p05: 0.16 + 2 = 2.16.
    data = twelve_rounds({1: (5, "black"), 2: (5, "red")}, {"ci_rate": 0.4})
    result = standings(data)
    row = result.row("p05")
    assert row is not None
    assert row.points == Fraction(216, 100)
    first = row.tally.seats[0]
    assert first.points.ci == Fraction(16, 100) and first.points.parts() == {"ci": Fraction(16, 100)}
    assert row.tally.ci == Fraction(16, 100)
    # p06, a civilian never killed first, won round 2 and lost the other 11: 2 points, no Ci.
    assert result.row("p06").points == 2  # type: ignore[union-attr]


def test_ci_cap_share_and_half_up_rounding() -> None:
    # ci_share 0.375: 0.375 × 12 = 4.5 → 5 (half up, not to even), so K = 1 gives 0.4 × 1 / 5 = 0.08;
    # with ci_cap 0.05 the same game gives 0.05.
    data = twelve_rounds({1: (6, "black")}, {"ci_rate": 0.4, "ci_share": 0.375})
    assert row_points(data)["p06"] == Fraction(8, 100)
    capped = twelve_rounds({1: (6, "black")}, {"ci_rate": 0.4, "ci_share": 0.375, "ci_cap": "0.05"})
    assert row_points(capped)["p06"] == Fraction(5, 100)
    # ci_share 0.5: B = 6; K = 3 (three lost games killed first) → 0.4 × 3 / 6 = 0.2 a game, 0.6 in all.
    three = twelve_rounds({1: (6, "black"), 2: (6, "black"), 3: (6, "black")}, {"ci_rate": 0.4, "ci_share": 0.5})
    assert row_points(three)["p06"] == Fraction(6, 10)


def test_ci_goes_to_red_players_of_a_lost_game_only() -> None:
    # A black player killed first (seat 2, mafia) of a game black won gets 2 for the win and no Ci; the sheriff
    # (seat 4) killed first in a lost game gets Ci = 0.4 × 1 / 5 = 0.08.
    data = twelve_rounds({1: (2, "black"), 2: (4, "black")}, {"ci_rate": 0.4})
    points = row_points(data)
    assert points["p02"] == 24  # 12 black wins × 2
    assert points["p04"] == Fraction(8, 100)


def test_ci_is_multiplied_with_the_stage_and_each_stage_counts_alone() -> None:
    # Qualifying: 2 rounds, p05 killed first in both, red lost both: B = max(1, round(0.8)) = 1, K = 2 →
    # min(0.4, 0.4 × 2 / 1) = 0.4 a game (the cap, equal to the rate), 0.8 in all.
    # Final (multiplier 1.5, no reset): 1 round, p05 killed first once, red lost: B = max(1, round(0.4)) = 1,
    # K = 1 (the qualifying's kills do not count) → 0.4 × 1.5 = 0.6. Total 0.8 + 0.6 = 1.4.
    q = stage("q", [round_(n, [game("fiim", TEN, "black", first_killed=5)]) for n in (1, 2)])
    f = stage("f", [round_(1, [game("fiim", TEN, "black", first_killed=5)])], kind="final", multiplier=1.5)
    data = tournament("fiim", [q, f], params={"ci_rate": 0.4})
    assert row_points(data, "q")["p05"] == Fraction(8, 10)
    assert row_points(data, "f")["p05"] == Fraction(14, 10)
    # The ci metric counts the compensation as the standings do: 0.8 + 0.6.
    assert standings(data, "f").row("p05").tally.ci == Fraction(14, 10)  # type: ignore[union-attr]


# --- loss_points, role_points -----------------------------------------------------------------------


def test_loss_points_as_a_number_and_per_side() -> None:
    # Red wins: reds 2 each; blacks lose: 0.5 each with loss_points 0.5.
    data = rated({"loss_points": 0.5}, [round_(1, [game("fiim", TEN, "red")])])
    points = row_points(data)
    assert points["p01"] == points["p02"] == Fraction(1, 2) and points["p05"] == 2
    # Per side: a losing black gets 1, a losing red 0.25; round 2 black wins.
    data = rated({"loss_points": {"red": "0.25", "black": 1}},
                 [round_(1, [game("fiim", TEN, "red")]), round_(2, [game("fiim", TEN, "black")])])
    points = row_points(data)
    assert points["p01"] == 1 + 2  # lost round 1 as black (1), won round 2 (2)
    assert points["p05"] == 2 + Fraction(1, 4)  # won round 1, lost round 2 as red


def test_role_points_by_role_and_result() -> None:
    # The don (seat 1) wins: 2 + 0.5; next round loses: −0.5 → 2. The sheriff (seat 4) loses, then wins: −0.25 +
    # 2 + 0.25 = 2. A mafia player gets nothing extra: 2.
    params = {"role_points": {"don": {"win": 0.5, "loss": -0.5}, "sheriff": {"win": 0.25, "loss": "-0.25"}}}
    data = rated(params, [round_(1, [game("fiim", TEN, "black")]), round_(2, [game("fiim", TEN, "red")])])
    points = row_points(data)
    assert points["p01"] == 2 and points["p04"] == 2 and points["p02"] == 2
    first = standings(data).row("p01").tally.seats[0].points  # type: ignore[union-attr]
    assert first.parts() == {"win": 2, "role": Fraction(1, 2)}


# --- rank_by and min_games --------------------------------------------------------------------------


def test_rank_by_average_with_min_games() -> None:
    # Round 1: p01–p10, red wins. Round 2: p01 sits out (absent under fiim is −2: use a bye, 0), p11 plays seat 1
    # (don) and black wins. p05 (civilian): 2 + 0 in 2 games = 1 a game; p11 (don): 2 in 1 game = 2 a game, but
    # with min_games 2 p11 and p01 (one game each) rank after everyone who played 2.
    second = ["p11", *TEN[1:]]
    rounds = [round_(1, [game("fiim", TEN, "red")]), round_(2, [game("fiim", second, "black")], byes=["p01"])]
    by_average = rated({"rank_by": "average"}, rounds)
    result = standings(by_average)
    assert result.rows[0].player == "p11" and result.rows[0].tally.average == 2
    assert standings_json(result)["standings"][0]["average"] == 2  # type: ignore[index]
    with_min = rated({"rank_by": "average", "min_games": 2}, rounds)
    order = [row.player for row in standings(with_min).rows]
    assert order[-2:] == ["p11", "p01"]  # one game each: after the 9 who played 2; p11's 2 a game above p01's 0
    assert standings(with_min).row("p11").rank == 10  # type: ignore[union-attr]


# --- The tie-break chain as a parameter and the new metrics -------------------------------------------


def chain_of(data: dict[str, Any]) -> tuple[str, ...]:
    return standings(data).chain


def test_tiebreaks_replace_the_chain_and_lots_come_last() -> None:
    data = rated({"tiebreaks": ["extra_total", "wins", "don_wins", "sheriff_wins", "lots"]},
                 [round_(1, [game("fiim", TEN, "red")])])
    assert chain_of(data) == ("extra_total", "wins", "don_wins", "sheriff_wins")
    # zvezdy's switching chain is replaced too.
    z = tournament("zvezdy", [stage("q", [round_(1, [game("zvezdy", TEN, "red")])])], params={"tiebreaks": ["wins"]})
    assert chain_of(z) == ("wins",)


def test_extra_total_counts_extra_and_best_move_as_the_standings_do() -> None:
    # Red wins. p05 (civilian, killed first) named seats 1, 2, 3: three blacks → 0.5; p06 got extra 1 (a winner).
    # Both have 2.5. extra_total: p05 0.5 (best move), p06 1 (extra): p06 ranks above. Under fiim's own chain
    # wins tie (1 each), then best: p06 was named best (extra > 0) → also above.
    data = rated({"tiebreaks": ["extra_total"]}, [round_(1, [game("fiim", TEN, "red", first_killed=5,
                                                              best_move=[1, 2, 3], seats={6: {"extra": 1}})])])
    result = standings(data)
    assert [row.player for row in result.rows[:2]] == ["p06", "p05"]
    assert result.row("p05").tiebreaks == {"extra_total": Fraction(1, 2)}  # type: ignore[union-attr]


def test_losses_removals_and_penalties_rank_fewer_or_less_negative_higher() -> None:
    # Two tables of ten; each table's reds win: the reds have 2 points each.
    # removals: q05 was removed (4 fouls; fiim's removal costs 0 points) → ranks below p05 (fewer ranks higher).
    # penalties: p07 got extra 1 and a round penalty of −1 (2 + 1 − 1 = 2), q07 has 2 and no penalty → q07
    # ranks above p07 (0 is less negative than −1).
    q = [f"q{n:02d}" for n in range(1, 11)]
    rounds = [round_(1, [game("fiim", TEN, "red", seats={7: {"extra": 1}}),
                         game("fiim", q, "red", table=2, seats={5: {"fouls": 4, "removed": True}})],
                     penalties=[{"player": "p07", "points": -1}])]
    data = rated({"tiebreaks": ["removals", "penalties"]}, rounds)
    result = standings(data)
    place = {row.player: index for index, row in enumerate(result.rows)}
    assert place["p05"] < place["q05"]
    assert result.row("q05").tiebreaks["removals"] == 1  # type: ignore[union-attr]
    assert place["q07"] < place["p07"]
    assert result.row("p07").tiebreaks["penalties"] == -1  # type: ignore[union-attr]


def test_losses_games_average_and_side_wins() -> None:
    # Round 1: the table of p01–p10, red wins; round 2: the same table, black wins. Everyone has 2 points from
    # 1 win and 1 loss in 2 games (1 a game); the reds (seats 4–10) won as red, the blacks (1–3) as black.
    rounds = [round_(1, [game("fiim", TEN, "red")]), round_(2, [game("fiim", TEN, "black")])]
    for metric, expected in (("red_wins", {"p05": 1, "p01": 0}), ("black_wins", {"p05": 0, "p01": 1}),
                             ("losses", {"p05": 1, "p01": 1}), ("games", {"p05": 2, "p01": 2}),
                             ("points_average", {"p05": 1, "p01": 1})):
        result = standings(rated({"tiebreaks": [metric]}, rounds))
        for player, value in expected.items():
            assert result.row(player).tiebreaks[metric] == value, metric  # type: ignore[union-attr]
    # red_wins puts the reds (p04–p10, won as red) above the blacks; black_wins the other way round.
    assert standings(rated({"tiebreaks": ["red_wins"]}, rounds)).rows[0].player == "p04"
    assert standings(rated({"tiebreaks": ["black_wins"]}, rounds)).rows[0].player == "p01"


def test_losses_rank_fewer_higher() -> None:
    # Round 1: p01–p10, red wins: p05 has 2 points from 1 game, 0 losses. Round 2: p01 is the don of a table of
    # q02–q10 that black wins: p01 has 2 points too, after losing round 1 (1 loss). Under "losses" p05 ranks
    # above p01.
    q = [f"q{n:02d}" for n in range(1, 11)]
    second = ["p01", *q[1:]]
    rounds = [round_(1, [game("fiim", TEN, "red")]), round_(2, [game("fiim", second, "black")])]
    result = standings(rated({"tiebreaks": ["losses"]}, rounds))
    place = {row.player: index for index, row in enumerate(result.rows)}
    assert result.row("p01").points == result.row("p05").points == 2  # type: ignore[union-attr]
    assert place["p05"] < place["p01"]


def test_previous_stage_rank_ranks_a_better_place_higher() -> None:
    # Qualifying: p01–p10, red wins; extra 1 for p10 → p10 first (3), p04–p09 share 2 points (fiim's own chain
    # then separates nobody: sheriff_wins puts p04 above p05–p09). Final: black wins; the reds tie on 0; by
    # previous_stage_rank p10 (1st) ranks first among them, p04 (2nd) next.
    q = stage("q", [round_(1, [game("fiim", TEN, "red", seats={10: {"extra": 1}})])])
    f = stage("f", [round_(1, [game("fiim", TEN, "black")])], kind="final", reset=True)
    data = tournament("fiim", [q, f], params={"tiebreaks": ["previous_stage_rank"]})
    qualifying = standings(data, "q")
    assert qualifying.rows[0].player == "p10"
    assert qualifying.row("p01").tiebreaks["previous_stage_rank"] is None  # type: ignore[union-attr]
    final = standings(data, "f")
    reds = [row.player for row in final.rows if row.player in TEN[3:]]
    assert reds[0] == "p10"
    assert final.row("p10").tiebreaks["previous_stage_rank"] == 1  # type: ignore[union-attr]


# --- Best move and extra points under overrides -----------------------------------------------------------


def test_best_move_for_any_red_role_and_both_tables() -> None:
    # kostroma with overrides: a first-killed doctor (seat 5) naming 3 blacks gets the civilian's 0.5; a
    # first-killed sheriff (seat 4) in round 2 naming 3 blacks gets the sheriff's 0.25.
    ten = players(10)
    params = {"best_move_civilian": {"3": 0.5}, "best_move_sheriff": {"3": 0.25}}
    rounds = [round_(1, [game("kostroma", ten, "black", first_killed=5, best_move=[1, 2, 3])]),
              round_(2, [game("kostroma", ten, "black", first_killed=4, best_move=[1, 2, 3])])]
    points = row_points(tournament("kostroma", [stage("q", rounds)], params=params))
    assert points["p05"] == Fraction(1, 2) and points["p04"] == Fraction(1, 4)


def test_negative_extra_in_any_step_when_the_parameters_allow() -> None:
    params = {"extra_max_players": 10, "extra_values_winner": {"min": -2, "max": 2, "step": 0.1},
              "extra_values_loser": {"min": -2, "max": 2, "step": 0.1}}
    data = rated(params, [round_(1, [game("fiim", TEN, "red", seats={5: {"extra": -0.3}, 1: {"extra": 0.7}})])])
    assert problems(data) == []
    points = row_points(data)
    assert points["p05"] == Fraction(17, 10)  # a winner: 2 − 0.3
    assert points["p01"] == Fraction(7, 10)  # a loser: 0 + 0.7


# --- Exact fractions -------------------------------------------------------------------------------------


def test_a_fraction_string_is_kept_exact_and_written_back() -> None:
    # An extra of 1/15 (a step of 1/15 allowed) and a penalty of −2/3: p05 has 2 + 1/15 − 2/3 = 1.4 exactly.
    params = {"extra_values_winner": {"min": 0, "max": 1, "step": "1/15"}}
    data = rated(params, [round_(1, [game("fiim", TEN, "red", seats={5: {"extra": "1/15"}})],
                                 penalties=[{"player": "p05", "points": "-2/3"}])])
    assert row_points(data)["p05"] == Fraction(7, 5)
    dumped = fileio.dump(fileio.load(data))
    seat = dumped["stages"][0]["rounds"][0]["games"][0]["seats"][4]  # type: ignore[index]
    assert seat["extra"] == "1/15"
    assert dumped["stages"][0]["rounds"][0]["penalties"][0]["points"] == "-2/3"  # type: ignore[index]
    assert fileio.load(dumped) == fileio.load(data)


def test_a_bad_fraction_is_refused_by_the_schema() -> None:
    data = rated({}, [round_(1, [game("fiim", TEN, "red", seats={5: {"extra": "1/0"}})])])
    assert problems(data)


# --- Bad parameters: exit 2 naming the parameter ----------------------------------------------------------


@pytest.mark.parametrize(("params", "expected"), [
    ({"tiebreaks": ["wins", "nope"]}, "params.tiebreaks: unknown metric 'nope'"),
    ({"tiebreaks": "wins"}, "params.tiebreaks: expected a list of metric ids"),
    ({"tiebreaks": ["lots", "wins"]}, "params.tiebreaks: \"lots\" can only come last"),
    ({"tiebreaks": ["wins", "wins"]}, "params.tiebreaks: metric 'wins' is listed twice"),
    ({"loss_points": {"green": 1}}, "params.loss_points: unknown side 'green'"),
    ({"role_points": {"king": {"win": 1}}}, "params.role_points: unknown role 'king'"),
    ({"role_points": {"don": {"draw": 1}}}, "params.role_points: the points of don are an object"),
    ({"ci_rate": True}, "params.ci_rate: expected a number"),
    ({"ci_rate": -1}, "params.ci_rate: must not be below 0"),
    ({"ci_cap": "lots"}, "params.ci_cap: expected a number"),
    ({"rank_by": "wins"}, "params.rank_by: expected \"points\" or \"average\""),
    ({"min_games": 1.5}, "params.min_games: expected a whole number"),
    ({"day_points": 1}, "params.day_points: does not apply to fiim"),
    ({"sp_max": 1}, "params.sp_max: does not apply to fiim"),
])
def test_a_bad_parameter_is_named(params: dict[str, Any], expected: str) -> None:
    found = problems(rated(params, [round_(1, [game("fiim", TEN, "red")])]))
    assert any(expected in text for text in found), found


@pytest.mark.parametrize(("ruleset", "name"), [("tomsk", "extra_values_winner"), ("tomsk", "extra_values_loser"),
                                              ("kostroma", "day_points"), ("zvezdy", "sp_min")])
def test_a_dash_parameter_does_not_apply(ruleset: str, name: str) -> None:
    from scoring.rulesets import get_ruleset

    _params, errors = get_ruleset(ruleset).parse_params({name: 1 if name != "extra_values_winner" else [0]})
    assert [str(error) for error in errors] == [f"params.{name}: does not apply to {ruleset}"]


def test_the_cli_exits_2_naming_the_parameter(tmp_path: Path) -> None:
    from tests.scoring.build import run_cli

    path = tmp_path / "t.json"
    path.write_text(json.dumps(rated({"ci_share": "x", "tiebreaks": ["wins", "x"]},
                                     [round_(1, [game("fiim", TEN, "red")])])))
    result = run_cli("standings", str(path))
    assert result.returncode == 2
    assert "params.ci_share" in result.stderr and "params.tiebreaks" in result.stderr
