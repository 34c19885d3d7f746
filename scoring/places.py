"""Each player's final place in a tournament, from the standings of its stages [ours].

The players of the last stage that has games come first, in that stage's order; then those who stopped in the
stage before, in that stage's order; and so on. A place is shared by players with the same rank in the stage that
placed them (two players third: both 3rd, the next 5th). Guests are never ranked (``compute_standings`` leaves
them out); the disqualified get no place. The results documents (``paper.results``) and the series
(``series``) both place players with this one function, over the standings their caller has already computed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .model import Tournament
from .standings import Standings


@dataclass(frozen=True)
class FinalPlace:
    player: str
    place: int
    stage: str  # the stage whose standings placed the player


def final_places(tournament: Tournament, standings_of: Callable[[str], Standings]) -> list[FinalPlace]:
    """Every placed player, best first; ``standings_of(stage_id)`` gives a stage's standings (a cached copy where
    the caller keeps one: nothing is computed twice). A stage without games yet places nobody."""
    placed: set[str] = set()
    out: list[FinalPlace] = []
    for stage in reversed(tournament.stages):
        if not any(round_.games for round_ in stage.rounds):
            continue
        fresh = [row for row in standings_of(stage.id).rows if row.player not in placed]
        offset = len(out)
        first_of_rank: dict[int, int] = {}
        ranked = [(row.player, row.rank) for row in fresh if row.rank is not None]
        for index, (player, rank) in enumerate(ranked):
            out.append(FinalPlace(player, offset + 1 + first_of_rank.setdefault(rank, index), stage.id))
        placed.update(row.player for row in fresh)
    return out
