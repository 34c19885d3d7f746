"""A protocol's facts in words, as the judge's screen and the protocol's history say them (never the stored ids:
``killed 1``, ``fouls4``, ``['hand_off_vote']``)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Model
from django.utils.translation import gettext as _

from tournaments.param_words import number

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
    if name == "foul_reasons":
        return "; ".join(label(code) for code in value)
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
