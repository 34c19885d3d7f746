"""``python -m scoring needs`` (docs/needs.md) against brute force on small generated stages.

The brute force plays out every outcome of the remaining games in a discretised model of the rules: every way to
deal the sides at the table (the ruleset's composition), every winner, every choice of who sits out on a bye in a
round not seated yet, and for each seat the lowest and the highest points its side and result can give (``SIDES``,
worked out from docs/rules/ by hand, not from ``scoring.rulesets.bounds``). Within one such outcome a player's
chance only falls as the others' points rise and rises with their own, so the two extremes decide it: P at their
lowest and everyone else at their highest (ties against P) for "sure", the reverse (ties P's way) for "possible".
A "clinched" must be sure in every outcome and an "eliminated" possible in none. Where the method claims to be
exact (no remaining game seats two ranked players), the statuses and the points needed must be the brute force's.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import fileio
from scoring.generate import generate
from scoring.model import Advance, Tournament
from scoring.needs import NoTarget, needs
from scoring.rulesets import get_ruleset
from scoring.rulesets.bounds import most_circles, one_game_points
from scoring.standings import compute_standings
from tests.scoring.build import LAYOUTS, game, players, round_, run_cli, stage, tournament

DATA = Path(__file__).parent / "data"
EXAMPLES = sorted(DATA.glob("*-example.json"))
RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")
SCALE = 4  # every point of these rules is a multiple of 1/4: the brute force counts in quarters

# The lowest and highest points of one seat by side and result, at the rulesets' defaults (docs/rules/):
# fiim: a red winner 2, + best move 0.5 + extra 1; a red loser up to best move 0.5 + extra 0.5; black 2 + extra 1 or
# extra 0.5. kostroma: red 3, black 4, + extra up to 1, −1 removed. tomsk: win 2, + 0.5 × days (1..12), + SP (−3..3).
# zvezdy: win 5, extra −2..2, best move 3 (red), circles ±1 in each of most_circles(10) = 27 circles, removal −3,
# missed nights −3 (a black loser).
C = most_circles(10)
SIDES: dict[str, dict[tuple[str, bool], tuple[Fraction, Fraction]]] = {
    "fiim": {("red", True): (Fraction(2), Fraction(7, 2)), ("red", False): (Fraction(0), Fraction(1)),
             ("black", True): (Fraction(2), Fraction(3)), ("black", False): (Fraction(0), Fraction(1, 2))},
    "kostroma": {("red", True): (Fraction(2), Fraction(4)), ("red", False): (Fraction(-1), Fraction(1)),
                 ("black", True): (Fraction(3), Fraction(5)), ("black", False): (Fraction(-1), Fraction(1))},
    "tomsk": {(side, won): ((Fraction(-1, 2), Fraction(11)) if won else (Fraction(-5, 2), Fraction(9)))
              for side in ("red", "black", "maniac") for won in (True, False)},
    "zvezdy": {("red", True): (Fraction(5 - 2 - C - 3), Fraction(5 + 2 + 3 + C)),
               ("red", False): (Fraction(-2 - C - 3), Fraction(2 + 3 + C)),
               ("black", True): (Fraction(5 - 2 - C - 3), Fraction(5 + 2 + C)),
               ("black", False): (Fraction(-2 - C - 3 - 3), Fraction(2 + C))},
}
ROLE_SIDES = {"don": "black", "mafia": "black", "maniac": "maniac"}


def side_layout(ruleset: str) -> list[str]:
    return [ROLE_SIDES.get(role, "red") for role in LAYOUTS[ruleset]]


# --- The bounds are real: a valid game reaches each -------------------------------------------------------------


def extreme_game(ruleset: str, highest: bool) -> tuple[dict[str, Any], str]:
    """A valid one-game tournament where one seat gets exactly the ruleset's most (or fewest) points for a game."""
    seated = players(len(LAYOUTS[ruleset]))
    circles = [{"best": [5]} if highest else {"worst": [2]} for _ in range(C)]
    games = {
        ("fiim", True): lambda: game("fiim", seated, "red", first_killed=5, best_move=[1, 2, 3],
                                     seats={5: {"extra": 1}}),
        ("fiim", False): lambda: game("fiim", seated, "red"),  # a black loser: 0
        ("kostroma", True): lambda: game("kostroma", seated, "black", seats={1: {"extra": 1}}),
        ("kostroma", False): lambda: game("kostroma", seated, "red", seats={2: {"removed": True}}),
        ("tomsk", True): lambda: game("tomsk", seated, "red", seats={7: {"days_survived": 12, "subjective": 3}}),
        ("tomsk", False): lambda: game("tomsk", seated, "black", seats={7: {"days_survived": 1, "subjective": -3}}),
        ("zvezdy", True): lambda: game("zvezdy", seated, "red", first_killed=5, best_move=[1, 2, 3], circles=circles,
                               seats={5: {"extra": 2}}),
        ("zvezdy", False): lambda: game("zvezdy", seated, "red", mafia_missed_three_nights=True, circles=circles,
                                seats={2: {"extra": -2, "removed": True}}),
    }
    who = {"fiim": ("p05", "p02"), "kostroma": ("p01", "p02"), "tomsk": ("p07", "p07"), "zvezdy": ("p05", "p02")}
    return tournament(ruleset, [stage("q", [round_(1, [games[ruleset, highest]()])])]), who[ruleset][not highest]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_games_bounds_are_reached_by_valid_games(ruleset: str) -> None:
    low, high = one_game_points(get_ruleset(ruleset)())
    for extreme, bound in ((True, high), (False, low)):
        data, who = extreme_game(ruleset, extreme)
        row = compute_standings(fileio.load(data), "q").row(who)
        assert row is not None and row.points == bound
    assert (low, high) == (min(r[0] for r in SIDES[ruleset].values()), max(r[1] for r in SIDES[ruleset].values()))


# --- Generated small stages --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class World:
    data: dict[str, Any]
    target: str
    rounds_left: int
    exact: bool  # no remaining game seats two ranked players


def random_game(rng: random.Random, ruleset: str, seated: list[str], table: int = 1) -> dict[str, Any]:
    sides = sorted(set(side_layout(ruleset)))
    seats: dict[int, dict[str, Any]] = {}
    if ruleset == "tomsk":
        seats = {n: {"days_survived": rng.randint(1, 12), "subjective": rng.choice([-3, -1.5, 0, 0.5, 2, 3])}
                 for n in range(1, 13)}
    elif ruleset == "kostroma":
        seats = {rng.randint(1, 10): {"extra": rng.choice([0.5, 1])}}
    elif ruleset == "zvezdy":
        seats = {n: {"extra": rng.choice([-2, -0.5, 0, 1.5, 2])} for n in rng.sample(range(1, 11), 3)}
    winner = rng.choice(sides)
    if ruleset == "fiim":
        winners = [n for n, side in enumerate(side_layout(ruleset), 1) if side == winner]
        seats = {rng.choice(winners): {"extra": 1}}
    order = seated[:]
    rng.shuffle(order)
    return game(ruleset, order, winner, table=table, seats=seats)


def make_world(rng: random.Random, ruleset: str, exact: bool) -> World:
    size = len(LAYOUTS[ruleset])
    if exact:
        ranked = players(rng.randint(4, 5 if ruleset == "zvezdy" else 7))
        guests = players(size - 1 + rng.randint(0, 3), prefix="g")
    else:
        ranked, guests = players(size + rng.randint(0, 1)), []
    everyone = ranked + guests
    byes_had: set[str] = set()
    rounds = []
    for number in (1, 2):
        fresh = [pid for pid in everyone if pid not in byes_had] if ruleset == "zvezdy" else everyone
        byes = rng.sample(fresh, len(everyone) - size)  # zvezdy: at most one bye a player
        seated = [pid for pid in everyone if pid not in byes]
        byes_had.update(byes)
        rounds.append(round_(number, [random_game(rng, ruleset, seated)], byes=byes))
    rounds_left = 0 if exact else rng.choice([0, 1])
    if rounds_left == 0:
        seated = [rng.choice(ranked), *rng.sample(guests, size - 1)] if exact else rng.sample(everyone, size)
        rounds.append(round_(3, [game(ruleset, seated, None)]))
    target = rng.choice(["advance", "win"])
    advance: dict[str, int] = {"top": rng.randint(1, len(ranked) - 1)}
    if ruleset == "tomsk" and rng.random() < 0.5:
        advance = {"per_game": rng.randint(1, 4)}
    kind = "final" if target == "win" and ruleset in ("fiim", "zvezdy") and rng.random() < 0.5 else "qualifying"
    facts: dict[str, Any] = {"kind": kind} if kind == "final" else {"advance": advance}
    params = {"rank_by": "average"} if rng.random() < 0.25 else {}
    data = tournament(ruleset, [stage("s", rounds, **facts)], player_ids=everyone, guests=guests,
                      **({"params": params} if params else {}))
    return World(data, target, rounds_left, exact)


def outcomes(world: World, t: Tournament) -> Iterator[tuple[dict[str, tuple[int, int]], list[str]]]:
    """Each distinct outcome of the remaining games: every player's (lowest, highest) change in quarters, and the
    line-up of the game played (for per-game advancement and the games played)."""
    ruleset = world.data["ruleset"]
    layout = side_layout(ruleset)
    size = len(layout)
    params = get_ruleset(ruleset).defaults
    bye = int(params.bye_points * SCALE)
    s = t.stages[0]
    if world.rounds_left:
        had_bye = {pid for r in s.rounds for pid in r.byes}
        everyone = s.participants()
        lineups = []
        for sitting_out in itertools.combinations(everyone, len(everyone) - size):
            if params.max_byes is not None and had_bye & set(sitting_out):
                continue
            lineups.append(([pid for pid in everyone if pid not in sitting_out], list(sitting_out)))
    else:
        unplayed = next(g for r in s.rounds for g in r.games if not g.has_result)
        lineups = [([seat.player for seat in unplayed.seats], [])]
    # The seats' (lowest, highest) by position, for every deal of the sides and every winner, each pattern once.
    patterns = {tuple((int(SIDES[ruleset][side, side == winner][0] * SCALE),
                       int(SIDES[ruleset][side, side == winner][1] * SCALE)) for side in sides)
                for sides in arrangements(layout) for winner in set(layout)}
    for seated, byes in lineups:
        for pattern in patterns:
            change = {pid: (bye, bye) for pid in byes}
            change.update(zip(seated, pattern, strict=True))
            yield change, seated


def arrangements(layout: list[str]) -> Iterator[tuple[str, ...]]:
    """Every distinct order of the sides in ``layout`` (the other sides placed among the red seats)."""
    others = sorted(side for side in set(layout) if side != "red")

    def place(free: list[int], remaining: list[str]) -> Iterator[dict[int, str]]:
        if not remaining:
            yield {}
            return
        side, rest = remaining[0], remaining[1:]
        for chosen in itertools.combinations(free, layout.count(side)):
            for placed in place([i for i in free if i not in chosen], rest):
                yield {**dict.fromkeys(chosen, side), **placed}

    for placed in place(list(range(len(layout))), others):
        yield tuple(placed.get(i, "red") for i in range(len(layout)))


def brute_force(world: World, t: Tournament) -> dict[str, tuple[bool, bool]]:
    """Player → (sure in every outcome, possible in some)."""
    standings = compute_standings(t, "s")
    final = standings.kind.value == "final"
    ranked = [row.player for row in standings.rows]
    now = {row.player: row.points * SCALE for row in standings.rows}
    assert all(v.denominator == 1 for v in now.values())
    base = {pid: int(v) for pid, v in now.items()}
    s = t.stages[0]
    played = [[seat.player for seat in g.seats] for r in s.rounds for g in r.games if g.has_result]
    games_now = {row.player: row.tally.games for row in standings.rows}
    average = standings.rank_by == "average"
    advance = s.advance
    rule = ("top", 1) if world.target == "win" or final else (advance.mode, advance.count)  # type: ignore[union-attr]
    result = {pid: (True, False) for pid in ranked}

    def reaches(pid: str, value: dict[str, Fraction | int], games: list[list[str]], ties_against: bool) -> bool:
        def above(q: str) -> bool:
            return value[q] >= value[pid] if ties_against else value[q] > value[pid]
        if rule[0] == "top":
            return sum(1 for q in ranked if q != pid and above(q)) < rule[1]
        return any(sum(1 for q in g if q in base and q != pid and above(q)) < rule[1] for g in games if pid in g)

    for change, seated in outcomes(world, t):
        games = [*played, seated]
        count = {q: games_now[q] + (q in seated) for q in ranked}

        def value(q: str, points: int, count: dict[str, int] = count) -> Fraction | int:
            if not average:
                return points  # whole quarters: ints compare faster than fractions
            return Fraction(points, count[q]) if count[q] else Fraction(0)

        for pid in ranked:
            low = {q: value(q, base[q] + change.get(q, (0, 0))[1]) for q in ranked}
            low[pid] = value(pid, base[pid] + change.get(pid, (0, 0))[0])
            high = {q: value(q, base[q] + change.get(q, (0, 0))[0]) for q in ranked}
            high[pid] = value(pid, base[pid] + change.get(pid, (0, 0))[1])
            sure, possible = result[pid]
            result[pid] = (sure and reaches(pid, low, games, True), possible or reaches(pid, high, games, False))
    return result


def check(world: World) -> list[dict[str, Any]]:
    t = fileio.load(world.data)
    out = needs(t, "s", world.target, world.rounds_left)
    assert out["exact"] is world.exact  # the generated worlds seat every ranked player at the one remaining table
    truth = brute_force(world, t)
    for entry in out["players"]:  # type: ignore[attr-defined]
        sure, possible = truth[entry["player"]]
        if entry["status"] == "clinched":
            assert sure, entry
        if entry["status"] == "eliminated":
            assert not possible, entry
        if out["exact"]:
            assert entry["status"] == ("clinched" if sure else "open" if possible else "eliminated"), entry
    return out["players"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_never_wrong_on_generated_stages(ruleset: str) -> None:
    rng = random.Random(f"needs-{ruleset}")
    statuses: set[str] = set()
    for _ in range(8 if ruleset == "tomsk" else 12):
        statuses.update(entry["status"] for entry in check(make_world(rng, ruleset, exact=False)))
    assert "open" in statuses


@pytest.mark.parametrize("ruleset", RULESETS)
def test_exact_where_no_remaining_game_seats_two_ranked_players(ruleset: str) -> None:
    rng = random.Random(f"exact-{ruleset}")
    statuses: set[str] = set()
    for _ in range(15 if ruleset == "tomsk" else 25):
        world = make_world(rng, ruleset, exact=True)
        players_out = check(world)
        statuses.update(entry["status"] for entry in players_out)
        check_points_needed(world, players_out)
    assert statuses == {"clinched", "eliminated", "open"}


def check_points_needed(world: World, entries: list[dict[str, Any]]) -> None:
    """The one player still to play: more than ``to_clinch`` is sure, less than ``to_keep_chance`` out."""
    t = fileio.load(world.data)
    standings = compute_standings(t, "s")
    per_game = world.target == "advance" and "per_game" in world.data["stages"][0].get("advance", {})
    if per_game or standings.rank_by == "average":
        assert all("to_clinch" not in entry for entry in entries)
        return
    unplayed = next(g for r in t.stages[0].rounds for g in r.games if not g.has_result)
    mover = next(seat.player for seat in unplayed.seats if not seat.player.startswith("g"))
    places = 1 if world.target == "win" or standings.kind.value == "final" else t.stages[0].advance.count  # type: ignore[union-attr]
    now = {row.player: row.points for row in standings.rows}
    for entry in entries:
        if entry["status"] != "open":
            continue
        if entry["player"] != mover:
            assert entry["to_clinch"] is None
            continue
        for low, high in SIDES[world.data["ruleset"]].values():
            for gain in (low, high):
                mine = now[mover] + gain
                level_or_above = sum(1 for q, v in now.items() if q != mover and v >= mine)
                above = sum(1 for q, v in now.items() if q != mover and v > mine)
                if entry["to_clinch"] is not None and gain > Fraction(entry["to_clinch"]):
                    assert level_or_above < places
                if entry["to_keep_chance"] is not None and gain < Fraction(entry["to_keep_chance"]):
                    assert above >= places


# --- The file's own cases ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_examples_with_nothing_left_are_the_standings_own_answer(path: Path) -> None:
    t = fileio.loads(path.read_text())
    for s in t.stages:
        standings = compute_standings(t, s.id)
        if any(not g.has_result for r in s.rounds for g in r.games):
            continue
        for target in ("advance", "win"):
            try:
                out = needs(t, s.id, target)
            except NoTarget:
                assert target == "advance" and standings.kind.value == "final"
                continue
            assert out["exact"] is True
            reached = set(standings.advance) if target == "advance" else set(
                standings.winners or ()) if standings.kind.value == "final" else {
                row.player for row in standings.rows if row.rank == 1}
            assert {e["player"]: e["status"] for e in out["players"]} == {  # type: ignore[attr-defined]
                row.player: "clinched" if row.player in reached else "eliminated" for row in standings.rows}


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_the_examples_with_a_round_left(path: Path) -> None:
    t = fileio.loads(path.read_text())
    s = t.stages[0]
    out = needs(t, s.id, "advance", 1)
    rows = compute_standings(t, s.id).rows
    assert [e["player"] for e in out["players"]] == [row.player for row in rows]  # type: ignore[attr-defined]
    for entry in out["players"]:  # type: ignore[attr-defined]
        assert entry["status"] in ("clinched", "eliminated", "open")
        assert Fraction(entry["min"]) <= Fraction(entry["points"]) <= Fraction(entry["max"])


def test_the_last_game_side_decides_the_winners() -> None:
    # kostroma's final: the side that wins its last game wins. One game left: those seated at it stay open, anyone
    # else is out; once it is played, its winning side has won.
    ten, eleven = players(10), players(11)
    data = tournament("kostroma", [stage("q", [round_(1, [game("kostroma", ten, "red")])]),
                                   stage("f", [round_(1, [game("kostroma", eleven[1:], None)])], players=eleven)])
    t = fileio.load(data)
    statuses = {e["player"]: e["status"] for e in needs(t, "f", "win")["players"]}  # type: ignore[attr-defined]
    assert statuses == {pid: "eliminated" if pid == "p01" else "open" for pid in eleven}
    data["stages"][1]["rounds"][0]["games"][0]["winner"] = "black"
    statuses = {e["player"]: e["status"] for e in needs(fileio.load(data), "f", "win")["players"]}  # type: ignore[attr-defined]
    assert {pid for pid, status in statuses.items() if status == "clinched"} == {"p02", "p03", "p04"}


def test_a_disqualified_player_is_out() -> None:
    data = tournament("fiim", [stage("q", [round_(1, [game("fiim", players(10), "red")])])])
    data["tournament"] = {"name": "Cup", "disqualifications": [{"player": "p05", "reason": "x"}]}
    out = needs(fileio.load(data), "q", "advance", 2)
    assert next(e for e in out["players"] if e["player"] == "p05")["status"] == "eliminated"  # type: ignore[attr-defined]


def test_cli_needs_shape_and_errors() -> None:
    path = str(DATA / "fiim-example.json")
    result = run_cli("needs", path, "--stage", "qualifying", "--rounds-left", "1")
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert (out["stage"], out["target"], out["rounds_left"], out["exact"]) == ("qualifying", "advance", 1, False)
    assert {"player", "status", "points", "min", "max"} <= set(out["players"][0])
    opened = [e for e in out["players"] if e["status"] == "open"]
    assert opened and all({"to_clinch", "to_keep_chance"} <= set(e) for e in opened)
    final = run_cli("needs", path, "--stage", "final")
    assert final.returncode == 2 and final.stdout == ""
    assert final.stderr == "stage final: nobody goes on from this stage, so --target advance has no answer\n"
    assert run_cli("needs", path, "--stage", "final", "--target", "win").returncode == 0
    assert run_cli("needs", path, "--stage", "qualifying", "--rounds-left", "-1").returncode == 2
    assert run_cli("needs", path, "--stage", "qualifying", "--target", "first").returncode == 2


# --- Against what really happened -----------------------------------------------------------------------------


def reached(t: Tournament, stage_id: str, target: str) -> set[str]:
    standings = compute_standings(t, stage_id)
    if target == "advance":
        return set(standings.advance)
    if standings.kind.value == "final":
        return set(standings.winners or ())
    return {row.player for row in standings.rows if row.rank == 1}


@settings(max_examples=80, deadline=None)
@given(ruleset=st.sampled_from(RULESETS), players_=st.integers(10, 36), rounds=st.integers(2, 4),
       seed=st.integers(0, 10**6), stages=st.integers(1, 2), top=st.integers(1, 12),
       target=st.sampled_from(["advance", "win"]), unseat=st.booleans())
def test_never_wrong_about_what_really_happened(ruleset: str, players_: int, rounds: int, seed: int, stages: int,
                                                top: int, target: str, unseat: bool) -> None:
    """A generated tournament, fully played, is one outcome of itself with its last round's results taken away (or
    the round itself, one round left to seat): every clinched player must really reach the target there, with the
    real tie-breaks, and no eliminated one."""
    played = generate(ruleset, players_, rounds * stages, seed, stages)
    s = played.stages[-1] if target == "win" else played.stages[0]
    if target == "advance" and played.stage_kind(s).value == "final":
        return
    if target == "advance" and ruleset != "tomsk":
        s = replace(s, advance=Advance("top", top))
    whole = replace(played, stages=tuple(s if x.id == s.id else x for x in played.stages))
    last = s.rounds[-1]
    if unseat:
        cut = replace(s, rounds=s.rounds[:-1], players=tuple(s.participants()))
    else:
        cut = replace(s, rounds=(*s.rounds[:-1], replace(last, games=tuple(replace(g, winner=None)
                                                                          for g in last.games))))
    before = replace(whole, stages=tuple(cut if x.id == s.id else x for x in whole.stages))
    truth = reached(whole, s.id, target)
    out = needs(before, s.id, target, 1 if unseat else 0)
    for entry in out["players"]:  # type: ignore[attr-defined]
        if entry["status"] == "clinched":
            assert entry["player"] in truth, entry
        if entry["status"] == "eliminated":
            assert entry["player"] not in truth, entry
