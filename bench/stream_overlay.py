"""Benchmark: the stream overlay under the production profile (PostgreSQL, Redis, uvicorn; docs/stream-overlay.md).

A generated tournament (``kostroma``, 100 players: 10 tables a round) is imported with its last round published
and not played; the judge of table 1 opens the protocol and enters the roles through the protocol service, then:

1. **Overlay off**: ``--taps`` judge taps on table 1 (``games.services.table.apply_tap`` with a ``Tap``, as the
   table screen's view calls it: its own transaction, ``protocol.change``, commits and the on-commit hook runs),
   ``--spacing`` seconds apart.
2. **Overlay on** (``open_overlay``, delay 0 or ``--delay``, roles hidden): ``--viewers`` websocket clients (the
   ``websockets`` library, asyncio, in a child process: the overlay's browsers are elsewhere) connect to
   ``/ws/stream/<ticket>/`` on ``uvicorn mafia_tournament.asgi:application --ws websockets-sansio`` (a subprocess
   with the same environment), all to table 1, or spread over tables 1..``--tables``; then the same number of taps.
3. ``publish``'s parts alone (``current_table``, ``build_frame``, ``record``, the ``group_send``), with the viewers
   still connected.
4. The polling path: the state endpoint ``/t/SLUG/stream/<token>/1/state/`` in-process (Django's test client) and
   over HTTP through the same uvicorn.

It prints the tap's cost with the overlay off and on (median, p95, max over the taps: ``apply_tap`` including the
commit and the publishing after it), the latency from each tap's commit to each viewer receiving its frame
(p50/p95/p99/max over viewers × taps, every frame checked equal to the one published), how many frames each viewer
got, and the state endpoint's time. No timing is asserted. Run from the repository root with PostgreSQL and Redis
up: ``python bench/stream_overlay.py [--viewers 100] [--taps 50] [--tables 1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import http.client
import io
import json
import multiprocessing
import os
import pickle
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import (
    HEADERS,
    ROOT,
    delete_cache_keys,
    drop_database,
    load_average,
    manage,
    percentile,
    production_env,
    recreate_database,
    setup_django,
    start_workers,
)

SLUG = "bench-stream"
SEED = 29
ORIGIN = "https://127.0.0.1"  # the overlay page's origin: AllowedHostsOriginValidator checks it against ALLOWED_HOSTS
ROLES = {
    "fiim": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "kostroma": ["don", "mafia", "mafia", "sheriff", "doctor"] + ["civilian"] * 5,
    "zvezdy": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
}


# --- the viewers: a child process of websocket clients ----------------------------------------------------------

def digest(frame: Any) -> str:
    """The same for a frame as published (from the cache) and as a viewer received it (JSON)."""
    return hashlib.sha1(json.dumps(frame, sort_keys=True).encode()).hexdigest()


def watch(base: str, tickets: list[str], ready: Event, stop: Event, out: Connection) -> None:
    """The child process: one websocket a ticket; sends back, per viewer, (received at, frame's digest) of each
    frame, and the handshakes' times and failures."""
    out.send(asyncio.run(watching(base, tickets, ready, stop)))
    out.close()


async def watching(base: str, tickets: list[str], ready: Event, stop: Event) -> dict[str, Any]:
    from websockets.asyncio.client import ClientConnection, connect
    from websockets.exceptions import ConnectionClosed
    from websockets.typing import Origin

    received: list[list[tuple[float, str]]] = [[] for _ in tickets]
    handshakes: list[float] = []
    closed: list[str] = []

    async def one(ticket: str) -> ClientConnection:
        started = time.perf_counter()
        ws = await connect(f"{base}/ws/stream/{ticket}/", origin=Origin(ORIGIN), open_timeout=60,
                           ping_interval=None, max_queue=None)
        handshakes.append(time.perf_counter() - started)
        return ws

    async def listen(i: int, ws: ClientConnection) -> None:
        try:
            async for message in ws:
                received[i].append((time.time(), digest(json.loads(message)["frame"])))
        except ConnectionClosed as error:
            closed.append(f"viewer {i}: {error}")

    opened = await asyncio.gather(*(one(t) for t in tickets), return_exceptions=True)
    sockets = [s for s in opened if not isinstance(s, BaseException)]
    failures = [f"{type(s).__name__}: {s}" for s in opened if isinstance(s, BaseException)]
    tasks = [asyncio.ensure_future(listen(i, s)) for i, s in enumerate(opened) if not isinstance(s, BaseException)]
    ready.set()
    await asyncio.to_thread(stop.wait)
    for ws in sockets:
        await ws.close()
    await asyncio.gather(*tasks)
    return {"received": received, "handshakes": handshakes, "failures": failures, "closed": closed}


# --- the tournament and the judge --------------------------------------------------------------------------------

def load(ruleset: str, players: int, rounds: int) -> tuple[Any, Any, Any]:
    """The tournament imported from a generated file, its last round published and unplayed (no protocol), the
    judge of table 1 and that table's protocol opened with the roles entered (as the table screen does)."""
    from django.contrib.auth import get_user_model
    from tournament_day import with_last_round_unplayed

    from exchange.files import import_text
    from games.models import Game
    from games.services import protocol
    from games.services.lineup import save_lineup
    from judges.services.staff import add_judge, assign
    from scoring import fileio
    from scoring.generate import generate
    from tournaments.models import Round
    from tournaments.rules import ruleset_for

    truth = generate(ruleset, players=players, rounds=rounds, seed=SEED)
    data = fileio.dump(with_last_round_unplayed(truth))
    data["tournament"] = {"name": f"Stream overlay ({players} players)", "standings_hidden": False}
    tournament = import_text(json.dumps(data), slug=SLUG)
    last = Round.objects.filter(stage__tournament=tournament).order_by("-stage__order", "-number").first()
    assert last is not None and last.is_published
    Game.objects.filter(table__round=last).delete()  # the import confirmed them all: this round is still to play
    judge = get_user_model().objects.create_user("stream-judge")
    assign(add_judge(tournament, judge), last.stage, last, 1)
    game = protocol.open_protocol(last.tables.get(number=1), judge)
    roles = {f"s{n}_role": role for n, role in enumerate(ROLES[ruleset], start=1)}
    game = save_lineup(game, judge, game.version, roles, ruleset_for(tournament))
    return tournament, judge, game


def tap_cycle(i: int, size: int) -> tuple[str, int | None, str, str]:
    """The i-th tap: (action, seat, reason, value). Six taps a seat, each changing what the stream shows, the game
    staying in its first day: a foul, a nomination, the votes, both taken back from the game log, the foul taken
    back; then the next seat."""
    seat = (i // 6) % size + 1
    return [("foul", seat, "", ""), ("nominated", seat, "", ""), ("votes", seat, "", "3"),
            ("log_undo", None, "", ""), ("log_undo", None, "", ""), ("unfoul", seat, "", "")][i % 6]


class Judge:
    """Taps on table 1 through the protocol service; notes each tap's time, its commit's moment (when the
    on-commit hook starts) and the hook's time."""

    def __init__(self, game: Any, user: Any, ruleset: Any, size: int) -> None:
        from mafia_tournament import reactions

        self.game, self.user, self.ruleset, self.size = game, user, ruleset, size
        self.taps = 0
        self.committed = 0.0  # the last tap's commit (the moment the on-commit hook started)
        self.hook: list[float] = []  # the on-commit hook's time, a tap
        collector = next(r.collector for r in reactions.REACTIONS if r.name == "overlay frames")
        original = collector.handle

        def timed_handle(changes: list[Any]) -> None:  # the overlay's reaction, once a tap commits
            if not self.committed:
                self.committed = time.time()
            started = time.perf_counter()
            original(changes)
            self.hook[-1] += time.perf_counter() - started

        collector.handle = timed_handle
        self.restore: Callable[[], None] = lambda: setattr(collector, "handle", original)

    def tap(self) -> float:
        from games.services.table import Tap, apply_tap

        action, seat, reason, value = tap_cycle(self.taps, self.size)
        self.taps += 1
        self.committed = 0.0
        self.hook.append(0.0)
        started = time.perf_counter()
        self.game, _said = apply_tap(self.game, self.user, self.game.version, Tap(action, seat, reason, value),
                                     self.ruleset)
        return time.perf_counter() - started


def tapping(judge: Judge, count: int, spacing: float, after: Callable[[], None] = lambda: None) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        times.append(judge.tap())
        after()
        time.sleep(max(0.0, spacing - (time.perf_counter() - started)))
    return times


# --- uvicorn -----------------------------------------------------------------------------------------------------

def start_uvicorn(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    server = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "mafia_tournament.asgi:application", "--host", "127.0.0.1", "--port",
         str(port), "--ws", "websockets-sansio", "--lifespan", "off", "--log-level", "warning"],
        cwd=ROOT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit("uvicorn stopped before answering")
        try:  # any answer will do: the server is up (a page would need collectstatic's manifest)
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/ws-ready/", headers=HEADERS)
            conn.getresponse().read()
            return server
        except OSError:
            time.sleep(0.3)
    raise SystemExit("uvicorn did not answer in time")


def redis_connections() -> tuple[int, int]:
    """Redis's clients connected now, and the connections it has accepted since it started."""
    import redis
    from harness import REDIS_URL

    client = redis.Redis.from_url(REDIS_URL)
    return int(client.info("clients")["connected_clients"]), int(client.info("stats")["total_connections_received"])


# --- figures -----------------------------------------------------------------------------------------------------

def ms(values: list[float]) -> str:
    ordered = sorted(values)
    return (f"median {statistics.median(ordered) * 1000:7.2f} ms  p95 {percentile(ordered, 0.95) * 1000:7.2f} ms  "
            f"max {ordered[-1] * 1000:7.2f} ms")


def timed(work: Callable[[], Any], runs: int, before: Callable[[], Any] = lambda: None) -> list[float]:
    times = []
    for _ in range(runs):
        before()
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return times


def publish_parts(overlay: Any, runs: int) -> dict[str, list[float]]:
    """``publish`` and its parts alone, for table 1."""
    from asgiref.sync import async_to_sync
    from django.core.cache import cache

    from stream.services import delay, frames, live

    tid = overlay.tournament_id
    for number in frames.table_numbers(tid):
        delay.watch(overlay, number)
    key = delay.FRAMES.format(tournament=tid, number=1)
    table = frames.current_table(tid, 1)
    frame = frames.build_frame(table, overlay)
    layer = live.channel_layer()
    message = {"type": "stream.frame", "frame": frame, "at": 0.0, "delay": 0}  # at 0: sent on at once
    parts = {
        "current_table (1 query)": timed(lambda: frames.current_table(tid, 1), runs),
        "build_frame (1 query, the speaker from the cache)": timed(lambda: frames.build_frame(table, overlay), runs),
        "record (cache get + set)": timed(lambda: delay.record(tid, 1, frame, 0, time.time()), runs,
                                          lambda: cache.delete(key)),
        "group_send through async_to_sync": timed(lambda: async_to_sync(layer.group_send)(
            live.group_name(tid, 1), message), runs),
        "publish, the frame changed (sent)": timed(lambda: live.publish(tid, [1]), runs,
                                                   lambda: cache.delete(key)),
        "publish, the same frame (not sent)": timed(lambda: live.publish(tid, [1]), runs),
        "publish of every table (a round published, every table watched), all sent": timed(
            lambda: live.publish(tid), max(1, runs // 5),
            lambda: cache.delete_many([delay.FRAMES.format(tournament=tid, number=n)
                                       for n in frames.table_numbers(tid)])),
    }

    async def in_one_loop() -> list[float]:
        return [await timed_async(lambda: layer.group_send(live.group_name(tid, 1), message)) for _ in range(runs)]

    async def nothing() -> None:
        return None

    parts["async_to_sync of an empty coroutine (for comparison)"] = timed(lambda: async_to_sync(nothing)(), runs)
    parts["group_send in one running loop (for comparison)"] = asyncio.run(in_one_loop())
    return parts


async def timed_async(work: Callable[[], Any]) -> float:
    started = time.perf_counter()
    await work()
    return time.perf_counter() - started


def state_endpoint(overlay: Any, port: int, runs: int) -> None:
    from django.core.cache import cache
    from django.test import Client
    from django.urls import reverse

    from stream.services import delay

    url = reverse("games:overlay_state", args=[overlay.tournament.slug, overlay.token, 1])
    client = Client(HTTP_HOST="127.0.0.1", HTTP_X_FORWARDED_PROTO="https")
    cache.delete(delay.FRAMES.format(tournament=overlay.tournament_id, number=1))
    cold = timed(lambda: client.get(url), 1)[0]

    known = []

    def get() -> None:
        response = client.get(url)
        assert response.status_code == 200, response.content[:200]
        known.append(bool(response.json()["known"]))

    warm = timed(get, runs)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def over_http() -> None:
        conn.request("GET", url, headers=HEADERS)
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200, body[:200]

    over_http()
    through = timed(over_http, runs)
    conn.close()
    print(f"state endpoint ({url.replace(overlay.token, '<token>')}, the polling path):")
    print(f"  in-process (Django's test client), the first with no frame kept: {cold * 1000:.2f} ms")
    print(f"  in-process, {runs} GETs:                  {ms(warm)}"
          + ("" if all(known) else f"  ({known.count(False)} not known yet: no frame kept is as old as the delay)"))
    print(f"  HTTP through uvicorn (ASGI), {runs} GETs: {ms(through)}  (one keep-alive connection)")


def latencies(frames: list[tuple[float, str]], seen: list[list[tuple[float, str]]], watching_one: list[bool],
              ) -> tuple[list[float], list[int], int, list[int], list[tuple[float, float]]]:
    """Matches each viewer's frames, in order, to those published (a lost frame is skipped over). Returns the
    latencies from commit to receipt, each table-1 viewer's count of frames, the frames out of place, the other
    tables' viewers' counts (which should be 0), and each frame's (first, last) viewer's latency."""
    by_frame: list[list[float]] = [[] for _ in frames]
    waits: list[float] = []
    counts: list[int] = []
    others: list[int] = []
    stray = 0
    for got, table_one in zip(seen, watching_one, strict=True):
        if not table_one:
            others.append(len(got))
            continue
        at, count = 0, 0
        for when, key in got:
            while at < len(frames) and frames[at][1] != key:
                at += 1
            if at == len(frames):
                stray += 1
                continue
            waits.append(when - frames[at][0])
            by_frame[at].append(when - frames[at][0])
            count += 1
            at += 1
        counts.append(count)
    return waits, counts, stray, others, [(min(w), max(w)) for w in by_frame if w]


# --- the run -----------------------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=100, help="websocket clients")
    parser.add_argument("--tables", type=int, default=1,
                        help="spread the viewers over table numbers 1..N (the taps are on table 1)")
    parser.add_argument("--taps", type=int, default=50, help="judge's taps with the overlay off, then on")
    parser.add_argument("--spacing", type=float, default=0.2, help="seconds between the starts of two taps")
    parser.add_argument("--delay", type=int, default=0, help="the overlay's delay, seconds (0 to 900)")
    parser.add_argument("--polls", type=int, default=200, help="GETs of the state endpoint (each way)")
    parser.add_argument("--ruleset", choices=sorted(ROLES), default="kostroma")
    parser.add_argument("--players", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--port", type=int, default=0, help="uvicorn's port (0: a free one)")
    parser.add_argument("--server-url", default=os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--database", default="bench_stream")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards (to look into it)")
    args = parser.parse_args()

    env = production_env(args.server_url, args.database)
    print(f"load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} cores, shared with other work")
    recreate_database(args.server_url, args.database)
    manage(env, "migrate", "--noinput")
    setup_django()
    from django.core.cache import cache

    from stream.services import delay, live, overlays
    from stream.services import frames as frame_building
    from tournaments.rules import ruleset_for

    started = time.perf_counter()
    tournament, user, game = load(args.ruleset, args.players, args.rounds)
    tables = frame_building.table_numbers(tournament.id)
    print(f"{args.ruleset}, {args.players} players, round {args.rounds} published ({len(tables)} tables), table 1's "
          f"protocol opened and its roles entered, in {time.perf_counter() - started:.1f} s")
    assert live.live_mode() == "socket"
    if not args.port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            args.port = int(probe.getsockname()[1])
    server = start_uvicorn(env, args.port)
    workers = start_workers(env, ("stream",))  # the frames are built by the stream queue's worker (README)
    judge = Judge(game, user, ruleset_for(tournament), len(ROLES[args.ruleset]))
    viewers = None
    try:
        off = tapping(judge, args.taps, args.spacing)
        overlay = overlays.open_overlay(tournament)
        overlay.delay_seconds, overlay.show_roles = args.delay, False
        overlay.save()
        watched = [1 + i % max(1, args.tables) for i in range(args.viewers)]
        for number in set(watched):  # as each overlay page does when it first asks the state
            delay.watch(overlay, number)
        tickets = [live.ticket(overlay, n) for n in watched]
        spawn = multiprocessing.get_context("spawn")  # not fork: the parent holds database connections
        ready, stop = spawn.Event(), spawn.Event()
        receiving, sending = spawn.Pipe(duplex=False)
        viewers = spawn.Process(target=watch, args=(f"ws://127.0.0.1:{args.port}", tickets, ready, stop, sending))
        connecting = time.perf_counter()
        viewers.start()
        if not ready.wait(120):
            raise SystemExit("the viewers did not connect in 120 s")
        connected = time.perf_counter() - connecting
        time.sleep(0.5)
        clients_before = redis_connections()

        key = delay.FRAMES.format(tournament=overlay.tournament_id, number=1)
        frames: list[tuple[float, str]] = []  # (commit's moment, digest) of each frame sent, in order
        moments = [0.0]

        def note_frame() -> None:  # a frame kept with a new moment is a frame sent (publish keeps, then sends)
            deadline = time.monotonic() + 2  # the stream queue's worker builds it after the commit
            while time.monotonic() < deadline:
                kept = cache.get(key) or []
                if kept and kept[-1][0] > moments[-1]:
                    moments.append(kept[-1][0])
                    frames.append((judge.committed, digest(kept[-1][1])))
                    return
                time.sleep(0.002)

        on = tapping(judge, args.taps, args.spacing, note_frame)
        hook_on = judge.hook[-args.taps:]
        hook_off = judge.hook[:args.taps]
        clients_after_taps = redis_connections()
        kept = cache.get(key) or []
        kept_size = len(pickle.dumps(kept, pickle.HIGHEST_PROTOCOL))
        time.sleep(2 + args.delay)  # the last frames' way to the viewers
        stop.set()
        seen = receiving.recv()
        viewers.join(30)
        viewers = None
        clients_before_parts = redis_connections()
        parts = publish_parts(overlay, args.taps)  # in a quiet moment: no viewer, nothing to fan out
        clients_after_parts = redis_connections()

        print(f"uvicorn (1 process, websockets-sansio) on 127.0.0.1:{args.port}, Channels' RedisPubSubChannelLayer; "
              f"load average {load_average()}")
        print(f"{args.viewers} viewers (one child process, asyncio) on table numbers "
              f"{'1' if args.tables <= 1 else f'1..{args.tables}'}: connected in {connected:.2f} s; handshakes "
              f"{ms(seen['handshakes'])}; failed {len(seen['failures'])} {seen['failures'][:2]}")
        print(f"judge's taps on table 1 ({args.taps} each, {args.spacing * 1000:.0f} ms apart), apply_tap including "
              f"its commit and the on-commit hook:")
        print(f"  overlay off:  {ms(off)}")
        print(f"  overlay on:   {ms(on)}  ({args.viewers} viewers connected)")
        print(f"  the on-commit hook (the overlay's reaction) alone, off: {ms(hook_off)}")
        print(f"  the on-commit hook (the overlay's reaction) alone, on:  {ms(hook_on)}")
        print(f"  frames published by the taps: {len(frames)} of {args.taps}; kept for the delay after the last: "
              f"{len(kept)}, {kept_size / 1024:.1f} KiB pickled (each publish and each poll reads them all)")
        watching_one = [n == 1 for n in watched]
        waits, counts, stray, others, spread = latencies(frames, seen["received"], watching_one)
        if args.delay:
            waits = [w - args.delay for w in waits]
            spread = [(a - args.delay, b - args.delay) for a, b in spread]
            print(f"  (the latencies below are beyond the {args.delay} s delay)")
        ordered = sorted(waits)
        print(f"commit → viewer (table 1's {sum(watching_one)} viewers × {len(frames)} frames = "
              f"{sum(watching_one) * len(frames)}, received {len(waits)}):")
        if ordered:
            print(f"  p50 {percentile(ordered, 0.5) * 1000:.1f} ms  p95 {percentile(ordered, 0.95) * 1000:.1f} ms  "
                  f"p99 {percentile(ordered, 0.99) * 1000:.1f} ms  max {ordered[-1] * 1000:.1f} ms")
            firsts, lasts = sorted(w[0] for w in spread), sorted(w[1] for w in spread)
            print(f"  a tap's first viewer: median {statistics.median(firsts) * 1000:.1f} ms, max "
                  f"{firsts[-1] * 1000:.1f} ms; its last viewer: median {statistics.median(lasts) * 1000:.1f} ms, "
                  f"max {lasts[-1] * 1000:.1f} ms (the fan-out in between)")
        print(f"  frames a viewer got of the {len(frames)}: min {min(counts, default=0)}, max "
              f"{max(counts, default=0)}; out of place {stray}; sockets closed early {len(seen['closed'])}")
        if others:
            print(f"  viewers of other tables: {len(others)}, frames they got: {sum(others)} (none expected)")
        print(f"publish and its parts alone ({args.taps} runs each, table 1, after the viewers left):")
        for name, values in parts.items():
            print(f"  {name:52} {ms(values)}")
        print(f"Redis (the whole server, other work included): clients connected {clients_before[0]} before the "
              f"taps, {clients_after_taps[0]} after; connections opened during the {args.taps} taps "
              f"{clients_after_taps[1] - clients_before[1] - 1}, during the parts "
              f"{clients_after_parts[1] - clients_before_parts[1] - 1} (publishing from sync code opens one each time)")
        state_endpoint(overlay, args.port, args.polls)
    finally:
        judge.restore()
        if viewers is not None:
            viewers.kill()
        server.terminate()
        server.wait(timeout=30)
        for worker in workers:
            worker.terminate()
            worker.wait(timeout=30)
        delete_cache_keys(env["CACHE_KEY_PREFIX"])
        from django.db import connections

        connections.close_all()
        if not args.keep:
            drop_database(args.server_url, args.database)


if __name__ == "__main__":
    if isinstance(sys.stdout, io.TextIOWrapper):  # a pipe or a terminal, not a test's capture
        sys.stdout.reconfigure(line_buffering=True)
    main()
