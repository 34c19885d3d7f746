"""The frames kept for the stream's delay (docs/stream-overlay.md): each table number's frames with their moments in
the cache, what the stream shows now (the last frame at least the delay old), and which tables an overlay page
watches (only their frames are built)."""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache

from ..models import MAX_DELAY_SECONDS, StreamOverlay
from .frames import build_frame, current_table, table_numbers

KEEP_AT_LEAST = 120  # seconds of frames kept whatever the delay: raising the delay up to this shows no gap
FRAMES = "stream:frames:{tournament}:{number}"
WATCHED = "stream:watched:{tournament}:{number}"
ANY_WATCHED = "stream:watched-any"  # some overlay page, of any tournament, shows some table: changes are queued
WATCH_SECONDS = 20 * 60  # an overlay page asks the state at least every ticket (15 minutes)
KEPT_SECONDS = MAX_DELAY_SECONDS + 3600

Kept = list[tuple[float, dict[str, Any] | None]]


def kept(tournament_id: int, number: int) -> Kept:
    """The frames kept for table ``number``, oldest first."""
    return sorted(cache.get(FRAMES.format(tournament=tournament_id, number=number)) or [], key=lambda pair: pair[0])


def keep(tournament_id: int, number: int, frames: Kept) -> None:
    cache.set(FRAMES.format(tournament=tournament_id, number=number), frames, KEPT_SECONDS)


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
    keep(tournament_id, number, frames)
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
        keep(tournament_id, number, [(at - new, shown[-1][1]), *later])


def watch(overlay: StreamOverlay, number: int) -> None:
    """An overlay page shows table ``number``: its frames are built and kept from now on (``live.publish``)."""
    cache.set_many({WATCHED.format(tournament=overlay.tournament_id, number=number): 1, ANY_WATCHED: 1},
                   WATCH_SECONDS)


def watched(tournament_id: int, numbers: list[int]) -> list[int]:
    """Those of ``numbers`` an overlay page has shown lately: on a day of a hundred tables with one streamed, the
    other judges' taps build nothing."""
    keys = {WATCHED.format(tournament=tournament_id, number=n): n for n in numbers}
    found = cache.get_many(list(keys))
    return [keys[key] for key in keys if key in found]


def any_watched() -> bool:
    return cache.get(ANY_WATCHED) is not None
