"""A protocol's facts in words, as the judge's screen and the protocol's history say them (never the stored ids:
``killed 1``, ``fouls4``, ``['hand_off_vote']``)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Model
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.model import ROLE_SIDE, Role, Side
from tournaments.labels import local_number as number

from .models import Left
from .reasons import label


def left_words(left: str, when: int | None) -> str:
    """How a player left the table: "voted out on day 2", "killed on night 1", "removed on day 3"."""
    if not left:
        return "—"
    if left == Left.VOTED:
        return _("voted out on day %(n)s") % {"n": when}
    if left == Left.KILLED:
        return _("killed on night %(n)s") % {"n": when}
    return _("removed on day %(n)s") % {"n": when}


def awarded_words(awarded: dict[str, Any], side: str = "") -> str:
    """A win awarded, in words: to whom, why, because of which seats; "" when the game was played out."""
    if not awarded.get("reason"):
        return ""
    why = label(str(awarded["reason"]))
    seats = list(awarded.get("seats") or ())
    if seats:
        why = ngettext("%(why)s (seat %(seats)s)", "%(why)s (seats %(seats)s)", len(seats)) % {
            "why": why, "seats": seats_words(seats)}
    if side:
        return _("Win awarded to %(side)s: %(why)s") % {"side": side, "why": why}
    return _("Win awarded: %(why)s") % {"why": why}


def phase_words(phase: int) -> str:
    day = (phase + 1) // 2
    return _("night %(n)s") % {"n": day} if phase % 2 == 0 else _("day %(n)s") % {"n": day}


def seats_words(seats: list[Any]) -> str:
    return ", ".join(str(n) for n in seats)


def circles_words(circles: list[dict[str, list[int]]]) -> str:
    parts = []
    for k, marks in enumerate(circles, start=1):
        best, worst = marks.get("best") or [], marks.get("worst") or []
        if best or worst:
            parts.append(_("circle %(k)s: best %(best)s, worst %(worst)s") % {
                "k": k, "best": seats_words(best) or "—", "worst": seats_words(worst) or "—"})
    return "; ".join(parts) or "—"


def value_words(model: type[Model], name: str, value: Any) -> str:
    """One stored value of ``model.name`` as a person reads it."""
    if value in (None, "", []):
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Fraction | Decimal):  # points: "0,5", never "0.500000" or "1/2"
        return number(Fraction(value))
    if name in ("foul_reasons", "warning_reasons"):
        return "; ".join(label(code) for code in value)
    if name == "awarded":
        return awarded_words(dict(value)) or "—"
    if name == "removal_reason":
        return label(str(value))
    if name in ("best_move",):
        return seats_words(list(value))
    if name == "circles":
        return circles_words(list(value))
    if name == "phase":
        return phase_words(int(value))
    field = model._meta.get_field(name)
    choices = dict(getattr(field, "flatchoices", None) or ())
    if choices:
        return str(choices.get(value, value))
    return str(value)


def check_found(kind: str, role: str, side: str = "") -> str:
    """What a night check finds of a seat, as a code: the don ``sheriff`` or ``not_sheriff``; the sheriff ``black`` or
    ``red`` by the side the seat plays (``side``: an extra character's chosen side; else its role's)."""
    if kind == "don_check":
        return "sheriff" if role == Role.SHERIFF else "not_sheriff"
    played = side or (ROLE_SIDE.get(Role(role), Side.RED) if role in {r.value for r in Role} else "")
    return "black" if played == Side.BLACK else "red"


def event_words(kind: str, phase: int, seat: int | None, count: int | None, roles: dict[int, str],
                sides: dict[int, str] | None = None, by: int | None = None) -> str:
    """One entry of the game log: "Day 1: seat 4 is nominated", "Night 1: the sheriff checks seat 3: black",
    "Night 1: seat 2 shoots seat 7". ``roles`` and ``sides`` (the side chosen, where one was) by seat; ``by`` a
    shot's shooter (none: the whole mafia)."""
    when = phase_words(phase)
    n = seat if seat is not None else "—"
    if kind == "nominated":
        what = _("seat %(n)s is nominated") % {"n": n}
    elif kind == "votes":
        what = _("%(count)s votes for seat %(n)s") % {"count": count if count is not None else "—", "n": n}
    elif kind == "voted_out":
        what = _("seat %(n)s is voted out") % {"n": n}
    elif kind == "killed":
        what = _("seat %(n)s is killed") % {"n": n}
    elif kind == "removed":
        what = _("seat %(n)s is removed") % {"n": n}
    elif kind == "don_check":
        found = _("the sheriff") if check_found(kind, roles.get(seat or 0, "")) == "sheriff" else _("not the sheriff")
        what = _("the don checks seat %(n)s: %(found)s") % {"n": n, "found": found}
    elif kind == "sheriff_check":
        black = check_found(kind, roles.get(seat or 0, ""), (sides or {}).get(seat or 0, "")) == "black"
        found = pgettext("the sheriff's check", "black") if black else pgettext("the sheriff's check", "red")
        what = _("the sheriff checks seat %(n)s: %(found)s") % {"n": n, "found": found}
    elif kind == "heal":
        what = _("the doctor heals seat %(n)s") % {"n": n}
    elif kind == "shot" and by is None:
        what = _("the mafia shoots seat %(n)s") % {"n": n}
    elif kind == "shot":
        what = _("seat %(by)s shoots seat %(n)s") % {"by": by, "n": n}
    else:
        what = kind
    return f"{when}: {what}"



def entry_words(entry: dict[str, Any], roles: dict[int, str], sides: dict[int, str] | None = None) -> str:
    """One stored entry of the game log (``Game.log``) in words, as ``event_words`` says it."""
    return event_words(str(entry["kind"]), int(entry["phase"]), entry.get("seat"), entry.get("count"), roles, sides,
                       entry.get("by"))


def log_diff(before: list[dict[str, Any]], after: list[dict[str, Any]]
             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(the entries taken back, the entries added) from ``before`` to ``after``: a tap adds at the end and a
    take-back removes the last (settling a night again may add one back), so the two share a beginning."""
    same = 0
    while same < min(len(before), len(after)) and before[same] == after[same]:
        same += 1
    return before[same:], after[same:]

def seat_names(seated: list[tuple[int, Any]]) -> dict[int, str]:
    """Each seat's player as the judge reads them: the full name, and where two at the table share it, the nickname
    or the player's number beside it (two «Волков Максим» at one table were told apart by nothing)."""
    full = {n: p.player.full_name for n, p in seated}
    shared = {name for name in full.values() if list(full.values()).count(name) > 1}
    return {n: (f"{full[n]} «{p.player.nickname}»" if p.player.nickname else f"{full[n]} (№{p.number})")
            if full[n] in shared else full[n] for n, p in seated}
