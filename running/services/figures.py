"""Seating figures for the organizer's pages, from ``scoring.seating`` (fixed number of queries).

``round_figures`` reports a stage's rounds up to one of them (drafts included, so a draft is
judged before it is published); ``bye_problem`` says, before a stage starts, when its rounds
cannot give the byes within the regulation's limit, with the fixes, in the organizer's language.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import combinations
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from running.services.planning import stage_kind
from scoring.seating import bye_feasibility, report, shape_bound
from tournaments.models import KeepApart, Round, Seat, Stage
from tournaments.rules import ruleset_for


@dataclass(frozen=True)
class Figures:
    report: dict[str, Any]
    shape_bound: int
    rounds: int
    # pairs at one table of this round who already sat together in an earlier round of the stage: what this
    # round's draw adds to the repeated meetings (shown beside the method and its seed)
    met_again: int = 0

    @property
    def early(self) -> dict[str, int]:
        spread: dict[str, int] = self.report["seat_spread"].get("early", {"min": 0, "max": 0})
        return spread


def round_figures(round_: Round) -> Figures:
    """``report`` over the stage's rounds 1..this one; ``shape_bound`` for that many rounds."""
    stage = round_.stage
    rows = Seat.objects.filter(round__stage=stage, round__number__lte=round_.number).values_list(
        "round__number", "table__number", "number", "participant_id", "participant__team_id")
    rounds: dict[int, dict[int, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))
    teams: dict[str, str] = {}
    for number, table, seat, player, team in rows:
        rounds[number][table].append((seat, str(player)))
        if team is not None:
            teams[str(player)] = str(team)
    history = [[[p for _seat, p in sorted(tables[t])] for t in sorted(tables)] for _n, tables in sorted(rounds.items())]
    table_size = ruleset_for(stage.tournament).params.table_size
    apart = KeepApart.objects.filter(tournament_id=stage.tournament_id).values_list("first_id", "second_id")
    figures = report(history, table_size=table_size, teams=teams,
                     keep_apart=[(str(a), str(b)) for a, b in apart])
    this = rounds.get(round_.number, {})
    players = sum(len(t) for t in this.values()) + round_.byes.count()
    bound = shape_bound(players, table_size, len(history), len(this) or None) if players >= table_size else 0
    earlier: set[frozenset[str]] = set()
    for number, by_table in rounds.items():
        if number != round_.number:
            for group in by_table.values():
                earlier.update(frozenset((a, b)) for (_s, a), (_t, b) in combinations(group, 2))
    met_again = sum(frozenset((a, b)) in earlier
                    for group in this.values() for (_s, a), (_t, b) in combinations(group, 2))
    return Figures(figures, bound, len(history), met_again)


def planned_rounds(stage: Stage) -> int:
    return stage.planned_rounds or ruleset_for(stage.tournament).stage_format(stage_kind(stage)).rounds


def bye_problem(stage: Stage, players: int) -> str | None:
    """None when the stage's planned rounds fit the bye limit; else the problem and the fixes."""
    params = ruleset_for(stage.tournament).params
    size, rounds, limit = params.table_size, planned_rounds(stage), params.max_byes
    if bye_feasibility(players, size, rounds, limit) is None:
        return None
    if players < size:
        return ngettext("%(n)s player cannot fill a table of %(size)s; add %(add)s guest(s).",
                        "%(n)s players cannot fill a table of %(size)s; add %(add)s guest(s).",
                        players) % {"n": players, "size": size, "add": size - players}
    rest = players % size
    assert limit is not None
    allowed = players * limit
    return _(
        "%(players)s players at tables of %(size)s leave %(rest)s on a bye each round: %(rounds)s rounds need "
        "%(need)s byes, but at most %(limit)s bye(s) per player allows %(allowed)s. Add %(guests)s guest(s) to "
        "fill a table (%(full)s players), or leave %(rest)s player(s) out, or play at most %(fit)s round(s)."
    ) % {"players": players, "size": size, "rest": rest, "rounds": rounds, "need": rounds * rest, "limit": limit,
         "allowed": allowed, "guests": size - rest, "full": players + size - rest, "fit": allowed // rest}
