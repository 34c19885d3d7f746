"""Who receives each award of a tournament (docs/rules/awards.md): the organizer's choices (``tournaments``' Award
rows) over the ruleset's proposals, each computed award's candidate from ``scoring.awards``.

One query for the rows; the candidates come from the model the caller already has (the public snapshot's, the
organizer page's), so every page that shows awards stays at a fixed number of queries.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from fractions import Fraction

from django.utils.translation import gettext as _

from scoring import model as m
from scoring.awards import Candidate, compute_candidate, tournament_tallies
from scoring.tally import PlayerTally
from scoring.validation import ruleset_for as model_ruleset
from tournaments.labels import award_label
from tournaments.models import Award, Tournament
from tournaments.services.awards import proposals


@dataclass(frozen=True)
class AwardResult:
    """One award as the pages, the documents and the file show it."""

    kind: str  # blank: free-form
    pk: int | None
    title: str
    given: bool
    suggested: bool  # a proposal the organizer has not given (the organizer's page only)
    players: tuple[str, ...]  # the recipient, several when an unbroken tie names them all
    names: tuple[str, ...]
    by_hand: bool
    reason: str
    tied: bool
    value: Fraction | int | None
    candidate: tuple[str, ...]  # the computed candidate, also when the organizer chose someone else
    chosen_by: str
    chosen_at: dt.datetime | None

    @property
    def recipients(self) -> list[tuple[str, str]]:
        """(player id, name) of each recipient."""
        return list(zip(self.players, self.names, strict=True))


def award_tallies(model: m.Tournament) -> dict[str, PlayerTally]:
    """Each player's tallies over the tournament, which the computed awards read (every seat scored: the costly
    part, which the public pages compute once per model: ``public.model_cache.derived``)."""
    ruleset, _problems = model_ruleset(model)
    return tournament_tallies(model, ruleset)


def resolve_awards(tournament: Tournament, model: m.Tournament, *, all_proposals: bool = False,
                   tallies: dict[str, PlayerTally] | None = None, candidates: bool = True) -> list[AwardResult]:
    """The given awards in order (``all_proposals``: also the proposals not given, for the organizer); ``tallies``:
    ``award_tallies(model)`` when computed already; ``candidates`` False: the awards as given, without computing
    who the figures propose (the same queries, none of the scoring)."""
    rows = {row.kind or f"#{row.pk}": row for row in
            Award.objects.filter(tournament=tournament).select_related("recipient", "chosen_by")}
    players = model.players_by_id()
    ruleset, _problems = model_ruleset(model)
    if tallies is None and candidates:
        tallies = award_tallies(model)
    out: list[AwardResult] = []
    for proposal in proposals(tournament):
        row = rows.pop(proposal.kind, None)
        given = row.enabled if row is not None else proposal.enabled
        if not given and not all_proposals:
            continue
        candidate = (compute_candidate(model, proposal.kind, proposal.min_games, ruleset, tallies)
                     if model.stages and tallies is not None else Candidate(proposal.kind, (), None, False))
        out.append(_result(row, proposal.kind, given, candidate, players))
    for row in sorted(rows.values(), key=lambda r: (r.order, r.pk)):
        if row.kind and row.recipient is None:  # a kind the ruleset does not propose (an old file): only if chosen
            continue
        out.append(_result(row, row.kind, row.enabled, Candidate(row.kind, (), None, False), players))
    return out


def refusal_for(model: m.Tournament, player: str) -> str | None:
    """Why ``player`` may not receive an award under the regulation, beyond a disqualification (which the
    service checks): a guest, or too many absences (fiim 5.); None when they may."""
    found = model.players_by_id().get(player)
    if found is None:
        return None  # the service names an unknown player
    if found.guest:
        return _("%(player)s is a guest, not ranked: no award.") % {"player": found.name}
    ruleset, _problems = model_ruleset(model)
    if model.stages and player not in tournament_tallies(model, ruleset) and player not in model.disqualified():
        return _("%(player)s missed too many rounds: the regulation bars them from the awards.") % {
            "player": found.name}
    return None


def _result(row: Award | None, kind: str, given: bool, candidate: Candidate,
            players: dict[str, m.Player]) -> AwardResult:
    by_hand = row is not None and row.recipient is not None
    chosen = (row.recipient.ext_id,) if row is not None and row.recipient is not None else candidate.players
    title = (row.title if row is not None and row.title else "") or award_label(kind)
    return AwardResult(
        kind=kind, pk=row.pk if row is not None else None, title=title, given=given, suggested=not given,
        players=chosen, names=tuple(players[pid].name if pid in players else pid for pid in chosen),
        by_hand=by_hand, reason=row.reason if row is not None else "",
        tied=not by_hand and candidate.tied, value=None if by_hand else candidate.value,
        candidate=candidate.players,
        chosen_by=str(row.chosen_by) if row is not None and row.chosen_by is not None else "",
        chosen_at=row.chosen_at if row is not None else None,
    )
