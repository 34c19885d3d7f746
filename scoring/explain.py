"""``python -m scoring explain``: why a player stands where they stand (docs/explain.md).

Nothing here ranks anyone: the standings (``compute_standings``) rank the stage, and ``ranking_steps`` gives, for
each row, the comparisons that ranking made, in its order. Explaining P against Q walks both lists side by side up
to the first step whose keys differ: that step decides. The tiers (disqualified, eligibility in a final, short of
games) are shown only where they decide, so an ordinary entry starts with the points.
"""

from __future__ import annotations

from fractions import Fraction

from .errors import ScoringError
from .metrics import Value
from .model import Tournament
from .numbers import is_finite_decimal
from .ranking import TIER_FACTS, RankingStep, primary_key
from .standings import StandingRow, Standings, compute_standings, ranking_steps


class PlayerNotRanked(ScoringError):
    """The player is not ranked in the stage: unknown, a guest, or not a player of it (exit status 2)."""


def explain(tournament: Tournament, stage_id: str, player: str) -> dict[str, object]:
    """The explanation JSON of docs/command-line.md for ``player`` in the standings of ``stage_id``."""
    standings = compute_standings(tournament, stage_id)
    return explain_standings(tournament, standings, player)


def explain_standings(tournament: Tournament, standings: Standings, player: str) -> dict[str, object]:
    rows = list(standings.rows)
    index = next((i for i, row in enumerate(rows) if row.player == player), None)
    if index is None:
        raise PlayerNotRanked(_why_not_ranked(tournament, standings.stage, player))
    mine = rows[index]
    my_steps = ranking_steps(standings, mine)
    # the ranking value straight from the tallies (the primary step's value): a whole list of steps for each of
    # a thousand rows only to find those level with the player cost more than the rest of a player's page
    primary_of = primary_key(standings.rank_by)
    level = primary_of(mine.tally)
    above, below = ranked_neighbours(rows, index)
    others = [i for i in range(len(rows)) if i != index and
              (i in (above, below) or (mine.rank is not None and rows[i].rank == mine.rank)
               or primary_of(rows[i].tally) == level)]
    out: dict[str, object] = {
        "stage": standings.stage,
        "player": player,
        "rank": mine.rank,
        "points": number_text(mine.points),
    }
    if standings.rank_by == "average":
        out["average"] = number_text(mine.tally.average)
    if mine.disqualified is not None:
        out["disqualified"] = True
    out["against"] = [_against(my_steps, rows[i], ranking_steps(standings, rows[i])) for i in others]
    return out


def ranked_neighbours(rows: list[StandingRow], index: int) -> tuple[int | None, int | None]:
    """The rows of the player ranked just above and just below ``rows[index]``: the nearest rows outside the
    players sharing its rank (docs/explain.md). A row next to it in the list may share its rank (a tie nothing
    breaks): the one ranked just above is then further up. The disqualified (no rank) are each their own place."""
    def place(i: int) -> object:
        rank = rows[i].rank
        return ("disqualified", i) if rank is None else rank

    mine = place(index)
    first = index
    while first > 0 and place(first - 1) == mine:
        first -= 1
    last = index
    while last + 1 < len(rows) and place(last + 1) == mine:
        last += 1
    return (first - 1 if first > 0 else None), (last + 1 if last + 1 < len(rows) else None)


def _against(my_steps: list[RankingStep], row: StandingRow, their_steps: list[RankingStep]) -> dict[str, object]:
    steps: list[dict[str, object]] = []
    for mine, theirs in zip(my_steps, their_steps, strict=True):
        decides = mine.key != theirs.key
        if mine.metric in TIER_FACTS and not decides:
            continue  # a tier shown only where it separates the two
        step: dict[str, object] = {"metric": mine.metric, "mine": _shown(mine.value), "theirs": _shown(theirs.value)}
        if decides:
            step["decides"] = True
            steps.append(step)
            break
        steps.append(step)
    return {"player": row.player, "rank": row.rank, "steps": steps}


def _shown(value: Value | bool | None) -> object:
    """Whole counts (wins, places) as JSON numbers, facts as booleans, points and averages as strings."""
    if value is None or isinstance(value, bool | int):
        return value
    return number_text(value)


def number_text(value: Fraction) -> str:
    """Points as a string, exactly: a decimal where one writes the value (``"11.5"``, ``"-0.25"``), else the
    fraction (``"10/3"``), as the tournament file writes such a value."""
    if value.denominator == 1:
        return str(value.numerator)
    if is_finite_decimal(value):
        digits = 0
        while (value * 10**digits).denominator != 1:
            digits += 1
        sign = "-" if value < 0 else ""
        scaled = abs(value.numerator * 10**digits // value.denominator)
        text = str(scaled).rjust(digits + 1, "0")
        return f"{sign}{text[:-digits]}.{text[-digits:]}"
    return f"{value.numerator}/{value.denominator}"


def _why_not_ranked(tournament: Tournament, stage_id: str, player: str) -> str:
    known = tournament.players_by_id().get(player)
    where = f"stage {stage_id}, player {player}"
    if known is None:
        return f"{where}: no such player in the tournament"
    if known.guest:
        return f"{where}: a guest, never ranked"
    return f"{where}: not a player of this stage"
