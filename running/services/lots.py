"""Drawing lots for a tie at a cut, and cancelling a draw (docs/rules/tournament.md, "Ties").

The tie must be one the stage's standings show right now (``scoring.lots.ties_at_cuts``), named by all its
players. Under ``transaction.atomic`` with the stage locked: the standings are read again inside the lock, so
of two organizers drawing the same tie at once the second finds it broken and is told who drew it. The drawn
order joins ``Stage.lots`` (the one list the standings read) and a ``LotDraw`` records who, when and how.

A tie drawn once is not drawn again: the draw has broken it, and the organizer who wants another draw
cancels the first (the cancellation is recorded too; the players leave ``Stage.lots`` and are tied again).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from base.texts import too_long
from exchange.reading import to_model
from scoring import lots as scoring_lots
from scoring.lots import CutTie, DrawOrderError
from scoring.model import StageKind, Tournament
from scoring.standings import Standings, compute_standings
from scoring.validation import ruleset_for
from tournaments.errors import UserError
from tournaments.models import DrawMethod, LotDraw, Participant, Stage

# Places a final's prizes go to: a tie across the line under 1st, 2nd or 3rd is drawn too [ours].
PRIZE_PLACES = (1, 2, 3)
NOTE_LIMIT = LotDraw._meta.get_field("note").max_length or 200


class LotsError(UserError):
    """A draw the standings or the state forbid, or an order that is not the tie's."""


@dataclass(frozen=True)
class StageTies:
    model: Tournament
    standings: Standings
    ties: list[CutTie]
    decided: frozenset[str]


def stage_ties(stage: Stage) -> StageTies:
    """The stage's standings, its ties at a cut (advancement, winners, a final's prize places) and whose order the
    lots decided."""
    model = to_model(stage.tournament)
    ruleset, _ignored = ruleset_for(model)
    standings = compute_standings(model, stage.ext_id, ruleset)
    places = PRIZE_PLACES if standings.kind is StageKind.FINAL else ()
    return StageTies(model, standings, scoring_lots.ties_at_cuts(model, standings, ruleset, places),
                     scoring_lots.decided_by_lot(standings))


def user_name(user: User) -> str:
    return user.get_full_name() or user.get_username()


@transaction.atomic
def draw_lots(stage: Stage, players: Sequence[str], by: User, *, order: Sequence[str] | None = None,
              note: str = "") -> LotDraw:
    """Draw the tie of ``players``: the app shuffles them (``order`` None) or ``order`` is the physical draw."""
    note = note.strip()
    problem = too_long(note, NOTE_LIMIT)
    if problem:
        raise LotsError(_("The draw's note: %(problem)s") % {"problem": problem})
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    tie = _current_tie(stage, players)
    if order is None:
        drawn = list(tie.players)
        secrets.SystemRandom().shuffle(drawn)
        method = DrawMethod.APP
    else:
        try:
            drawn = list(scoring_lots.check_draw_order(tie.players, order))
        except DrawOrderError as error:
            raise LotsError(_order_message(error, _name(stage, error.player))) from None
        method = DrawMethod.PHYSICAL
    stage.lots = scoring_lots.merge_lots(stage.lots, drawn)
    stage.save(update_fields=["lots"])
    return LotDraw.objects.create(stage=stage, players=drawn, method=method, note=note,
                                  drawn_at=timezone.now(), drawn_by=by, drawn_by_name=user_name(by))


@transaction.atomic
def cancel_draw(stage: Stage, draw_id: int, by: User) -> LotDraw:
    """Cancel a draw of the stage: its players leave the lots and are tied again; the record stays."""
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    draw = LotDraw.objects.filter(stage=stage, pk=draw_id).first()
    if draw is None:
        raise LotsError(_("This draw is not one of the stage's."))
    if not draw.active:
        raise LotsError(_("This draw was cancelled already."))
    if stage.closed:
        raise LotsError(_("The stage is closed: re-open it to cancel a draw."))
    stage.lots = scoring_lots.without_lots(stage.lots, draw.players) or None
    stage.save(update_fields=["lots"])
    draw.cancelled_at, draw.cancelled_by, draw.cancelled_by_name = timezone.now(), by, user_name(by)
    draw.save(update_fields=["cancelled_at", "cancelled_by", "cancelled_by_name"])
    return draw


def _current_tie(stage: Stage, players: Sequence[str]) -> CutTie:
    if stage.closed:
        raise LotsError(_("The stage is closed: re-open it to draw lots."))
    wanted = set(players)
    for tie in stage_ties(stage).ties:
        if set(tie.players) == wanted:
            return tie
    earlier = (LotDraw.objects.filter(stage=stage, cancelled_at__isnull=True)
               .order_by("-drawn_at", "-id"))
    for draw in earlier:
        if wanted & set(draw.players):
            raise LotsError(_("This tie was drawn already by %(who)s at %(when)s. To draw again, cancel that "
                              "draw first.") % {"who": draw.drawn_by_name or "—",
                                                "when": date_format(timezone.localtime(draw.drawn_at),
                                                                    "DATETIME_FORMAT")})
    raise LotsError(_("These players are not tied at a cut any more: the standings have changed. "
                      "Look at them again."))


def _name(stage: Stage, player: str) -> str:
    found = Participant.objects.filter(tournament=stage.tournament_id, ext_id=player).select_related("player").first()
    return found.player.full_name if found is not None else player


def _order_message(error: DrawOrderError, who: str) -> str:
    if error.problem == "missing":
        return _("The order leaves out %(player)s: list every tied player once.") % {"player": who}
    if error.problem == "twice":
        return _("%(player)s is listed twice: list every tied player once.") % {"player": who}
    return _("%(player)s is not in this tie.") % {"player": who}
