"""``ScoredGames``: a tournament ranked again after a change, with the games scored before kept, ranks exactly as if
every seat were scored anew, for the four regulations; only the games that changed are scored again."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio
from scoring.generate import generate
from scoring.model import Game, Side, Tournament
from scoring.rulesets import get_ruleset
from scoring.standings import compute_standings
from scoring.tally import ScoredGames, StageScoring
from scoring.validation import ruleset_for

DATA = Path(__file__).parent / "data"
RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def tournaments() -> Iterator[tuple[str, Tournament]]:
    for path in sorted(DATA.glob("*-example.json")):
        yield path.stem, fileio.loads(path.read_text(encoding="utf-8"))
    for ruleset in RULESETS:
        yield f"{ruleset}-generated", generate(ruleset, players=30, rounds=4, seed=5)


CASES = list(tournaments())


def last_played(t: Tournament) -> tuple[int, int, int]:
    """The place (stage, round, table index) of the last game with a result."""
    for s, stage in reversed(list(enumerate(t.stages))):
        for r, round_ in reversed(list(enumerate(stage.rounds))):
            for g, game in reversed(list(enumerate(round_.games))):
                if game.has_result:
                    return s, r, g
    raise AssertionError("no game with a result")


def with_game(t: Tournament, place: tuple[int, int, int], change: Callable[[Game], Game]) -> Tournament:
    """``t`` with one game changed; every other game the very same object, as the web app's next version has it."""
    s, r, g = place
    stage = t.stages[s]
    round_ = stage.rounds[r]
    games = (*round_.games[:g], change(round_.games[g]), *round_.games[g + 1:])
    rounds = (*stage.rounds[:r], replace(round_, games=games), *stage.rounds[r + 1:])
    return replace(t, stages=(*t.stages[:s], replace(stage, rounds=rounds), *t.stages[s + 1:]))


def other_winner(game: Game) -> Game:
    return replace(game, winner=Side.RED if game.winner is Side.BLACK else Side.BLACK, awarded=None)


def other_first_killed(game: Game) -> Game:
    """Another seat killed first: with fiim's Ci, that player's points change in every game of the stage."""
    seats = [seat.seat for seat in game.seats]
    now = game.first_killed
    return replace(game, first_killed=seats[0] if now != seats[0] else seats[1])


def extra_point(game: Game) -> Game:
    first = game.seats[0]
    return replace(game, seats=(replace(first, extra=first.extra + Fraction(1, 2)), *game.seats[1:]))


def ruleset_of(t: Tournament) -> Any:
    """A new instance each time: the memo must not depend on the ruleset object, only its class and parameters."""
    return ruleset_for(t)[0]


def every_stage(t: Tournament, memo: ScoredGames | None) -> list[Any]:
    return [compute_standings(t, stage.id, ruleset_of(t), memo) for stage in t.stages]


@pytest.mark.parametrize("change", [other_winner, other_first_killed, extra_point])
@pytest.mark.parametrize(("name", "t"), CASES, ids=[name for name, _ in CASES])
def test_ranked_again_after_a_change_as_if_scored_anew(name: str, t: Tournament, change: Any) -> None:
    memo = ScoredGames()
    assert every_stage(t, memo) == every_stage(t, None)
    assert every_stage(t, memo) == every_stage(t, None)  # read back from the memo
    after = with_game(t, last_played(t), change)
    assert every_stage(after, memo) == every_stage(after, None)
    assert every_stage(t, memo) == every_stage(t, None)  # and the version before, its game still kept


@pytest.mark.parametrize(("name", "t"), CASES, ids=[name for name, _ in CASES])
def test_only_the_changed_game_is_scored_again(name: str, t: Tournament) -> None:
    memo = ScoredGames()
    s, r, g = place = last_played(t)
    stage = t.stages[s]
    compute_standings(t, stage.id, ruleset_of(t), memo)
    after = with_game(t, place, extra_point)
    ruleset = ruleset_of(after)
    scored: list[int] = []
    seat_points = ruleset.seat_points

    def counted(game: Game, *args: Any) -> Any:
        scored.append(id(game))
        return seat_points(game, *args)

    ruleset.seat_points = counted
    compute_standings(after, stage.id, ruleset, memo)
    changed = after.stages[s].rounds[r].games[g]
    assert scored and set(scored) <= {id(game) for round_ in after.stages[s].rounds for game in round_.games}
    if not ruleset.params.ci_rate:  # with Ci, a changed game may change a player's first kills, hence their games
        assert scored == [id(changed)] * len(changed.seats)


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_other_parameters_are_another_scoring(ruleset_id: str) -> None:
    t = generate(ruleset_id, players=20, rounds=3, seed=2)
    memo = ScoredGames()
    regulation = get_ruleset(ruleset_id)
    rulesets = [regulation(), regulation.with_overrides({"win_points": {"red": "7", "black": "9", "maniac": "0"}}),
                regulation.with_overrides({"win_points": {"red": "1", "black": "5", "maniac": "0"}})]
    stage = t.stages[0]
    fresh = [StageScoring(t, rules).scored_seats(stage) for rules in rulesets]
    assert fresh[0] != fresh[1] and fresh[0] != fresh[2]
    for _ in range(2):
        assert [StageScoring(t, rules, memo).scored_seats(stage) for rules in rulesets] == fresh
    assert len(memo.rulesets) == 3


def test_the_least_recently_used_games_are_let_go() -> None:
    t = generate("tomsk", players=20, rounds=3, seed=3)
    memo = ScoredGames(size=2)
    compute_standings(t, t.stages[0].id, None, memo)
    assert len(memo.games) == 2
    kept = next(iter(memo.games))
    game, seats = memo.games[kept]
    assert memo.get(kept, game) == seats
    # the key names a game by its object: another object with the same id is never answered the kept seats
    assert memo.get(kept, replace(game)) is None
