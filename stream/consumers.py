"""The stream overlay's websocket (``/ws/stream/<ticket>/``, served by the ASGI server: docs/stream-overlay.md).

The consumer reads no database: the overlay page got a signed ticket for its tournament and table number (and the
delay then in force) from the site, which checked the overlay's secret link, and the socket joins that table
number's group of the channel layer. Each frame published there (``stream.services.live.publish``) is sent on when
its moment plus the stream's delay has come, in the order of the moments. Frames published before the socket
joined but not yet due are taken from the cache, where every frame is kept for the delay, so a page connecting (or
reconnecting when its ticket runs out) misses nothing. The socket closes when its ticket runs out; the page then
asks the site again (a revoked link gets no new ticket).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .services.delay import kept
from .services.frames import without_roles
from .services.live import group_name, read_ticket

EXPIRED = 4001  # the page asks the site for a new ticket
REFUSED = 4003  # a forged or outdated ticket


class StreamConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    group = ""
    sender: asyncio.Task[None] | None = None
    expiry: asyncio.TimerHandle | None = None

    async def connect(self) -> None:
        found = read_ticket(self.scope["url_route"]["kwargs"]["ticket"])
        if found is None or self.channel_layer is None:
            await self.close(code=REFUSED)
            return
        tournament, number, seconds_left, delay = found
        self.group = group_name(tournament, number)
        self.waiting: list[dict[str, Any]] = []  # held back for the delay, in the order of their moments
        self.wake = asyncio.Event()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        now = time.time()
        for at, frame in await asyncio.to_thread(kept, tournament, number):  # the cache's client is synchronous
            if at + delay > now:
                self.hold({"frame": frame, "at": at, "delay": delay})
        self.sender = asyncio.ensure_future(self.send_in_order())
        self.expiry = asyncio.get_running_loop().call_later(
            max(seconds_left, 1), lambda: asyncio.ensure_future(self.expire()))

    async def expire(self) -> None:
        await self.stop_sending()
        await self.close(code=EXPIRED)

    async def stop_sending(self) -> None:
        if self.sender is not None:
            self.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sender
            self.sender = None

    async def disconnect(self, code: int) -> None:
        if self.group and self.channel_layer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.expiry is not None:
            self.expiry.cancel()
        await self.stop_sending()

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page sends nothing that matters (a keep-alive at most)."""

    def hold(self, event: dict[str, Any]) -> None:
        if any(e["at"] == event["at"] and e["frame"] == event["frame"] for e in self.waiting):
            return  # the same frame from the cache and from the group
        self.waiting.append(event)
        self.waiting.sort(key=lambda e: float(e["at"]))
        self.wake.set()

    async def stream_frame(self, event: dict[str, Any]) -> None:
        self.hold(event)

    async def stream_hide_roles(self, event: dict[str, Any]) -> None:
        """The organizer turned the roles off: the frames held back lose them too."""
        for held in self.waiting:
            held["frame"] = without_roles(held["frame"])

    async def send_in_order(self) -> None:
        """Each frame when its moment plus the delay has come."""
        while True:
            if not self.waiting:
                self.wake.clear()
                await self.wake.wait()
                continue
            event = self.waiting[0]
            wait = float(event["at"]) + float(event["delay"]) - time.time()
            if wait > 0:
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.wake.wait(), timeout=wait)  # an earlier frame may come meanwhile
                continue
            self.waiting.pop(0)
            await self.send_json({"frame": event["frame"], "at": event["at"]})
