"""Opening a protocol, changing it, and its states ``draft → submitted → confirmed``.

Every function here runs under ``transaction.atomic`` with the game's row locked, checks the
state and the version the change was based on, validates the whole protocol with ``scoring`` and
saves all of it or nothing, recording who did it and when (django-simple-history keeps each
earlier version).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db import connections, router, transaction
from django.db.models import Field, Model
from django.utils import timezone
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from base.texts import too_long
from scoring.errors import Problem
from tournaments.errors import UserError
from tournaments.models import Table, Tournament
from tournaments.rules import ruleset_for

from ..models import Game, GameSeat, GameState
from ..permissions import Staff, staff_of
from .facts import ProtocolFacts, facts_of, problems, tracks_days

if TYPE_CHECKING:
    from base.users import User


class ProtocolError(UserError):
    """A user's error (never a bug): shown as it is."""


class ProtocolRejected(ProtocolError):
    """The protocol would break rules; nothing was saved."""

    def __init__(self, problems: list[Problem]) -> None:
        super().__init__("; ".join(str(p) for p in problems))
        self.problems = problems


class VersionConflict(ProtocolError):
    """The change was based on an older version of the protocol."""

    def __init__(self, game: Game, version: int) -> None:
        who = game.changed_by.get_username() if game.changed_by else "—"
        when = timezone.localtime(game.changed_at).strftime("%H:%M:%S") if game.changed_at else "—"
        super().__init__(
            _(
                "The protocol was changed meanwhile (version %(now)s by %(who)s at %(when)s); your change was "
                "based on version %(old)s and was not saved. Reload to see the current protocol."
            )
            % {"now": game.version, "who": who, "when": when, "old": version}
        )
        self.current = game.version


SEAT_FIELDS = ["role", "side", "fouls", "removed", "extra", "best", "days_survived", "subjective",
               "foul_reasons", "removal_reason", "warning_reasons", "left", "left_number"]


def open_protocol(table: Table, user: User) -> Game:
    """The table's protocol, created as a draft pre-filled from the published seating."""
    existing = Game.objects.filter(table=table).first()
    if existing is not None:
        return existing
    return create_protocol(table, user)


def create_protocol(table: Table, user: User) -> Game:
    """``open_protocol`` for a caller that has just found no protocol for the table: created now, unless it was
    created meanwhile (checked again under the table's lock)."""
    if not table.round.is_published:
        raise ProtocolError(_("The round's seating is not published yet."))
    with transaction.atomic():
        Table.objects.select_for_update().get(pk=table.pk)
        existing = Game.objects.filter(table=table).first()
        if existing is not None:
            return existing
        game = Game(table=table, changed_by=user, changed_at=timezone.now())
        game._history_user = user  # type: ignore[attr-defined]
        game.save()
        # In two statements with their history rows, not twenty: a hundred judges open their tables at once. No
        # signal is missed: a draft's seats change nothing public (public.versioning.affects_public).
        bulk_create_with_history([GameSeat(game=game, seat=seat) for seat in table.seats.order_by("number")],
                                 GameSeat, default_user=user)
        return game


def locked(game: Game, version: int | None) -> Game:
    # ``changed_by`` is not joined here: when the lock waits for a concurrent save, PostgreSQL
    # re-reads the locked game row but not the rows joined to it, so a joined user could be the
    # one before that save, and the conflict message would name the wrong person.
    rows = Game.objects.select_for_update(of=("self",))
    row = rows.select_related("table__round__stage__tournament").get(pk=game.pk)
    if version is not None and row.version != version:
        raise VersionConflict(row, version)
    return row


def seat_rows(game: Game) -> list[GameSeat]:
    return list(game.seats.select_related("seat").order_by("seat__number"))


def held_for_the_chief(game: Game, can_confirm: bool) -> bool:
    """Submitted, so no longer the judge's to change: what the chief judge confirms is what the judge submitted, and
    from then on only they (``can_confirm``) change it; a protocol they reopened with a reason is open again."""
    return game.state == GameState.SUBMITTED and not game.reopen_reason and not can_confirm


@transaction.atomic
def change(game: Game, user: User, version: int, mutate: Callable[[ProtocolFacts], None], *,
           unchanged_unsaved: bool = False) -> Game:
    """Applies ``mutate`` to the protocol's facts and saves them if every rule holds; ``unchanged_unsaved``: a
    change that changes nothing is no new version (the full form saved as it was; a tap and the API's PUT always
    make one, their callers count on the version moving on)."""
    row = locked(game, version)
    if row.state == GameState.CONFIRMED:
        raise ProtocolError(_("The protocol is confirmed and locked; the chief judge can reopen it."))
    # the staff read only for a submitted protocol: a draft's save (every tap) asks nothing more
    if row.state == GameState.SUBMITTED and held_for_the_chief(
            row, staff_of(user, row.table.round.stage.tournament).can_confirm):
        raise ProtocolError(_("The protocol is submitted: the chief judge confirms it or sends it back to the "
                              "judge to change."))
    rows = seat_rows(row)
    ruleset = ruleset_for(row.table.round.stage.tournament)
    facts = facts_of(row, rows, removal_at=ruleset.foul_removal_at)
    before = copy.deepcopy(facts)
    mutate(facts)
    found = problems(facts, ruleset, need_result=row.state != GameState.DRAFT)
    if found:
        raise ProtocolRejected(found)
    if unchanged_unsaved and same_facts(facts, before):  # no empty version in the history
        return row
    write(row, rows, facts, user, tracks_days(ruleset))
    return row


def same_facts(a: ProtocolFacts, b: ProtocolFacts) -> bool:
    """The two would be written alike (empty speech circles are not kept)."""
    return a == b or dataclasses.replace(a, circles=kept_circles(a.circles)) == dataclasses.replace(
        b, circles=kept_circles(b.circles))


def write(game: Game, rows: list[GameSeat], facts: ProtocolFacts, user: User, days: bool) -> None:
    now = timezone.now()
    if facts.winner and not game.winner and game.ended_at is None:
        game.ended_at = now
    game.winner = facts.winner
    game.first_killed = facts.derived_first_killed()
    game.best_move = list(facts.best_move)
    game.circles = kept_circles(facts.circles)
    game.mafia_missed_three_nights = facts.mafia_missed_three_nights
    game.notes = facts.notes or None
    game.phase = facts.phase
    game.log = [dict(event) for event in facts.log]
    game.awarded = dict(facts.awarded)
    stamp(game, user, now)
    changed: list[GameSeat] = []
    fields: set[str] = set()
    for row, seat in zip(rows, facts.seats, strict=True):
        values = {
            "role": seat.role,
            "side": seat.side,
            "fouls": min(seat.fouls, 4),
            "removed": seat.removed,
            "extra": seat.extra,  # kept exact (tournaments.fields.ExactNumberField), 1/3 included
            "best": seat.best,
            "days_survived": facts.derived_days(seat) if days else seat.days_survived,
            "subjective": seat.subjective,
            "foul_reasons": list(seat.foul_reasons),
            "removal_reason": seat.removal_reason,
            "warning_reasons": list(seat.warning_reasons),
            "left": seat.left,
            "left_number": seat.left_number if seat.left else None,
        }
        differ = [name for name, value in values.items() if getattr(row, name) != value]
        if differ:
            for name, value in values.items():
                setattr(row, name, value)
            changed.append(row)
            fields.update(differ)
    if changed:
        update_rows(GameSeat, changed, [name for name in SEAT_FIELDS if name in fields])
        GameSeat.history.bulk_history_create(changed, update=True, default_user=user)


def update_rows(model: type[Model], rows: Sequence[Model], fields: list[str]) -> None:
    """What ``QuerySet.bulk_update(rows, fields)`` writes, in the one statement it would send (``CASE`` on the
    primary key for each field, cast where the database needs it), written here without its expressions: building
    and resolving a ``When`` for each field of each row took most of a protocol save's time (a whole table's
    ten seats by twelve fields: 120 of them). ``rows``: read under the game's lock, so only the ``fields`` that
    changed in one of them need writing: the others are written as they are."""
    connection = connections[router.db_for_write(model)]
    meta = model._meta
    quote = connection.ops.quote_name
    assert meta.pk is not None and meta.pk.column is not None
    key = quote(meta.pk.column)
    cast = connection.features.requires_casted_case_in_updates
    params: list[Any] = []
    assignments = []
    for name in fields:
        field = meta.get_field(name)
        assert isinstance(field, Field) and field.column is not None
        whens = []
        for row in rows:
            whens.append(f"WHEN {key} = %s THEN %s")
            params += [row.pk, field.get_db_prep_save(getattr(row, field.attname), connection)]
        case = f"CASE {' '.join(whens)} ELSE NULL END"
        value = f"CAST({case} AS {field.cast_db_type(connection)})" if cast else case
        assignments.append(f"{quote(field.column)} = {value}")
    params += [row.pk for row in rows]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {quote(meta.db_table)} SET {', '.join(assignments)} "
                       f"WHERE {key} IN ({', '.join(['%s'] * len(rows))})", params)


def kept_circles(circles: list[dict[str, list[int]]]) -> list[dict[str, list[int]]]:
    """The circles up to the last one with a mark; an empty circle between keeps its place."""
    kept = [{k: list(v) for k, v in c.items() if v} for c in circles]
    while kept and not kept[-1]:
        kept.pop()
    return kept


def stamp(game: Game, user: User, now: datetime, reason: str | None = None, *, only: list[str] | None = None) -> None:
    """Saves ``game`` as the next version, by ``user`` at ``now``; ``only``: the other fields that
    changed, when they are its state alone (then public pages are not built again: ``public.versioning``)."""
    game.version += 1
    game.changed_by = user
    game.changed_at = now
    game._history_user = user  # type: ignore[attr-defined]
    if reason:
        game._change_reason = reason  # type: ignore[attr-defined]
    game.save(update_fields=None if only is None else [*only, "version", "changed_by", "changed_at"])


@transaction.atomic
def submit(game: Game, user: User, version: int) -> Game:
    """The judge hands the protocol in: it must have a result and break no rule."""
    row = locked(game, version)
    if row.state != GameState.DRAFT:
        raise ProtocolError(_("Only a draft can be submitted."))
    ruleset = ruleset_for(row.table.round.stage.tournament)
    facts = facts_of(row, seat_rows(row), removal_at=ruleset.foul_removal_at)
    found = problems(facts, ruleset, need_result=True)
    if found:
        raise ProtocolRejected(found)
    now = timezone.now()
    row.state, row.submitted_by, row.submitted_at = GameState.SUBMITTED, user, now
    row.sent_back_comment = ""  # the chief judge's comment is answered by submitting again
    # a reopening opened the protocol for its correction until it was submitted again (sent back to the judge,
    # a draft, then submitted): from now on it is the judge's submission, closed to the judge like any other
    row.reopen_reason = ""
    stamp(row, user, now, "submitted")
    return row


def authors(game: Game) -> tuple[int | None, set[int]]:
    """Who submitted the protocol, and who changed its facts since it was last submitted or confirmed
    (from its history: a change of facts is a version saved with no reason)."""
    changed: set[int] = set()
    records = game.history.order_by("-history_date", "-history_id").values_list(
        "history_user_id", "history_change_reason", "state")
    for user_id, reason, state in records:
        if reason in ("submitted", "confirmed"):
            break
        if not reason and state == GameState.SUBMITTED and user_id is not None:
            changed.add(user_id)
    return game.submitted_by_id, changed


def four_eyes_refusal(game: Game, user: User, tournament: Tournament) -> str | None:
    """Why ``user`` may not confirm ``game`` under ``tournament``'s four-eyes rule, or ``None``."""
    if not tournament.four_eyes or game.state != GameState.SUBMITTED:
        return None
    submitter, changed = authors(game)
    if submitter is not None and submitter == user.pk:
        return _("Four-eyes confirmation: you submitted this protocol, so someone else (the chief judge or an "
                 "organizer) must confirm it.")
    if user.pk in changed:
        return _("Four-eyes confirmation: you changed this protocol after it was submitted, so someone else "
                 "(the chief judge or an organizer) must confirm it.")
    return None


class FourEyesRefused(ProtocolError):
    """The tournament wants a protocol confirmed by someone other than who submitted (or changed) it."""


@transaction.atomic
def confirm(game: Game, staff: Staff, user: User, version: int) -> Game:
    """The chief judge or an organizer confirms a submitted protocol; it is locked from then on. With the
    tournament's four-eyes rule, not by the one who submitted it or changed it since."""
    if not staff.may("confirm"):
        raise ProtocolError(_("Only the chief judge or an organizer can confirm a protocol."))
    row = locked(game, version)
    if row.state != GameState.SUBMITTED:
        raise ProtocolError(_("Only a submitted protocol can be confirmed."))
    refusal = four_eyes_refusal(row, user, row.table.round.stage.tournament)
    if refusal is not None:
        raise FourEyesRefused(refusal)
    now = timezone.now()
    row.state, row.confirmed_by, row.confirmed_at = GameState.CONFIRMED, user, now
    stamp(row, user, now, "confirmed", only=["state", "confirmed_by", "confirmed_at"])
    return row


@transaction.atomic
def reopen(game: Game, staff: Staff, user: User, version: int, reason: str) -> Game:
    """Only the chief judge reopens a confirmed protocol, with a reason; it is submitted again."""
    if not staff.may("reopen"):
        raise ProtocolError(_("Only the chief judge can reopen a confirmed protocol."))
    if not reason.strip():
        raise ProtocolError(_("Give the reason for reopening the protocol."))
    row = locked(game, version)
    if row.state != GameState.CONFIRMED:
        raise ProtocolError(_("Only a confirmed protocol can be reopened."))
    row.state, row.reopen_reason = GameState.SUBMITTED, reason.strip()
    row.confirmed_by, row.confirmed_at = None, None
    stamp(row, user, timezone.now(), reason.strip(), only=["state", "reopen_reason", "confirmed_by", "confirmed_at"])
    return row


COMMENT_LIMIT = 2000  # the desk's comment field (games/templates/games/desk.html)


@transaction.atomic
def send_back(game: Game, staff: Staff, user: User, version: int, comment: str) -> Game:
    """The chief judge or an organizer sends a submitted protocol back to its judge with a comment: it is a draft
    again (out of the standings until submitted again), based on exactly ``version`` (the one looked at), and the
    judge sees the comment on the protocol until submitting it again. The comment is also the version's reason in
    the history."""
    if not staff.may("confirm"):
        raise ProtocolError(_("Only the chief judge or an organizer can send a protocol back."))
    comment = comment.strip()
    if not comment:
        raise ProtocolError(_("Say what the judge should correct: the comment is empty."))
    if problem := too_long(comment, COMMENT_LIMIT):
        raise ProtocolError(_("The comment: %(problem)s") % {"problem": problem})
    row = locked(game, version)
    if row.state != GameState.SUBMITTED:
        raise ProtocolError(_("Only a submitted protocol can be sent back."))
    row.state, row.sent_back_comment = GameState.DRAFT, comment
    row.submitted_by, row.submitted_at = None, None
    stamp(row, user, timezone.now(), _("sent back: %(comment)s") % {"comment": comment},
          only=["state", "sent_back_comment", "submitted_by", "submitted_at"])
    return row
