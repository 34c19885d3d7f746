"""Closing a stage: its standings decide who advances; the next stage's players are fixed.

Guarded: under ``transaction.atomic`` with the stage and the next one locked, and only from
the state where every round is published and every table has a result; with fewer rounds than
planned, only when the organizer confirms it (``ShortStage`` says how many). The next stage keeps
the ruleset's reset or carry-over (``scoring`` applies it from the stage's settings). A closed
stage may be re-opened until the next stage has rounds: the next stage's players are unfixed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from exchange.reading import to_model
from running.services.figures import planned_rounds
from scoring.standings import Standings, compute_standings
from tournaments.errors import SeatingError
from tournaments.models import Participant, RoundState, Stage, StagePlayer, Table


class StageError(SeatingError):
    """Closing the stage is not possible in its current state."""


class ShortStage(StageError):
    """Fewer rounds than planned were played; closing needs the organizer's confirmation."""

    def __init__(self, played: int, planned: int) -> None:
        super().__init__(ngettext(
            "Only %(played)s round of the %(planned)s planned was played. Confirm that the stage ends early.",
            "Only %(played)s rounds of the %(planned)s planned were played. Confirm that the stage ends early.",
            played) % {"played": played, "planned": planned})
        self.played, self.planned = played, planned


@dataclass(frozen=True)
class Closed:
    stage: Stage
    next_stage: Stage | None
    advanced: tuple[str, ...]


def stage_standings(stage: Stage) -> Standings:
    return compute_standings(to_model(stage.tournament), stage.ext_id)


def next_stage_of(stage: Stage) -> Stage | None:
    return Stage.objects.filter(tournament_id=stage.tournament_id, order__gt=stage.order).order_by("order").first()


@transaction.atomic
def close_stage(stage: Stage, *, short_confirmed: bool = False) -> Closed:
    """Close the stage; ``short_confirmed`` accepts fewer rounds played than planned."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if stage.closed:
        raise StageError(_("The stage is closed already."))
    rounds = list(stage.rounds.order_by("number"))
    if not rounds:
        raise StageError(_("The stage has no rounds yet."))
    drafts = [r.number for r in rounds if r.state == RoundState.DRAFT]
    if drafts:
        raise StageError(_("Round %(n)s is a draft: publish it first.") % {"n": drafts[0]})
    model = to_model(stage.tournament)
    played = sum(1 for r in model.stage(stage.ext_id).rounds for g in r.games if g.has_result)
    missing = Table.objects.filter(round__stage=stage).count() - played
    if missing > 0:
        raise StageError(ngettext("%(n)s table of the stage has no result yet.",
                                  "%(n)s tables of the stage have no result yet.", missing) % {"n": missing})
    planned = planned_rounds(stage)
    if len(rounds) < planned and not short_confirmed:
        raise ShortStage(len(rounds), planned)
    standings = compute_standings(model, stage.ext_id)
    following = next_stage_of(stage)
    if following is not None:
        following = Stage.objects.select_for_update().get(pk=following.pk)
        if following.rounds.exists():
            seated_by_groups(stage, following, standings.advance)
        if not standings.advance:
            raise StageError(_("Nobody advances from this stage; check its “who advances” setting."))
        ids = dict(Participant.objects.filter(tournament_id=stage.tournament_id).values_list("ext_id", "pk"))
        following.entries.all().delete()
        StagePlayer.objects.bulk_create(
            StagePlayer(stage=following, participant_id=ids[p], position=i) for i, p in enumerate(standings.advance))
        following.players_listed = True
        following.save(update_fields=["players_listed"])
    stage.closed = True
    stage.save(update_fields=["closed"])
    return Closed(stage, following, standings.advance)


def seated_by_groups(stage: Stage, following: Stage, advance: Sequence[str]) -> None:
    """The next stage may have rounds already only when every group of tables of this stage was closed and
    seated it (``groups``) with exactly the players the stage sends on; then closing only fixes their order."""
    groups = list(stage.table_groups.all())
    if not groups or any(group.closed_at is None for group in groups):
        raise StageError(_("The next stage has rounds already; its players cannot change."))
    listed = set(following.entries.values_list("participant__ext_id", flat=True))
    if listed != set(advance):
        raise StageError(_("The groups of tables sent on other players than the stage's standings do "
                           "(%(missing)s); the next stage's players cannot change now that it has rounds.")
                         % {"missing": ", ".join(sorted(listed ^ set(advance)))})


@transaction.atomic
def reopen_stage(stage: Stage) -> Stage:
    """``closed`` → open again; refused once the next stage has rounds (its players are in play).
    The next stage's players, fixed by the closing, are unfixed; closing again fixes them anew."""
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if not stage.closed:
        raise StageError(_("The stage is open."))
    following = next_stage_of(stage)
    if following is not None:
        following = Stage.objects.select_for_update().get(pk=following.pk)
        if following.rounds.exists():
            raise StageError(_("%(next)s has rounds already; this stage cannot be re-opened.") % {"next": following})
        following.entries.all().delete()
        following.players_listed = False
        following.save(update_fields=["players_listed"])
    stage.closed = False
    stage.save(update_fields=["closed"])
    return stage
