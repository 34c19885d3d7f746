"""Protests about a game: lodged within the ruleset's window, decided once by the chief judge.

A player lodges a protest through the judge of the table, the chief judge or an organizer; it is
recorded on the protocol with the seat, the text and the time. A tournament takes protests unless they
are off (``tournaments.rules.protests_enabled``: fiim's judges' decisions are not subject to appeal, so
off unless the organizer turns them on). Under a ruleset with a window (``Ruleset.protest_minutes``:
kostroma 4.5.1, "not later than 10 minutes after the game's end") a later protest is refused, whoever
enters it: the window is absolute. (``Protest.late_accepted_by`` stays for protests recorded before the
window became absolute.) The chief judge decides: upheld or
rejected, with a reason; the decision is final. An upheld protest about a confirmed protocol
reopens it (``protocol.reopen``) with the protest as the reason, so it can be corrected.
Every function runs under ``transaction.atomic`` with the game's row locked.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.rules import protests_enabled, ruleset_for

from ..history import user_name
from ..models import Game, GameState, Protest, ProtestDecision
from ..permissions import Staff
from .protocol import ProtocolError, locked, reopen

if TYPE_CHECKING:
    from base.users import User

TEXT_MAX = 2000


def window_closes(game: Game, minutes: int | None) -> dt.datetime | None:
    """When protests stop being accepted; ``None``: no window (or the game is still going on)."""
    if minutes is None or game.ended_at is None:
        return None
    return game.ended_at + dt.timedelta(minutes=minutes)


def late_reason(game: Game, minutes: int | None, now: dt.datetime) -> str | None:
    """Why a protest lodged ``now`` is late, or ``None`` when it is in time."""
    if minutes is None:
        return None
    if game.ended_at is None:
        if not game.winner:
            return None  # the game is still going on
        return _("The game's end time is not recorded, so the %(minutes)s-minute window for protests cannot be "
                 "checked.") % {"minutes": minutes}
    closes = window_closes(game, minutes)
    assert closes is not None
    if now <= closes:
        return None
    return _("Protests are accepted within %(minutes)s minutes of the game's end (it ended at %(end)s); the window "
             "closed at %(closes)s and this one comes at %(now)s.") % {
        "minutes": minutes,
        "end": timezone.localtime(game.ended_at).strftime("%H:%M:%S"),
        "closes": timezone.localtime(closes).strftime("%H:%M:%S"),
        "now": timezone.localtime(now).strftime("%H:%M:%S"),
    }


def protests_off_message() -> str:
    return _("This tournament takes no protests: the judges' decisions are not subject to appeal. The organizer can "
             "turn protests on in the tournament's settings.")


@transaction.atomic
def lodge(game: Game, staff: Staff, user: User, seat: int, text: str) -> Protest:
    """Records the protest of ``seat``; refused when the tournament takes none or after the window."""
    if not staff.may("enter"):
        raise ProtocolError(_("Only the table's judge, the chief judge or an organizer records a protest."))
    tournament = game.table.round.stage.tournament
    if not protests_enabled(tournament):
        raise ProtocolError(protests_off_message())
    text = text.strip()
    if not text:
        raise ProtocolError(_("Write what the protest is about."))
    if len(text) > TEXT_MAX:
        raise ProtocolError(_("The protest is too long (at most %(n)s characters).") % {"n": TEXT_MAX})
    row = locked(game, None)
    numbers = set(row.seats.values_list("seat__number", flat=True))
    if seat not in numbers:
        raise ProtocolError(_("There is no seat %(n)s at this table.") % {"n": seat})
    now = timezone.now()
    late = late_reason(row, ruleset_for(tournament).protest_minutes, now)
    if late is not None:
        raise ProtocolError(late + " " + _("The window is absolute: a later protest is not accepted."))
    return Protest.objects.create(
        game=row,
        seat=seat,
        text=text,
        lodged_at=timezone.localtime(now).isoformat(timespec="seconds"),
        decision=ProtestDecision.PENDING,
        recorded_at=now,
        recorded_by=user,
    )


def is_decided(protest: Protest) -> bool:
    return protest.decision in (ProtestDecision.UPHELD, ProtestDecision.REJECTED)


@transaction.atomic
def decide(protest: Protest, staff: Staff, user: User, decision: str, reason: str) -> Protest:
    """The chief judge's final decision; upheld reopens a confirmed protocol for correction."""
    if not staff.may("decide"):
        raise ProtocolError(_("Only the chief judge decides protests."))
    if decision not in (ProtestDecision.UPHELD, ProtestDecision.REJECTED):
        raise ProtocolError(_("Choose: upheld or rejected."))
    reason = reason.strip()
    if not reason:
        raise ProtocolError(_("Give the reason for the decision."))
    game = locked(protest.game, None)
    row = Protest.objects.select_for_update().get(pk=protest.pk, game=game)
    if is_decided(row):
        raise ProtocolError(_("This protest is already %(decision)s; the decision is final.") % {
            "decision": row.get_decision_display()})
    now = timezone.now()
    row.decision, row.reason, row.decided_at, row.decider = decision, reason, now, user
    row.decided_by = user_name(user)  # as the lists name people
    row.save()
    if decision == ProtestDecision.UPHELD and game.state == GameState.CONFIRMED:
        why = _("Protest of seat %(n)s upheld: %(reason)s") % {"n": row.seat, "reason": reason}
        reopen(game, staff, user, game.version, why)
    return row
