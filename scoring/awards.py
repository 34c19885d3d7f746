"""Awards and nominations as data (docs/rules/awards.md): a registry of computed kinds and who each one names.

A kind says what a candidate is measured by over the whole tournament (every stage, after multipliers): the most
points (``best_player``), the most points earned as a role (``best_role:sheriff``) or a side (``best_side:red``)
with a minimum of games in it, the most times named best of a game (``most_best``). Equal values are broken by
the points over the tournament, then the ruleset's tie-break chain, then the lots of the last stage; a tie
nothing breaks names every tied player and is marked ``tied``. Guests, disqualified and ineligible players
(too many absences) never receive an award.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from .model import Role, Side, Tournament
from .ranking import rank_players
from .rulesets import Ruleset
from .tally import PlayerTally, StageScoring
from .validation import ruleset_for

Measure = Callable[[PlayerTally], Fraction | int | None]  # None: not a candidate


@dataclass(frozen=True)
class AwardKind:
    id: str
    name: str  # English; the web app shows tournaments.labels.award_label
    measure: Measure
    counts_games_in: Callable[[PlayerTally], int]


@dataclass(frozen=True)
class Candidate:
    """Who a computed award names: one player, several when ``tied``, none when nobody qualifies."""

    kind: str
    players: tuple[str, ...]
    value: Fraction | int | None
    tied: bool


def _role_points(role: Role) -> Measure:
    return lambda tally: tally.points_as(role)


def _role_games(role: Role) -> Callable[[PlayerTally], int]:
    return lambda tally: tally.games_as[role]


def _side_points(side: Side) -> Measure:
    return lambda tally: tally.points_by_side(side)


def _side_games(side: Side) -> Callable[[PlayerTally], int]:
    return lambda tally: sum(1 for s in tally.seats if s.seat.effective_side is side)


def _kinds() -> dict[str, AwardKind]:
    kinds = [
        AwardKind("best_player", "best player", lambda t: t.points, lambda t: t.games),
        AwardKind("most_best", "most times named best", lambda t: t.best or None, lambda t: t.games),
    ]
    kinds += [AwardKind(f"best_role:{role.value}", f"best {role.value}", _role_points(role), _role_games(role))
              for role in Role]
    kinds += [AwardKind(f"best_side:{side.value}", f"best {side.value} player", _side_points(side), _side_games(side))
              for side in (Side.RED, Side.BLACK)]
    return {kind.id: kind for kind in kinds}


KINDS: Mapping[str, AwardKind] = _kinds()


def compute_candidate(tournament: Tournament, kind_id: str, min_games: int = 1,
                      ruleset: Ruleset | None = None, tallies: Mapping[str, PlayerTally] | None = None) -> Candidate:
    """The candidate of one computed award (``KINDS``); ``tallies`` may be shared between awards."""
    kind = KINDS[kind_id]
    if ruleset is None:
        ruleset, _ = ruleset_for(tournament)
    if tallies is None:
        tallies = tournament_tallies(tournament, ruleset)
    measured = {pid: value for pid, tally in tallies.items()
                if kind.counts_games_in(tally) >= max(min_games, 1) and (value := kind.measure(tally)) is not None}
    if not measured:
        return Candidate(kind_id, (), None, False)
    top = max(measured.values())
    group = sorted(pid for pid, value in measured.items() if value == top)
    if len(group) > 1:
        wins = StageScoring(tournament, ruleset).side_wins_so_far(tournament.stages[-1])
        chain = ruleset.chain(black_wins=wins[Side.BLACK], red_wins=wins[Side.RED])
        order, _values = rank_players(group, tallies, chain, tournament.stages[-1].lots or ())
        group = [pid for rank, pid in order if rank == 1]
    return Candidate(kind_id, tuple(group), top, len(group) > 1)


def tournament_tallies(tournament: Tournament, ruleset: Ruleset) -> dict[str, PlayerTally]:
    """Each possible recipient's tally over every stage: guests, the disqualified and the ineligible left out."""
    if not tournament.stages:
        return {}
    scoring = StageScoring(tournament, ruleset)
    out = set(tournament.disqualified())
    players = [p.id for p in tournament.players if not p.guest and p.id not in out]
    absences = scoring.absences_so_far(tournament.stages[-1])
    limit = ruleset.params.ineligible_after_absences
    players = [pid for pid in players if limit is None or absences[pid] < limit]
    return scoring.tallies(tournament.stages, players)
