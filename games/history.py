"""A protocol's history: every saved version of the game and of its seats, and its protests, who and when
(5 queries)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .models import Game, GameSeat
from .words import entry_words, left_words, log_diff, value_words

if TYPE_CHECKING:
    from base.users import User

GAME_FIELDS = ["state", "winner", "first_killed", "best_move", "circles", "mafia_missed_three_nights", "awarded",
               "notes", "phase", "reopen_reason"]
# "left" and "left_number" are said together ("left the table: killed on night 1"), not as two raw fields.
SEAT_FIELDS = ["role", "side", "foul_reasons", "warning_reasons", "removal_reason", "removed", "extra", "best",
               "days_survived", "subjective", "left"]


@dataclass(frozen=True)
class Entry:
    when: datetime
    who: str
    version: int | None
    what: list[str]
    reason: str


def changes(model: Any, fields: list[str], old: Any, new: Any) -> list[tuple[str, str, str]]:
    """(the field's name, before, after) in words for each field that changed; a seat's departure (how and
    when) is one line, "left the table: — → killed on night 1"."""
    found = []
    for name in fields:
        if name == "left":  # with its day or night, below
            continue
        before, after = (getattr(old, name) if old is not None else None), getattr(new, name)
        if before != after and not (old is None and after in ("", None, [], False, {})):
            said_before, said_after = value_words(model, name, before), value_words(model, name, after)
            if said_before != said_after:  # {} and None are both "—": no change a reader could see
                found.append((str(model._meta.get_field(name).verbose_name), said_before, said_after))
    if "left" in fields:
        was = (getattr(old, "left", ""), getattr(old, "left_number", None)) if old is not None else ("", None)
        now = (new.left, new.left_number)
        if was != now and not (old is None and not now[0]):
            found.append((_("left the table"), left_words(*was), left_words(*now)))
    return found


def protocol_history(game: Game) -> list[Entry]:
    """Newest first: each version of the game, and each change of a seat, with its author."""
    entries: list[Entry] = []
    previous = None
    seats = list(game.seats.values_list("seat__number", "role", "side"))
    roles, sides = {n: role for n, role, _side in seats}, {n: side for n, _role, side in seats}
    for record in game.history.select_related("history_user").order_by("history_date", "history_id"):
        found = changes(Game, GAME_FIELDS, previous, record)
        what = [f"{name}: {a} → {b}" for name, a, b in found]
        what += log_changes(previous.log if previous is not None else [], record.log or [], roles, sides)
        what = what or [_("saved")]
        entries.append(Entry(record.history_date, user_name(record.history_user), record.version, what,
                             reason_words(record.history_change_reason or "")))
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


def log_changes(before: list[dict[str, Any]], after: list[dict[str, Any]], roles: dict[int, str],
                sides: dict[int, str]) -> list[str]:
    """What a version added to the game log or took back from it, each entry in words ("game log: Day 1: seat 4
    is nominated")."""
    gone, added = log_diff(before, after)
    return ([_("game log, taken back: %(event)s") % {"event": entry_words(e, roles, sides)} for e in gone]
            + [_("game log: %(event)s") % {"event": entry_words(e, roles, sides)} for e in added])


# The reasons the protocol service stamps on a state change (a reopening's reason is the chief judge's own text).
STAMPED = {"submitted": gettext_lazy("submitted by the judge"), "confirmed": gettext_lazy("confirmed")}


def reason_words(reason: str) -> str:
    return str(STAMPED.get(reason, reason))


def user_name(user: User | None) -> str:
    return (user.get_full_name() or user.get_username()) if user is not None else "—"


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
