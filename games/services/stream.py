"""The stream overlay: what one table looks like to the stream, as "frames" (docs/stream-overlay.md).

A frame is a small JSON-able dict built from the table's protocol and the judge's game log: the players with their
numbers, who is out and how, fouls, who is speaking, the day's nominations and votes, the last events and the
result. The roles (and the night's checks and heals, which would give them away) are in it only when the organizer
shows them to the stream. Frames carry codes and numbers, never words: the overlay page says them in its own
language.

After every committed change of a protocol of a tournament with an overlay (and when the judge marks the speaker,
or a round is published) the frame of that table number is built once, kept in the cache with its moment
(``FRAMES``, for the delay), and sent to the channel layer's group of that table number, whose websocket
consumers (``games.consumers``) send it on ``delay_seconds`` after the moment. Without a channel layer (no Redis)
the overlay polls ``frame_as_of`` instead. A frame is for a table *number*: the overlay follows that number from
round to round (``current_table``).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_save
from django.utils.translation import gettext as _

from tournaments.models import Round, Seat, Table, Tournament
from tournaments.models.rounds import RoundState

from ..models import Game, GameState, StreamOverlay
from ..models.stream import MAX_DELAY_SECONDS

log = logging.getLogger(__name__)

FORMAT = 1  # the frame's layout; the page ignores a frame of another
TICKET_SECONDS = 15 * 60  # a websocket's ticket: the socket closes then and the page asks for a new one
SPEAKER_SECONDS = 3 * 3600
LOOK_BACK_ROUNDS = 4  # the rounds searched for the table being played
CHECKS = ("don_check", "sheriff_check", "heal")  # night events that give roles away
EVENTS_SHOWN = 6
FRAMES = "stream:frames:{tournament}:{number}"
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
    overlay.show_roles, overlay.delay_seconds = show_roles, seconds
    overlay.save(update_fields=["show_roles", "delay_seconds", "updated"])
    transaction.on_commit(lambda: publish(overlay.tournament_id))
    return overlay


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

def speaker(game: Game) -> int | None:
    """Who speaks now: the seat the judge marked during this day (a mark of an earlier day is forgotten)."""
    try:
        value = cache.get(SPEAKER.format(game=game.pk))
    except Exception:  # the cache (Redis) is down: the judge's screen and the frame go on without the speaker
        log.exception("reading the speaker of game %s failed", game.pk)
        return None
    if not value:
        return None
    seat, phase = (int(part) for part in str(value).split(":"))
    return seat if phase == game.phase else None


def set_speaker(game: Game, seat: int) -> int | None:
    """The judge marks who speaks now (the same seat again: nobody); returns who speaks. Not part of the protocol:
    no version, no history; by day only."""
    if game.phase % 2 == 0:
        raise StreamError(_("Players speak by day: switch the day/night first."))
    key = SPEAKER.format(game=game.pk)
    now = None if speaker(game) == seat else seat
    try:
        if now is None:
            cache.delete(key)
        else:
            cache.set(key, f"{now}:{game.phase}", SPEAKER_SECONDS)
    except Exception:
        log.exception("marking the speaker of game %s failed", game.pk)
        raise StreamError(_("The stream cannot be reached now; the protocol is not affected.")) from None
    publish(game.table.round.stage.tournament_id, [game.table.number])
    return now


def display_name(player: Any) -> str:
    return player.nickname or " ".join(part for part in (player.surname, player.first_name) if part)


def side_of(role: str) -> str:
    return "black" if role in ("don", "mafia") else "maniac" if role == "maniac" else "red" if role else ""


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
        if overlay.show_roles:
            seat["role"] = roles.get(row.number, "")
            seat["side"] = (result.side if result is not None else "") or side_of(seat["role"])
        seats.append(seat)
    if talking is not None and any(s["n"] == talking and s["out"] for s in seats):
        talking = None  # who has left the table speaks no more
    day = [e for e in events if e.get("phase") == phase and e["kind"] in ("nominated", "votes")] \
        if phase % 2 == 1 else []
    shown = [dict(e) for e in events if overlay.show_roles or e["kind"] not in CHECKS]
    for event in shown:
        if event["kind"] == "don_check":
            event["found"] = "sheriff" if roles.get(event.get("seat", 0)) == "sheriff" else "not_sheriff"
        elif event["kind"] == "sheriff_check":
            event["found"] = "black" if roles.get(event.get("seat", 0)) in ("don", "mafia") else "red"
    return {
        "format": FORMAT, "tournament": table.round.stage.tournament_id, "table": table.number,
        "round": table.round.number, "stage": table.round.stage.name,
        "stage_kind": table.round.stage.kind, "phase": phase,
        "started": game is not None and game.version > 1, "winner": game.winner if game is not None else "",
        "ended": ended, "speaking": talking, "seats": seats,
        "nominated": [e["seat"] for e in day if e["kind"] == "nominated" and "seat" in e],
        "votes": [{"seat": e["seat"], "count": e.get("count")} for e in day if e["kind"] == "votes" and "seat" in e],
        "events": shown[-EVENTS_SHOWN:], "roles": overlay.show_roles,
    }


# --- keeping frames for the delay, and sending them ----------------------------------------------------------

def record(tournament_id: int, number: int, frame: dict[str, Any] | None, delay: int, at: float) -> bool:
    """Keeps ``frame`` with its moment; frames older than the delay needs are dropped (the newest of them stays: it
    is what the stream shows now). Returns False when the frame is the same as the last one kept."""
    key = FRAMES.format(tournament=tournament_id, number=number)
    frames: list[tuple[float, dict[str, Any] | None]] = cache.get(key) or []
    if frames and frames[-1][1] == frame:
        return False
    frames.append((at, frame))
    cutoff = at - delay - 5
    older = [i for i, (when, _frame) in enumerate(frames) if when <= cutoff]
    if older:
        frames = frames[older[-1]:]
    cache.set(key, frames, MAX_DELAY_SECONDS + 3600)
    return True


def frame_as_of(overlay: StreamOverlay, number: int, now: float | None = None) -> tuple[bool, dict[str, Any] | None]:
    """What the stream shows of table ``number`` now: the last frame at least ``delay_seconds`` old. Returns
    (known, frame): not known while no frame is that old yet (the page keeps what it has)."""
    now = time.time() if now is None else now
    key = FRAMES.format(tournament=overlay.tournament_id, number=number)
    frames: list[tuple[float, dict[str, Any] | None]] = cache.get(key) or []
    if not frames:  # nothing kept (a cache emptied, no change since it was): the table as it is now starts the record
        frame = build_frame(current_table(overlay.tournament_id, number), overlay)
        record(overlay.tournament_id, number, frame, overlay.delay_seconds, now)
        frames = [(now, frame)]
    shown = [frame for when, frame in frames if when <= now - overlay.delay_seconds]
    return (True, shown[-1]) if shown else (False, None)


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
    return signing.dumps({"t": overlay.tournament_id, "n": number, "at": time.time()}, salt="stream-overlay")


def read_ticket(value: str) -> tuple[int, int, float] | None:
    """(tournament id, table number, seconds left) of a ticket in force, or None."""
    try:
        data = signing.loads(value, salt="stream-overlay", max_age=TICKET_SECONDS)
        return int(data["t"]), int(data["n"]), TICKET_SECONDS - (time.time() - float(data["at"]))
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        return None


def publish(tournament_id: int, numbers: list[int] | None = None) -> None:
    """Builds the frames of these table numbers (every number of the newest round when None), keeps them and sends
    the changed ones to the channel layer. Never fails the change that caused it."""
    try:
        overlay = StreamOverlay.objects.filter(tournament_id=tournament_id).first()
        if overlay is None:
            return
        at = time.time()
        layer = channel_layer()
        for number in numbers if numbers is not None else table_numbers(tournament_id):
            frame = build_frame(current_table(tournament_id, number), overlay)
            if record(tournament_id, number, frame, overlay.delay_seconds, at) and layer is not None:
                async_to_sync(layer.group_send)(group_name(tournament_id, number), {
                    "type": "stream.frame", "frame": frame, "at": at, "delay": overlay.delay_seconds})
    except Exception:  # the stream is a view of the protocol: a cache or Redis failure must not fail the judge
        log.exception("publishing the stream frame of tournament %s failed", tournament_id)


# --- after a commit ---------------------------------------------------------------------------------------------

class Pending(threading.local):
    def __init__(self) -> None:
        self.games: set[int] = set()
        self.rounds: set[int] = set()


pending = Pending()


def run() -> None:
    """Publishes the tables changed by the transaction just committed: one query finds those of tournaments with an
    overlay. A transaction rolled back leaves its marks for the next commit: a frame built again is harmless."""
    games, rounds = pending.games, pending.rounds
    pending.games, pending.rounds = set(), set()
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


def round_saved(sender: Any, instance: Round, raw: bool = False, **kwargs: Any) -> None:
    if not raw and instance.state == RoundState.PUBLISHED:
        pending.rounds.add(instance.pk)
        transaction.on_commit(run)


def connect() -> None:
    post_save.connect(game_saved, sender=Game, dispatch_uid="stream-game-saved")
    post_save.connect(round_saved, sender=Round, dispatch_uid="stream-round-saved")
