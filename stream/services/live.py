"""Sending the frames live (docs/stream-overlay.md): the stream queue's worker builds the frames of the watched tables
once, keeps them for the delay (``delay``) and sends them to the channel layer's group of each table number, whose
websocket consumers (``stream.consumers``) send them on ``delay_seconds`` after their moment. Without a channel layer
(no Redis) the overlay polls ``delay.frame_as_of`` instead; the websocket's ticket is signed here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Iterator
from typing import Any

from asgiref.sync import async_to_sync
from django.conf import settings
from django.core import signing

from ..models import StreamOverlay
from . import delay
from .frames import build_frame, current_table, table_numbers, without_roles

log = logging.getLogger(__name__)

TICKET_SECONDS = 15 * 60  # a websocket's ticket: the socket closes then and the page asks for a new one
SEND_SECONDS = 2  # a Redis that does not answer costs the judge's tap at most this


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


class TaskLoop(threading.local):
    """The event loop a worker's thread keeps for its sends (``kept_loop``), so the channel layer keeps one Redis
    connection a thread instead of opening one a send."""

    kept: asyncio.AbstractEventLoop | None = None
    active: asyncio.AbstractEventLoop | None = None


task_loop = TaskLoop()


@contextlib.contextmanager
def kept_loop() -> Iterator[None]:
    """The sends made inside run on this thread's kept event loop (a worker's task; ``stream.tasks``)."""
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


def publish(tournament_id: int, numbers: list[int] | None = None) -> None:
    """Builds the frames of these table numbers (every number of the newest round when None) that an overlay shows,
    keeps them and sends the changed ones to the channel layer. Never fails the change that caused it."""
    try:
        numbers = delay.watched(tournament_id, numbers if numbers is not None else table_numbers(tournament_id))
        if not numbers:
            return
        overlay = StreamOverlay.objects.filter(tournament_id=tournament_id).first()
        if overlay is None:
            return
        at = time.time()
        changed = []
        for number in numbers:
            frame = build_frame(current_table(tournament_id, number), overlay)
            if delay.record(tournament_id, number, frame, overlay.delay_seconds, at):
                changed.append((group_name(tournament_id, number), {
                    "type": "stream.frame", "frame": frame, "at": at, "delay": overlay.delay_seconds}))
        layer = channel_layer()
        if layer is not None and changed:
            send_all(layer, changed)
    except Exception:  # the stream is a view of the protocol: a cache or Redis failure must not fail the judge
        log.exception("publishing the stream frame of tournament %s failed", tournament_id)


def hide_roles_now(tournament_id: int) -> None:
    """The roles turned off take effect at once, delay or not: the kept frames lose them, and every socket drops
    them from the frames it holds back."""
    layer = channel_layer()
    numbers = table_numbers(tournament_id)
    for number in numbers:
        frames = delay.kept(tournament_id, number)
        if frames:
            delay.keep(tournament_id, number, [(when, without_roles(frame)) for when, frame in frames])
    if layer is not None and numbers:
        send_all(layer, [(group_name(tournament_id, n), {"type": "stream.hide_roles"}) for n in numbers])


def settings_changed(tournament_id: int, hiding: bool) -> None:
    """After the overlay's settings changed (the stream queue's worker): the roles hidden everywhere at once when
    they were turned off, and every watched table's frame built again."""
    try:
        if hiding:
            hide_roles_now(tournament_id)
    except Exception:
        log.exception("hiding the roles of tournament %s failed", tournament_id)
    publish(tournament_id)
