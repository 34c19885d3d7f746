"""The stream overlay: what one table looks like to the stream, as "frames" (docs/stream-overlay.md).

A frame is a small JSON-able dict built from the table's protocol and the judge's game log: the players with their
numbers, who is out and how, fouls, who is speaking, the day's nominations and votes, the last events and the
result. The roles (and the night's checks and heals, which would give them away) are in it only when the organizer
shows them to the stream. Frames carry codes and numbers, never words: the overlay page says them in its own
language.

After every committed change of a protocol of a tournament with an overlay (and when the judge marks the speaker,
or a round is published) the stream queue's worker (``games.tasks``, tournaments/background.py) builds the frame of
that table number once, kept in the cache with its moment
(``FRAMES``, for the delay), and sent to the channel layer's group of that table number, whose websocket
consumers (``games.consumers``) send it on ``delay_seconds`` after the moment. Without a channel layer (no Redis)
the overlay polls ``frame_as_of`` instead. A frame is for a table *number*: the overlay follows that number from
round to round (``current_table``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Iterator
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.utils.translation import gettext as _

from scoring.model import ROLE_SIDE, Role, Side
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.models.rounds import RoundState

from ..models import Game, GameState, StreamOverlay
from ..models.stream import MAX_DELAY_SECONDS
from ..words import check_found

log = logging.getLogger(__name__)

FORMAT = 1  # the frame's layout; the page ignores a frame of another
TICKET_SECONDS = 15 * 60  # a websocket's ticket: the socket closes then and the page asks for a new one
SPEAKER_SECONDS = 3 * 3600
LOOK_BACK_ROUNDS = 4  # the rounds searched for the table being played
CHECKS = ("don_check", "sheriff_check", "heal", "shot")  # night events that give roles away
DEPARTURES = ("voted_out", "killed", "removed")
KEEP_AT_LEAST = 120  # seconds of frames kept whatever the delay: raising the delay up to this shows no gap
EVENTS_SHOWN = 6
FRAMES = "stream:frames:{tournament}:{number}"
WATCHED = "stream:watched:{tournament}:{number}"
ANY_WATCHED = "stream:watched-any"  # some overlay page, of any tournament, shows some table: changes are queued
WATCH_SECONDS = 20 * 60  # an overlay page asks the state at least every ticket (15 minutes)
SPEAKER = "stream:speaker:{game}"


class StreamError(ValueError):
    """A setting the overlay cannot take; the message names it."""


def overlay_of(tournament: Tournament) -> StreamOverlay | None:
    return StreamOverlay.objects.filter(tournament=tournament).first()


def open_overlay(tournament: Tournament) -> StreamOverlay:
    overlay, _created = StreamOverlay.objects.get_or_create(tournament=tournament,
                                                           defaults={"token": secrets.token_urlsafe(24)})
    return overlay


def overlay_for_token(slug: str, token: str) -> StreamOverlay | None:
    return StreamOverlay.objects.select_related("tournament").filter(tournament__slug=slug, token=token).first()


def new_link(overlay: StreamOverlay) -> StreamOverlay:
    """A new token: every overlay link given out before answers 404 (and its socket closes within a ticket's time)."""
    overlay.token = secrets.token_urlsafe(24)
    overlay.save(update_fields=["token", "updated"])
    return overlay


def change_settings(overlay: StreamOverlay, show_roles: bool, delay: str) -> StreamOverlay:
    try:
        seconds = int(delay.strip() or "0")
    except ValueError:
        raise StreamError(_("The delay is a whole number of seconds, from 0 to %(most)s.")
                          % {"most": MAX_DELAY_SECONDS}) from None
    if not 0 <= seconds <= MAX_DELAY_SECONDS:
        raise StreamError(_("The delay is a whole number of seconds, from 0 to %(most)s.")
                          % {"most": MAX_DELAY_SECONDS})
    hiding = overlay.show_roles and not show_roles
    if seconds > overlay.delay_seconds:
        hold_for_longer_delay(overlay.tournament_id, overlay.delay_seconds, seconds, time.time())
    overlay.show_roles, overlay.delay_seconds = show_roles, seconds
    overlay.save(update_fields=["show_roles", "delay_seconds", "updated"])
    transaction.on_commit(lambda: enqueue_settings_changed(overlay.tournament_id, hiding))
    return overlay


def settings_changed(tournament_id: int, hiding: bool) -> None:
    """After the overlay's settings changed (the stream queue's worker): the roles hidden everywhere at once when
    they were turned off, and every watched table's frame built again."""
    try:
        if hiding:
            hide_roles_now(tournament_id)
    except Exception:
        log.exception("hiding the roles of tournament %s failed", tournament_id)
    publish(tournament_id)


def enqueue_settings_changed(tournament_id: int, hiding: bool) -> None:
    from ..tasks import overlay_settings_changed

    queue_frames(overlay_settings_changed, tournament_id, hiding)


def queue_frames(task: Any, *args: Any) -> None:
    """Queues a stream task for the stream queue's worker; a failure (the database gone) is logged, never raised:
    the change that caused it is saved, and the frames follow on the next one."""
    try:
        task.enqueue(*args)
    except Exception:
        log.exception("queueing the stream task %s%s failed", getattr(task, "name", task), args)


def hold_for_longer_delay(tournament_id: int, old: int, new: int, at: float) -> None:
    """The delay raised from ``old`` to ``new`` seconds at ``at``: each table's stream stays on the frame it showed
    then until the frames after it are ``new`` seconds old, so it never goes blank or back in time. The frame shown
    is kept as if made ``new`` seconds ago, and the frames it had replaced go."""
    for number in table_numbers(tournament_id):
        frames = kept(tournament_id, number)
        shown = [(when, frame) for when, frame in frames if when <= at - old]
        if not shown:
            continue
        later = [(when, frame) for when, frame in frames if when > at - old]
        cache.set(FRAMES.format(tournament=tournament_id, number=number), [(at - new, shown[-1][1]), *later],
                  MAX_DELAY_SECONDS + 3600)


def turn_off(overlay: StreamOverlay) -> None:
    """No overlay any more: its links answer 404, the judges' screens lose "Speaking"; the kept frames expire."""
    overlay.delete()


# --- which table the stream shows -------------------------------------------------------------------------------

def in_progress(game: Game | None) -> bool:
    """Opened and touched by the judge, no result yet."""
    return game is not None and game.state == GameState.DRAFT and not game.winner and game.version > 1


def current_table(tournament_id: int, number: int) -> Table | None:
    """Table ``number`` of the game being played: the newest published round where it is in progress, else the
    newest published round that has it (the next line-up, or the game just ended)."""
    tables = list(Table.objects.filter(round__stage__tournament_id=tournament_id, number=number,
                                       round__state=RoundState.PUBLISHED)
                  .select_related("round__stage", "game")
                  .order_by("-round__stage__order", "-round__number")[:LOOK_BACK_ROUNDS])
    for table in tables:
        if in_progress(getattr(table, "game", None)):
            return table
    return tables[0] if tables else None


def table_numbers(tournament_id: int) -> list[int]:
    """The table numbers of the newest published round (what the organizer gives links for)."""
    latest = (Round.objects.filter(stage__tournament_id=tournament_id, state=RoundState.PUBLISHED)
              .order_by("-stage__order", "-number").first())
    if latest is None:
        return []
    return list(latest.tables.order_by("number").values_list("number", flat=True))


# --- the frame ---------------------------------------------------------------------------------------------------

def speaker_mark(game: Game) -> tuple[int, int] | None:
    """(seat, length of the game log when marked) of the speaker the judge marked during this day, or None (a mark of
    an earlier day is forgotten)."""
    try:
        value = cache.get(SPEAKER.format(game=game.pk))
    except Exception:  # the cache (Redis) is down: the judge's screen and the frame go on without the speaker
        log.exception("reading the speaker of game %s failed", game.pk)
        return None
    if not value:
        return None
    seat, phase, logged = (int(part) for part in str(value).split(":"))
    return (seat, logged) if phase == game.phase else None


def speaker(game: Game) -> int | None:
    """Who speaks now: the seat marked, unless it left the table after the mark (a player voted out or killed
    before the mark is giving their last word)."""
    mark = speaker_mark(game)
    if mark is None:
        return None
    seat, logged = mark
    left_since = any(e.get("seat") == seat and e["kind"] in DEPARTURES for e in list(game.log)[logged:])
    return None if left_since else seat


def set_speaker(game: Game, seat: int) -> int | None:
    """The judge marks who speaks now (the same seat again: nobody); returns who speaks. Not part of the protocol:
    no version, no history; by day only, while the protocol is being recorded."""
    if game.state != GameState.DRAFT:
        raise StreamError(_("The protocol is no longer being recorded."))
    if not game.seats.filter(seat__number=seat).exists():
        raise StreamError(_("There is no seat %(n)s at this table.") % {"n": seat})
    if game.phase % 2 == 0:
        raise StreamError(_("Players speak by day: switch the day/night first."))
    key = SPEAKER.format(game=game.pk)
    now = None if speaker(game) == seat else seat
    try:
        if now is None:
            cache.delete(key)
        else:
            cache.set(key, f"{now}:{game.phase}:{len(game.log)}", SPEAKER_SECONDS)
    except Exception:
        log.exception("marking the speaker of game %s failed", game.pk)
        raise StreamError(_("The stream cannot be reached now; the protocol is not affected.")) from None
    tournament_id, number = game.table.round.stage.tournament_id, game.table.number
    from ..tasks import publish_tables

    queue_frames(publish_tables, tournament_id, [number])
    return now


def display_name(player: Any) -> str:
    return player.nickname or " ".join(part for part in (player.surname, player.first_name) if part)


def build_frame(table: Table | None, overlay: StreamOverlay) -> dict[str, Any] | None:
    """What the stream shows of ``table`` (None: no published round has that table)."""
    if table is None:
        return None
    game: Game | None = getattr(table, "game", None)
    rows = list(Seat.objects.filter(table=table).select_related("participant__player", "result")
                .order_by("number"))
    phase = game.phase if game is not None else 1
    ended = bool(game and game.winner)
    events: list[dict[str, Any]] = list(game.log) if game is not None else []
    roles = {row.number: getattr(getattr(row, "result", None), "role", "") for row in rows}
    sides = {row.number: getattr(getattr(row, "result", None), "side", "") for row in rows}  # chosen, if any
    talking = speaker(game) if game is not None and not ended and phase % 2 == 1 else None
    seats = []
    for row in rows:
        result = getattr(row, "result", None)
        out = result.left if result is not None else ""
        seat: dict[str, Any] = {
            "n": row.number, "name": display_name(row.participant.player),
            "out": out, "when": result.left_number if result is not None and out else None,
            "fouls": result.fouls if result is not None else 0,
        }
        role = seat["role"] = roles.get(row.number, "")
        seat["side"] = sides[row.number] or (str(ROLE_SIDE.get(Role(role), Side.RED)) if role else "")
        seats.append(seat)
    day = [e for e in events if e.get("phase") == phase and e["kind"] in ("nominated", "votes")] \
        if phase % 2 == 1 else []
    shown = [dict(e) for e in events]
    for event in shown:
        if event["kind"] in ("don_check", "sheriff_check"):  # the same answer as the judge's log says
            seat_number = event.get("seat", 0)
            event["found"] = check_found(event["kind"], roles.get(seat_number, ""), sides.get(seat_number, ""))
    frame: dict[str, Any] = {
        "format": FORMAT, "tournament": table.round.stage.tournament_id, "table": table.number,
        "round": table.round.number, "stage": table.round.stage.name,
        "stage_kind": table.round.stage.kind, "phase": phase,
        "started": game is not None and game.version > 1, "winner": game.winner if game is not None else "",
        "ended": ended, "speaking": talking, "seats": seats,
        "nominated": [e["seat"] for e in day if e["kind"] == "nominated" and "seat" in e],
        "votes": [{"seat": e["seat"], "count": e.get("count")} for e in day if e["kind"] == "votes" and "seat" in e],
        "events": shown, "roles": True,
    }
    shown_to_stream = frame if overlay.show_roles else roles_hidden(frame)  # one definition of what roles hide
    return {**shown_to_stream, "events": shown_to_stream["events"][-EVENTS_SHOWN:]}


# --- keeping frames for the delay, and sending them ----------------------------------------------------------

Kept = list[tuple[float, dict[str, Any] | None]]


def kept(tournament_id: int, number: int) -> Kept:
    """The frames kept for table ``number``, oldest first."""
    return sorted(cache.get(FRAMES.format(tournament=tournament_id, number=number)) or [], key=lambda pair: pair[0])


def record(tournament_id: int, number: int, frame: dict[str, Any] | None, delay: int, at: float) -> bool:
    """Keeps ``frame`` with its moment; frames older than the delay needs (at least ``KEEP_AT_LEAST`` seconds) are
    dropped, except the newest of them: it is what the stream shows now. Returns False when the frame is the same as
    the newest one kept. Frames are kept in the order of their moments, whatever order two processes wrote them in."""
    frames = kept(tournament_id, number)
    if frames and frames[-1][1] == frame:
        return False
    frames = sorted([*frames, (at, frame)], key=lambda pair: pair[0])
    cutoff = at - max(delay, KEEP_AT_LEAST) - 5
    older = [i for i, (when, _frame) in enumerate(frames) if when <= cutoff]
    if older:
        frames = frames[older[-1]:]
    cache.set(FRAMES.format(tournament=tournament_id, number=number), frames, MAX_DELAY_SECONDS + 3600)
    return True


def frame_as_of(overlay: StreamOverlay, number: int,
                now: float | None = None) -> tuple[bool, dict[str, Any] | None, float | None]:
    """What the stream shows of table ``number`` now: the last frame at least ``delay_seconds`` old. Returns
    (known, frame, its moment): not known while no frame is that old yet (the page keeps what it has)."""
    now = time.time() if now is None else now
    frames = kept(overlay.tournament_id, number)
    if not frames:  # nothing kept (a cache emptied, no change since it was): the table as it is now starts the record
        frame = build_frame(current_table(overlay.tournament_id, number), overlay)
        record(overlay.tournament_id, number, frame, overlay.delay_seconds, now)
        frames = [(now, frame)]
    shown = [(when, frame) for when, frame in frames if when <= now - overlay.delay_seconds]
    return (True, shown[-1][1], shown[-1][0]) if shown else (False, None, None)


def without_roles(frame: dict[str, Any] | None) -> dict[str, Any] | None:
    """``frame`` with the roles hidden (``roles_hidden``); None stays None."""
    return None if frame is None else roles_hidden(frame)


def roles_hidden(frame: dict[str, Any]) -> dict[str, Any]:
    """No role or side on a seat, no check or heal (and so no check's answer). What ``build_frame`` gives while the
    roles are off, and what the frames kept or held back become when they are turned off."""
    if not frame.get("roles"):
        return frame
    return {**frame, "roles": False,
            "seats": [{k: v for k, v in seat.items() if k not in ("role", "side")} for seat in frame["seats"]],
            "events": [e for e in frame["events"] if e["kind"] not in CHECKS]}


def hide_roles_now(tournament_id: int) -> None:
    """The roles turned off take effect at once, delay or not: the kept frames lose them, and every socket drops
    them from the frames it holds back."""
    layer = channel_layer()
    numbers = table_numbers(tournament_id)
    for number in numbers:
        key = FRAMES.format(tournament=tournament_id, number=number)
        frames = kept(tournament_id, number)
        if frames:
            cache.set(key, [(when, without_roles(frame)) for when, frame in frames], MAX_DELAY_SECONDS + 3600)
    if layer is not None and numbers:
        send_all(layer, [(group_name(tournament_id, n), {"type": "stream.hide_roles"}) for n in numbers])


SEND_SECONDS = 2  # a Redis that does not answer costs the judge's tap at most this


class TaskLoop(threading.local):
    """The event loop a worker's thread keeps for its sends (``kept_loop``), so the channel layer keeps one Redis
    connection a thread instead of opening one a send."""

    kept: asyncio.AbstractEventLoop | None = None
    active: asyncio.AbstractEventLoop | None = None


task_loop = TaskLoop()


@contextlib.contextmanager
def kept_loop() -> Iterator[None]:
    """The sends made inside run on this thread's kept event loop (a worker's task; ``games.tasks``)."""
    if task_loop.kept is None or task_loop.kept.is_closed():
        task_loop.kept = asyncio.new_event_loop()
    task_loop.active = task_loop.kept
    try:
        yield
    finally:
        task_loop.active = None


def send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Sends every message in one trip to an event loop, giving up after ``SEND_SECONDS``: the worker thread's kept
    loop (``kept_loop``), or a new one (``async_to_sync``) elsewhere."""
    async def send() -> None:
        for group, message in messages:
            await layer.group_send(group, message)

    async def bounded() -> None:
        await asyncio.wait_for(send(), timeout=SEND_SECONDS)

    if task_loop.active is not None:
        task_loop.active.run_until_complete(bounded())
    else:
        async_to_sync(bounded)()


def group_name(tournament_id: int, number: int) -> str:
    return f"stream.{tournament_id}.{number}"


def channel_layer() -> Any:
    if not getattr(settings, "CHANNEL_LAYERS", None):
        return None
    from channels.layers import get_channel_layer

    return get_channel_layer()


def live_mode() -> str:
    """How the overlay page follows changes: ``socket`` through the channel layer, or ``poll``."""
    return "socket" if channel_layer() is not None else "poll"


def ticket(overlay: StreamOverlay, number: int) -> str:
    return signing.dumps({"t": overlay.tournament_id, "n": number, "d": overlay.delay_seconds, "at": time.time()},
                         salt="stream-overlay")


def read_ticket(value: str) -> tuple[int, int, float, int] | None:
    """(tournament id, table number, seconds left, the delay when issued) of a ticket in force, or None."""
    try:
        data = signing.loads(value, salt="stream-overlay", max_age=TICKET_SECONDS)
        return (int(data["t"]), int(data["n"]), TICKET_SECONDS - (time.time() - float(data["at"])),
                int(data.get("d", 0)))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def watch(overlay: StreamOverlay, number: int) -> None:
    """An overlay page shows table ``number``: its frames are built and kept from now on (``publish``)."""
    cache.set_many({WATCHED.format(tournament=overlay.tournament_id, number=number): 1, ANY_WATCHED: 1},
                   WATCH_SECONDS)


def watched(tournament_id: int, numbers: list[int]) -> list[int]:
    """Those of ``numbers`` an overlay page has shown lately: on a day of a hundred tables with one streamed, the
    other judges' taps build nothing."""
    keys = {WATCHED.format(tournament=tournament_id, number=n): n for n in numbers}
    found = cache.get_many(list(keys))
    return [keys[key] for key in keys if key in found]


def publish(tournament_id: int, numbers: list[int] | None = None) -> None:
    """Builds the frames of these table numbers (every number of the newest round when None) that an overlay shows,
    keeps them and sends the changed ones to the channel layer. Never fails the change that caused it."""
    try:
        numbers = watched(tournament_id, numbers if numbers is not None else table_numbers(tournament_id))
        if not numbers:
            return
        overlay = StreamOverlay.objects.filter(tournament_id=tournament_id).first()
        if overlay is None:
            return
        at = time.time()
        changed = []
        for number in numbers:
            frame = build_frame(current_table(tournament_id, number), overlay)
            if record(tournament_id, number, frame, overlay.delay_seconds, at):
                changed.append((group_name(tournament_id, number), {
                    "type": "stream.frame", "frame": frame, "at": at, "delay": overlay.delay_seconds}))
        layer = channel_layer()
        if layer is not None and changed:
            send_all(layer, changed)
    except Exception:  # the stream is a view of the protocol: a cache or Redis failure must not fail the judge
        log.exception("publishing the stream frame of tournament %s failed", tournament_id)


# --- after a commit ---------------------------------------------------------------------------------------------

class Pending(threading.local):
    def __init__(self) -> None:
        self.games: set[int] = set()
        self.rounds: set[int] = set()


pending = Pending()


def run() -> None:
    """Hands the tables changed by the transaction just committed to the stream queue's worker, when some overlay
    page is watching (one cache read; otherwise nothing: a day of a hundred tables with no stream queues nothing).
    A transaction rolled back leaves its marks for the next commit: a frame built again is harmless."""
    games, rounds = pending.games, pending.rounds
    pending.games, pending.rounds = set(), set()
    if not (games or rounds):
        return
    try:
        watched = cache.get(ANY_WATCHED) is not None
    except Exception:  # after the commit: the change is saved, and the hooks after this one must still run
        log.exception("reading whether an overlay watches failed")
        return
    if watched:
        from ..tasks import publish_changes

        queue_frames(publish_changes, sorted(games), sorted(rounds))


def safely_publish_changed(games: set[int], rounds: set[int]) -> None:
    try:
        publish_changed(games, rounds)
    except Exception:  # after the commit: the change is saved, and the hooks after this one must still run
        log.exception("finding the streamed tables of games %s and rounds %s failed", games, rounds)


def publish_changed(games: set[int], rounds: set[int]) -> None:
    if games:
        found = (Table.objects.filter(game__in=games, round__stage__tournament__stream_overlay__isnull=False)
                 .order_by().values_list("round__stage__tournament_id", "number"))
        by_tournament: dict[int, set[int]] = {}
        for tid, number in found:
            by_tournament.setdefault(tid, set()).add(number)
        for tid, numbers in by_tournament.items():
            publish(tid, sorted(numbers))
    if rounds:
        for tid in set(Round.objects.filter(pk__in=rounds, stage__tournament__stream_overlay__isnull=False)
                       .order_by().values_list("stage__tournament_id", flat=True)):
            publish(tid)


def game_saved(sender: Any, instance: Game, raw: bool = False, **kwargs: Any) -> None:
    if not raw:
        pending.games.add(instance.pk)
        transaction.on_commit(run)


def round_saved(sender: Any, instance: Round, raw: bool = False, update_fields: Any = None, **kwargs: Any) -> None:
    """A round published or withdrawn (a published round saved whole, or its state saved): the line-ups change."""
    state_saved = update_fields is not None and "state" in update_fields
    if not raw and (state_saved or (update_fields is None and instance.state == RoundState.PUBLISHED)):
        pending.rounds.add(instance.pk)
        transaction.on_commit(run)


def connect() -> None:
    post_save.connect(game_saved, sender=Game, dispatch_uid="stream-game-saved")
    post_save.connect(round_saved, sender=Round, dispatch_uid="stream-round-saved")
