"""The taps that record the protocol itself on the table screen: the day/night, the winner, fouls with each
regulation's consequences, departures, the best move, named best, circle marks, the jury's mark and extra points.

At the 3rd foul the player loses their next speech; at the 4th they are removed from the table without a last word
(the ruleset's removal points apply). Who left and when is recorded as it happens, so days survived and the first
kill are derived from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _

from scoring.rulesets import Ruleset
from tournaments.labels import local_number as number
from tournaments.labels import ruleset_short
from tournaments.numbers import typed_number

from ..models import Left
from ..reasons import FOURTH_FOUL, THIRD_REMARK, UNSTATED, label, said_reason
from .discipline import check_warned
from .facts import ProtocolFacts, SeatFacts
from .game_log import follow_missed, log
from .protocol import ProtocolError
from .tap import Tap

MAX_CIRCLES = 12


def phase(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    facts.phase = max(1, facts.phase + (1 if tap.value == "next" else -1))


def winner(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    facts.winner = "" if facts.winner == tap.value else tap.value
    follow_missed(facts, ruleset)


def missed(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    facts.mafia_missed_three_nights = not facts.mafia_missed_three_nights


def foul(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    n = seat.number
    if seat.removed:
        raise ProtocolError(_("Seat %(n)s has already been removed from the table.") % {"n": n})
    check_warned(seat, tap.reason, ruleset)
    seat.foul_reasons.append(tap.reason or UNSTATED)
    # Each regulation's consequences of remarks (``Ruleset.foul_silence_at``, ``foul_removal_at``); tomsk sets none.
    if seat.fouls == ruleset.foul_silence_at:
        said = THIRD_REMARK.get(ruleset.id, THIRD_REMARK["kostroma"])
        return str(said) % {"n": n, "reason": said_reason(tap.reason)}
    if seat.fouls == ruleset.foul_removal_at:
        seat.removal_reason, seat.left, seat.left_number = FOURTH_FOUL, Left.REMOVED, facts.day
        return removed_message(n, ruleset, _("fourth foul"))
    return _("Seat %(n)s: foul %(k)s (%(reason)s).") % {"n": n, "k": seat.fouls,
                                                          "reason": said_reason(tap.reason)}


def unfoul(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if seat.foul_reasons:
        seat.foul_reasons.pop()
        if seat.removal_reason == FOURTH_FOUL:
            seat.removal_reason, seat.left, seat.left_number = "", "", None
    return _("Seat %(n)s: %(k)s fouls.") % {"n": seat.number, "k": seat.fouls}


def remove(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if not tap.reason:  # a removal is never recorded for a reason the judge did not choose
        raise ProtocolError(_("Choose the reason for the removal first."))
    if seat.left:
        raise ProtocolError(_("Seat %(n)s has already left the table.") % {"n": seat.number})
    seat.removal_reason, seat.left, seat.left_number = tap.reason, Left.REMOVED, facts.day
    log(facts, "removed", seat.number)
    return removed_message(seat.number, ruleset, label(seat.removal_reason))


def leaves(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """``voted`` out by day or ``killed`` by night."""
    n = seat.number
    if seat.left:
        raise ProtocolError(_("Seat %(n)s has already left the table.") % {"n": n})
    if (tap.action == "killed") != facts.is_night:
        raise ProtocolError(_("Players are voted out by day and killed by night: switch the day/night first."))
    if tap.action == "killed" and any(e["kind"] == "shot" and e["phase"] == facts.phase for e in facts.log):
        raise ProtocolError(_("Night %(d)s: the shots recorded decide who is killed; take back a shot to change "
                              "it.") % {"d": facts.day})
    seat.left, seat.left_number = tap.action, facts.day
    log(facts, "voted_out" if tap.action == "voted" else "killed", n)
    if tap.action == "voted":
        return _("Seat %(n)s is voted out on day %(d)s.") % {"n": n, "d": facts.day}
    return _("Seat %(n)s is killed on night %(d)s.") % {"n": n, "d": facts.day}


def back(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    departures = [i for i, e in enumerate(facts.log)
                  if e["kind"] in ("voted_out", "killed", "removed") and e.get("seat") == seat.number]
    if departures:  # the log forgets the departure taken back
        del facts.log[departures[-1]]
    seat.left, seat.left_number = "", None
    if seat.removal_reason and seat.removal_reason != FOURTH_FOUL:
        seat.removal_reason = ""
    return _("Seat %(n)s is back at the table.") % {"n": seat.number}


def subjective_rest(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    """Every seat still without a subjective mark gets 0 (tomsk: most players' SP is 0; one tap, not twelve)."""
    for seat in facts.seats:
        if seat.subjective is None:
            seat.subjective = Fraction(0)


def best_move(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if seat.number in facts.best_move:
        facts.best_move.remove(seat.number)
    else:
        facts.best_move.append(seat.number)
    return ""


def best(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    seat.best = not seat.best
    return ""


def circle_mark(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """``circle_best`` or ``circle_worst``: see ``mark``. Circle 0 is the day's own (day N's speeches are circle N),
    read when the tap is applied, so a tap queued behind a phase tap lands in the new day's circle."""
    return mark(facts, seat.number, tap.circle or facts.day, tap.action.removeprefix("circle_"))


def subjective(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    try:
        seat.subjective = typed_number(tap.value) if tap.value.strip() else None
    except (ValueError, ZeroDivisionError):
        raise ProtocolError(_("The subjective mark must be a number.")) from None
    return ""


def extra(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    try:
        seat.extra = typed_number(tap.value or "0")
    except (ValueError, ZeroDivisionError):
        raise ProtocolError(_("Extra points must be a number.")) from None
    return ""


def mark(facts: ProtocolFacts, n: int, circle: int, kind: str) -> str:
    """Names seat ``n`` best or worst in speech circle ``circle`` (zvezdy), or takes the mark back.


    One tap moves a seat named the other way in that circle; the limit of marks is scoring's check.
    """
    if not 1 <= circle <= MAX_CIRCLES:
        raise ProtocolError(_("There is no speech circle %(c)s.") % {"c": circle})
    while len(facts.circles) < circle:
        facts.circles.append({"best": [], "worst": []})
    marks = facts.circles[circle - 1]
    other = "worst" if kind == "best" else "best"
    named = list(marks.get(kind, []))
    if n in named:
        named.remove(n)
        marks[kind] = named
        return _("Circle %(c)s: the mark of seat %(n)s is taken back.") % {"c": circle, "n": n}
    marks[kind] = [*named, n]
    marks[other] = [s for s in marks.get(other, []) if s != n]
    if kind == "best":
        return _("Circle %(c)s: seat %(n)s is named best.") % {"c": circle, "n": n}
    return _("Circle %(c)s: seat %(n)s is named worst.") % {"c": circle, "n": n}


def removed_message(n: int, ruleset: Ruleset, why: str) -> str:
    points = ruleset.params.removal_points
    message = _("Seat %(n)s is removed from the table without a last word (%(why)s).") % {"n": n, "why": why}
    if points:
        message += " " + _("%(rules)s: %(points)s points for the removal.") % {
            "rules": ruleset_short(ruleset.id), "points": number(points)}
    return message


def set_extras(facts: ProtocolFacts, data: Mapping[str, Any]) -> None:
    """The extra points of every seat at once as the screen's form posts them (``x<seat>``); a seat left out keeps
    its value."""
    for seat in facts.seats:
        text = str(data.get(f"x{seat.number}", "")).strip()
        if not text:
            continue
        try:
            seat.extra = typed_number(text)
        except (ValueError, ZeroDivisionError):
            raise ProtocolError(_("Seat %(n)s: extra points must be a number.") % {"n": seat.number}) from None
