"""The regulations' own events on the table screen, apart from the remarks: verbal warnings and the win awarded to
the other side (``Ruleset.verbal_warnings``, ``Ruleset.win_awards``; docs/rules/game.md, "Warnings and awarded
wins"). Each tap is one change of the protocol, as every other tap (``table.perform``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.model import ROLE_SIDE, AwardRule
from scoring.rulesets import Ruleset
from tournaments.labels import ruleset_short

from ..forms import side_choices
from ..reasons import UNSTATED, WARNED_FIRST, label, said_reason
from .facts import ProtocolFacts, SeatFacts
from .protocol import ProtocolError
from .tap import Tap


def warn(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """A verbal warning to ``seat`` for the reason chosen; it counts nothing under any regulation (no number of them
    makes a remark), it is recorded and shown."""
    if not ruleset.verbal_warnings:
        raise ProtocolError(_("%(rules)s has no verbal warnings apart from remarks.") % {
            "rules": ruleset_short(ruleset.id)})
    if seat.removed:
        raise ProtocolError(_("Seat %(n)s has already been removed from the table.") % {"n": seat.number})
    seat.warning_reasons.append(tap.reason or UNSTATED)
    return _("Seat %(n)s: verbal warning %(k)s (%(reason)s).") % {
        "n": seat.number, "k": len(seat.warning_reasons), "reason": said_reason(tap.reason)}


def unwarn(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if seat.warning_reasons:
        seat.warning_reasons.pop()
    return _("Seat %(n)s: %(k)s verbal warnings.") % {"n": seat.number, "k": len(seat.warning_reasons)}


def check_warned(seat: SeatFacts, reason: str, ruleset: Ruleset) -> None:
    """Refuses a remark the regulation gives only after a verbal warning for the same breach (zvezdy: shouting,
    excessive gesturing) when the seat has had none."""
    if reason in WARNED_FIRST.get(ruleset.id, ()) and reason not in seat.warning_reasons:
        raise ProtocolError(_("Seat %(n)s: %(reason)s is warned by word of mouth before the remark; record the "
                              "verbal warning first.") % {"n": seat.number, "reason": label(reason)})


def award(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    """The win awarded for the regulation's ``reason``: against the seat tapped (one side; a second tap of that seat
    takes it back, the last one the award), the other side then the winner; or, for the judge's decision, to the side
    ``value`` (tapped again: taken back)."""
    reason = tap.reason
    rule = ruleset.win_awards.get(reason)
    if rule is None:
        raise ProtocolError(_("Choose the reason the win is awarded for."))
    if rule is AwardRule.JUDGE:
        sides = dict(side_choices(ruleset))
        if tap.value not in sides:
            raise ProtocolError(_("Choose the side the win is awarded to."))
        if facts.awarded == {"reason": reason} and facts.winner == tap.value:
            facts.awarded, facts.winner = {}, ""
        else:
            facts.awarded, facts.winner = {"reason": reason}, tap.value
        return
    if tap.seat is None:
        raise ProtocolError(_("Tap the seat of the player who caused it."))
    try:
        seat = facts.seat(tap.seat)
    except KeyError:
        raise ProtocolError(_("There is no seat %(n)s at this table.") % {"n": tap.seat}) from None
    if rule is AwardRule.AGAINST_REMOVED and not seat.removed:
        raise ProtocolError(_("Seat %(n)s has not been removed from the table: the win is awarded when a player "
                              "removed without a last word speaks or gestures.") % {"n": seat.number})
    named = [int(n) for n in facts.awarded.get("seats", ())] if facts.awarded.get("reason") == reason else []
    if seat.number in named:
        named.remove(seat.number)
    elif rule is AwardRule.AGAINST_REMOVED:
        named = [seat.number]
    else:
        named.append(seat.number)
    if not named:
        facts.awarded, facts.winner = {}, ""
        return
    offenders = {side_of(facts.seat(n)) for n in named}
    if len(offenders) > 1:
        raise ProtocolError(_("Seat %(n)s plays the other side: the win is awarded against one side.") % {
            "n": seat.number})
    others = {side_of(s) for s in facts.seats if s.role} - offenders
    if len(others) != 1:
        raise ProtocolError(_("Record the roles first: the win goes to the side the players named do not play."))
    facts.awarded, facts.winner = {"reason": reason, "seats": sorted(named)}, others.pop()


def unaward(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    """Takes the awarded win back, and the winner it gave."""
    if facts.awarded:
        facts.awarded, facts.winner = {}, ""


def side_of(seat: SeatFacts) -> str:
    sides = {str(role): str(side) for role, side in ROLE_SIDE.items()}
    return seat.side or sides.get(seat.role, "red")
