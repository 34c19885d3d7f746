"""The stream overlay's websocket (``/ws/stream/<ticket>/``, served by the ASGI server: docs/stream-overlay.md).

The consumer reads no database: the overlay page got a signed ticket for its tournament and table number from the
site (which checked the overlay's secret link), and the socket joins that table number's group of the channel
layer. Each frame published there (``games.services.stream.publish``) is sent on when its moment plus the stream's
delay has come, in the order published. The socket closes when its ticket runs out; the page then asks the site
again (a revoked link gets no new ticket).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from .services.stream import group_name, read_ticket

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
        tournament, number, seconds_left = found
        self.group = group_name(tournament, number)
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        self.sender = asyncio.ensure_future(self.send_in_order())
        self.expiry = asyncio.get_running_loop().call_later(
            max(seconds_left, 1), lambda: asyncio.ensure_future(self.close(code=EXPIRED)))

    async def disconnect(self, code: int) -> None:
        if self.group and self.channel_layer is not None:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        if self.expiry is not None:
            self.expiry.cancel()
        if self.sender is not None:
            self.sender.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.sender

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        """The page sends nothing that matters (a keep-alive at most)."""

    async def stream_frame(self, event: dict[str, Any]) -> None:
        await self.queue.put(event)

    async def send_in_order(self) -> None:
        """Each frame when its moment plus the delay has come; the queue keeps the order of publication."""
        while True:
            event = await self.queue.get()
            wait = float(event["at"]) + float(event["delay"]) - time.time()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.send_json({"frame": event["frame"]})
