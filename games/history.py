"""A protocol's history: every saved version of the game and of its seats, and its protests, who and when
(4 queries)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments.param_words import number

from .models import Game, GameSeat
from .reasons import LABELS as REASONS

if TYPE_CHECKING:
    from mafia_tournament.users import User

GAME_FIELDS = ["state", "winner", "first_killed", "best_move", "circles", "mafia_missed_three_nights", "notes",
               "phase", "reopen_reason"]
SEAT_FIELDS = ["role", "side", "foul_reasons", "removal_reason", "removed", "left", "left_number", "extra", "best",
               "days_survived", "subjective"]


@dataclass(frozen=True)
class Entry:
    when: datetime
    who: str
    version: int | None
    what: list[str]
    reason: str


def changes(model: Any, fields: list[str], old: Any, new: Any) -> list[tuple[str, str, str]]:
    """(the field's name, the value before, after), each in words."""
    found = []
    for name in fields:
        before, after = (getattr(old, name) if old is not None else None), getattr(new, name)
        if before != after and not (old is None and after in ("", None, [], False)):
            field = model._meta.get_field(name)
            found.append((str(field.verbose_name), describe(before, field), describe(after, field)))
    return found


def describe(value: Any, field: Any = None) -> str:
    """A stored value in the reader's words: a choice by its label (never ``draft`` or ``red``), a reason by its
    label, a list as its items, circle marks by circle, points in the reader's number format."""
    if value in (None, "", []):
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, Fraction | Decimal):  # points: "0,5", never "0.500000" or "1/2"
        return number(Fraction(value))
    name = getattr(field, "name", "")
    if name in ("foul_reasons", "removal_reason"):
        reasons = value if isinstance(value, list) else [value]
        return ", ".join(str(REASONS.get(r, r)) for r in reasons)
    if name == "circles" and isinstance(value, list):
        return "; ".join(circle_text(i, c) for i, c in enumerate(value, start=1) if isinstance(c, dict)) or "—"
    if isinstance(value, list):
        return ", ".join(describe(v) for v in value)
    choices = dict(getattr(field, "flatchoices", None) or ())
    if value in choices:
        return str(choices[value])
    return str(value)


def circle_text(number_: int, circle: dict[str, Any]) -> str:
    marks = [f"{label} {', '.join(str(s) for s in circle[key])}"
             for key, label in (("best", pgettext("the seats of a circle", "best")),
                                ("worst", pgettext("the seats of a circle", "worst"))) if circle.get(key)]
    return _("Circle %(n)s") % {"n": number_} + ": " + ("; ".join(marks) or "—")


def protocol_history(game: Game) -> list[Entry]:
    """Newest first: each version of the game, and each change of a seat, with its author."""
    entries: list[Entry] = []
    previous = None
    for record in game.history.select_related("history_user").order_by("history_date", "history_id"):
        found = changes(Game, GAME_FIELDS, previous, record)
        what = [f"{name}: {a} → {b}" for name, a, b in found] or [_("saved")]
        entries.append(Entry(record.history_date, user_name(record.history_user), record.version, what,
                             record.history_change_reason or ""))
        previous = record
    numbers = dict(game.seats.values_list("pk", "seat__number"))
    last: dict[int, Any] = {}
    for record in GameSeat.history.filter(game_id=game.pk).select_related("history_user").order_by(
        "history_date", "history_id"
    ):
        found = changes(GameSeat, SEAT_FIELDS, last.get(record.id), record)
        last[record.id] = record
        if found:
            seat = _("Seat %(n)s") % {"n": numbers.get(record.id, "?")}
            what = [f"{seat}: {name}: {a} → {b}" for name, a, b in found]
            entries.append(Entry(record.history_date, user_name(record.history_user), None, what, ""))
    entries += protest_entries(game)
    entries.sort(key=lambda e: e.when, reverse=True)
    return entries


def user_name(user: User | None) -> str:
    return user.get_username() if user is not None else "—"


def protest_entries(game: Game) -> list[Entry]:
    """Each protest recorded here (its lodging, and its decision once made)."""
    entries = []
    for p in game.protests.select_related("recorded_by", "decider", "late_accepted_by"):
        if p.recorded_at is not None:
            what = _("Protest of seat %(n)s recorded: %(text)s") % {"n": p.seat, "text": p.text}
            late = _("accepted after the window") if p.late_accepted_by_id else ""
            entries.append(Entry(p.recorded_at, user_name(p.recorded_by), None, [what], late))
        if p.decided_at is not None:
            what = _("Protest of seat %(n)s %(decision)s") % {"n": p.seat, "decision": p.get_decision_display()}
            entries.append(Entry(p.decided_at, user_name(p.decider), None, [what], p.reason))
    return entries
