"""The players' Elo rating across tournaments, as rating sites compute it (docs/rating.md).

For one game the players split into the winning side and the losing side. Each side's rating is its players'
average; the winners' expected score is ``E = 1 / (1 + 10 ** ((R_losers - R_winners) / 400))``. Each winner gains
``K * (1 - E)``, each loser loses ``K * E_losers`` with ``E_losers = 1 - E``: exactly the red/black formula
whichever side won. A maniac (a side alone) is on the winning side when the maniac won and on the losing side
otherwise, with the black side's K. Each player's K is their own side's (red or black) for the tournament's level.

A round is rated at once: every game of a round starts from the ratings before that round (each player plays at
most one game a round), so the order of the games inside a round changes nothing. Rounds go in the order the
caller gives (tournaments by their start, stages in order, rounds by number). Floats, in a fixed order, so the
same history gives the same numbers to the last bit, whether computed from scratch or from a round on.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

START = 1500.0


@dataclass(frozen=True, slots=True)
class RatedSeat:
    player: int
    side: str  # "red", "black" or "maniac"


@dataclass(frozen=True, slots=True)
class RatedGame:
    game: int
    winner: str  # the winning side: "red", "black" or "maniac"
    seats: tuple[RatedSeat, ...]
    k_red: float
    k_black: float  # also the maniac's


@dataclass(frozen=True, slots=True)
class Change:
    game: int
    player: int
    side: str
    won: bool
    before: float
    after: float

    @property
    def delta(self) -> float:
        return self.after - self.before


def expected(mine: float, theirs: float) -> float:
    """The expected score of a side rated ``mine`` against a side rated ``theirs``."""
    return 1.0 / (1.0 + float(10.0 ** ((theirs - mine) / 400.0)))


def rate_game(ratings: Mapping[int, float], game: RatedGame, start: float = START) -> list[Change]:
    """The changes ``game`` brings, from ``ratings`` (players not in it start at ``start``); the seats' order."""
    now = [ratings.get(seat.player, start) for seat in game.seats]
    won = [seat.side == game.winner for seat in game.seats]
    winners = [r for r, w in zip(now, won, strict=True) if w]
    losers = [r for r, w in zip(now, won, strict=True) if not w]
    if not winners or not losers:  # nobody to play against: the game rates nobody
        return []
    e_winners = expected(sum(winners) / len(winners), sum(losers) / len(losers))
    changes = []
    for seat, before, w in zip(game.seats, now, won, strict=True):
        k = game.k_red if seat.side == "red" else game.k_black
        after = before + k * (1.0 - e_winners) if w else before - k * (1.0 - e_winners)
        changes.append(Change(game.game, seat.player, seat.side, w, before, after))
    return changes


def rate_round(ratings: Mapping[int, float], games: Sequence[RatedGame], start: float = START) -> list[Change]:
    """Every game of one round from the same ratings (those before the round), in the games' order."""
    return [change for game in games for change in rate_game(ratings, game, start)]


def apply(ratings: dict[int, float], changes: Iterable[Change]) -> None:
    """The ratings after a round's ``changes`` (a player has one game a round: the seating never seats anyone
    twice in a round, so each player's rating is simply the ``after`` of their change)."""
    for change in changes:
        ratings[change.player] = change.after
