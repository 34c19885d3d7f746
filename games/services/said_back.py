"""What the judge's screen says back after a tap whose handler has nothing of its own to say: the winner, a check, the
best move, a mark, the phase. Each tap then answers in the dock where the judge's thumb is, as the fouls and the
departures always did; a judge tapping fast sees that the tap landed, and on which seat."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.rulesets import Ruleset
from tournaments.labels import local_number as number

from ..forms import side_choices
from ..words import awarded_words, entry_words, log_diff, phase_words
from .facts import ProtocolFacts
from .tap import Tap


def said_back(tap: Tap, before: list[dict[str, Any]], facts: ProtocolFacts, ruleset: Ruleset) -> str:
    """``tap`` as applied to ``facts``; ``before``: the game log before it (what a "take back" removed)."""
    roles = {s.number: s.role for s in facts.seats}
    sides = {s.number: s.side for s in facts.seats}

    action, n = tap.action, tap.seat
    gone, added = log_diff(before, facts.log)
    logged = " ".join(
        [*([_("Taken back: %(event)s.") % {"event": "; ".join(entry_words(e, roles, sides) for e in gone)}]
           if gone else []),
         *([_("Recorded: %(event)s.") % {"event": "; ".join(entry_words(e, roles, sides) for e in added)}]
           if added else [])])
    sides_of = dict(side_choices(ruleset))
    if action == "winner":
        if not facts.winner:
            return _("The winner is taken back.")
        return _("Winner: %(side)s.") % {"side": sides_of.get(facts.winner, facts.winner)}
    if action == "missed":
        return (_("Marked: the mafia missed three nights.") if facts.mafia_missed_three_nights
                else _("Taken back: the mafia missed three nights."))
    if action == "phase":
        return _("Now: %(phase)s.") % {"phase": phase_words(facts.phase)}
    if action == "subjective_rest":
        return _("Every seat without a subjective mark has 0 now.")
    if action == "award":
        return (awarded_words(facts.awarded, sides_of.get(facts.winner, facts.winner)) if facts.awarded
                else _("The awarded win is taken back."))
    if action == "unaward":
        return _("The awarded win is taken back.")
    if logged:  # the game log's taps: what they recorded or took back (a take-back may settle a night again)
        return logged
    if n is None:
        return ""
    seat = facts.seat(n)
    if action == "best_move":
        if not facts.best_move:
            return _("Best move: no seat named.")
        return ngettext("Best move: seat %(seats)s.", "Best move: seats %(seats)s.", len(facts.best_move)) % {
            "seats": ", ".join(str(s) for s in facts.best_move)}
    if action == "best":
        return (_("Seat %(n)s is named best.") if seat.best else _("Seat %(n)s is no longer named best.")) % {"n": n}
    if action == "extra":
        return _("Seat %(n)s: extra points %(points)s.") % {"n": n, "points": number(seat.extra)}
    if action == "subjective":
        if seat.subjective is None:
            return _("Seat %(n)s: the subjective mark is cleared.") % {"n": n}
        return _("Seat %(n)s: subjective mark %(mark)s.") % {"n": n, "mark": number(seat.subjective)}
    return ""
