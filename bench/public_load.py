"""Load test of the app as a large event serves it (README "Running a large event").

Loads generated ``fiim`` tournaments (1,000 players, 12 rounds by default) into a dedicated
PostgreSQL database (through the import service), serves them with gunicorn (several workers)
under the production profile (``mafia_tournament.settings_production``: DEBUG off, WhiteNoise,
the shared Redis cache), and drives them with concurrent clients on loopback (threads of the
standard library's ``http.client``):

- the public phases: the standings, seating and player pages and the standings API, one bounded
  phase per page kind and one mixed phase, on a tournament whose protocols are all confirmed;
- the tournament day (``tournament_day.py``): the last round's judges enter and submit their
  protocols through the API and the chief judge confirms them, while spectators refresh the
  standings, their seat and players' pages; then the results are checked against ``scoring``.

Prints requests per second, p50/p95/p99 latency and errors.

    .venv/bin/python bench/public_load.py [--workers 4] [--clients 16] [--seconds 10] [--day-only]

The requests carry ``X-Forwarded-Proto: https`` as the TLS-terminating reverse proxy would.
Needs PostgreSQL (``--server-url``, default ``postgres://postgres@127.0.0.1:5432``) and Redis
(``REDIS_URL``, default ``redis://127.0.0.1:6379/0``); its cache keys get a prefix of their own,
deleted at the end, and the database ``--database`` (default ``mafia_bench``) is created anew.
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import io
import json
import os
import random
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from harness import (
    HEADERS,
    PHONE,
    TABLE_HEADER,
    delete_cache_keys,
    get,
    load_average,
    manage,
    production_env,
    recreate_database,
    setup_django,
    start_gunicorn,
    start_workers,
    static_is_current,
    stop,
    summary,
    table_row,
)

SLUG = "bench-1000"
SMALL_SLUG = "bench-70"  # the H1 flood's second tournament
STAGE = "s1"


def load_tournament(players: int, rounds: int, slug: str = SLUG) -> float:
    """Generate, dump and import the tournament in this process (Django set up from ``os.environ``)."""
    from exchange.files import import_text
    from scoring import fileio
    from scoring.generate import generate

    started = time.perf_counter()
    data = fileio.dump(generate("fiim", players=players, rounds=rounds, seed=11))
    data["tournament"] = {"name": f"Benchmark open ({players} players)", "standings_hidden": False}
    import_text(json.dumps(data), slug=slug)
    return time.perf_counter() - started


def urls_by_kind(players: int, rounds: int) -> dict[str, list[str]]:
    rng = random.Random(5)
    return {
        "standings": [f"/p/{SLUG}/standings/{STAGE}/"],
        "seating": [f"/p/{SLUG}/seating/{STAGE}/{n}/" for n in range(1, rounds + 1)],
        "player": [f"/p/{SLUG}/players/p{n:04d}/" for n in rng.sample(range(1, players + 1), min(200, players))],
        "api standings": [f"/api/tournaments/{SLUG}/standings/?stage={STAGE}"],
    }


def phase(port: int, urls: list[str], clients: int, seconds: float,
          headers: dict[str, dict[str, str]] | None = None, ok: int = 200) -> dict[str, Any]:
    """``clients`` threads, each with its own connection, requesting ``urls`` (with ``headers`` of each URL)
    until the deadline; an answer other than ``ok`` is an error."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.perf_counter() + seconds

    def client(index: int) -> None:
        rng = random.Random(index)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        mine: list[float] = []
        bad: list[str] = []
        while time.perf_counter() < deadline:
            url = rng.choice(urls)
            started = time.perf_counter()
            try:
                status, _size = get(conn, url, (headers or {}).get(url))
                if status != ok:
                    bad.append(f"{status} {url}")
            except (OSError, http.client.HTTPException) as error:
                bad.append(f"{type(error).__name__} {url}")
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                continue
            mine.append(time.perf_counter() - started)
        conn.close()
        with lock:
            latencies.extend(mine)
            errors.extend(bad)

    started = time.perf_counter()
    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    return summary(latencies, errors, elapsed)


def cold(port: int, urls: dict[str, list[str]]) -> dict[str, tuple[float, int]]:
    """The first request of one URL per kind: an empty cache, the page rendered from the database."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    out = {}
    for kind, some in urls.items():
        started = time.perf_counter()
        status, size = get(conn, some[0])
        if status != 200:
            raise SystemExit(f"{some[0]} answered {status}")
        out[kind] = ((time.perf_counter() - started) * 1000, size)
    conn.close()
    return out


def warm(port: int, urls: dict[str, list[str]], clients: int) -> None:
    every = [u for some in urls.values() for u in some]
    chunks = [every[i::clients] for i in range(clients)]

    def run(chunk: list[str]) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for url in chunk:
            get(conn, url)
        conn.close()

    threads = [threading.Thread(target=run, args=(c,), daemon=True) for c in chunks]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def flood(port: int, url: str | list[str], clients: int, stop_at: float) -> dict[int, int]:
    """``clients`` threads requesting ``url`` (client i: the i-th of a list, round the list) nonstop with a fresh
    query string each time (trying to defeat the caches), as anonymous visitors flooding costly documents would;
    the statuses counted."""
    counts: dict[int, int] = {}
    lock = threading.Lock()
    urls = [url] if isinstance(url, str) else url

    def client(index: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        mine, language = split_language(urls[index % len(urls)])
        joiner = "&" if "?" in mine else "?"
        n = 0
        while time.perf_counter() < stop_at:
            n += 1
            try:
                status, _size = get(conn, f"{mine}{joiner}x={index}-{n}", language)
            except (OSError, http.client.HTTPException):
                status = 0
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            with lock:
                counts[status] = counts.get(status, 0) + 1
        conn.close()

    threads = [threading.Thread(target=client, args=(i,), daemon=True) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return counts


def flooded_phase(args: argparse.Namespace, urls: dict[str, list[str]]) -> None:
    """Spectators read (the mixed phase) alone, then while ``--flooders`` clients flood ``results.pdf`` from an
    empty cache of it (eight at once held every worker, and a public page waited 87 s)."""
    mixed = [u for some in urls.values() for u in some]
    alone = phase(args.port, mixed, args.clients, args.flood_seconds)
    stop_at = time.perf_counter() + args.flood_seconds + 1
    flooding = threading.Thread(target=lambda: counts.update(flood(args.port, f"/t/{SLUG}/results.pdf",
                                                                   args.flooders, stop_at)), daemon=True)
    counts: dict[int, int] = {}
    flooding.start()
    time.sleep(0.5)  # the flood under way: the first PDF is being built
    flooded = phase(args.port, mixed, args.clients, args.flood_seconds)
    flooding.join()
    print(f"results.pdf flood: {args.flooders} clients nonstop, a new query string each request; "
          f"spectators: {args.clients} clients on the mixed pages")
    print(TABLE_HEADER)
    print(table_row("spectators alone", alone))
    print(table_row("while flooded", flooded))
    answered = ", ".join(f"{status or 'failed'}: {n}" for status, n in sorted(counts.items()))
    print(f"the flood's answers: {answered} (202: being prepared while the documents' worker builds it)")
    print(f"spectators' p95 flooded / alone: {flooded['p95'] / alone['p95']:.2f} (the aim: at most 2)")


# H1: right after a change that makes a new results version, anonymous requests for the results and
# diplomas PDFs of a 1,000-player and a 70-player tournament, in Russian and English, at once (``#en``: asked in
# English, as a browser set to English asks).
H1_DOCUMENTS = [f"/t/{slug}/{document}{language}" for slug in (SLUG, SMALL_SLUG)
                for document in ("results.pdf", "diplomas.pdf") for language in ("", "#en")]


def split_language(url: str) -> tuple[str, dict[str, str]]:
    """The address to ask and the headers of its language (``#en``: Accept-Language en; else the bench's ru)."""
    path, _hash, language = url.partition("#")
    return path, ({"Accept-Language": language} if language else {})


def new_results_version() -> None:
    """A change that makes a new results version of both tournaments (the organizer saving the hall screen's
    announcements was enough in the probe)."""
    from tournaments.models import Tournament
    from venue_screen.services import set_announcements

    for slug in (SLUG, SMALL_SLUG):
        set_announcements(Tournament.objects.get(slug=slug), f"A break until {time.strftime('%H:%M:%S')}.", 20)


def h1_phase(args: argparse.Namespace, urls: dict[str, list[str]]) -> bool:
    """Spectators read alone, then, after a new results version, while 8 and then 16 anonymous clients request
    the eight documents of ``H1_DOCUMENTS`` at once (client i the i-th, round the list), then while 16 request the
    1,000-player tournament's four only. The aims: the spectators' p95 within twice the quiet one, no 5xx."""
    mixed = [u for some in urls.values() for u in some]
    quiet = phase(args.port, mixed, args.clients, args.flood_seconds)
    print(f"H1: a new results version, then anonymous clients ask for {len(H1_DOCUMENTS)} documents at once "
          f"(results and diplomas PDF, ru and en, {SLUG} and {SMALL_SLUG}); spectators: {args.clients} clients "
          f"on the mixed pages; load average {load_average()}")
    print(TABLE_HEADER + "  ×p95  ×new  5xx  the flood's answers (202: being prepared)")
    print(table_row("spectators quiet", quiet))
    new_results_version()  # the control: a new version and no flood (the public pages' model is built again)
    bumped = phase(args.port, mixed, args.clients, args.flood_seconds)
    print(f"{table_row('new version alone', bumped)} {bumped['p95'] / quiet['p95']:>5.2f}")
    met = True
    for flooders, documents in ((8, H1_DOCUMENTS), (16, H1_DOCUMENTS), (16, H1_DOCUMENTS[:4])):
        new_results_version()
        counts: dict[int, int] = {}
        stop_at = time.perf_counter() + args.flood_seconds + 1
        flooding = threading.Thread(target=lambda c=counts, d=documents, f=flooders, s=stop_at: c.update(
            flood(args.port, d, f, s)), daemon=True)
        flooding.start()
        flooded = phase(args.port, mixed, args.clients, args.flood_seconds)
        flooding.join()
        errors = sum(n for status, n in counts.items() if status >= 500 or status == 0)
        errors += flooded["errors"]  # a spectator's answer other than 200
        ratio = flooded["p95"] / quiet["p95"] if quiet["p95"] else float("inf")
        met = met and ratio <= 2 and errors == 0
        answered = ", ".join(f"{status or 'failed'}: {n}" for status, n in sorted(counts.items()))
        name = f"{flooders} on {len(documents)} docs"
        against_new = flooded["p95"] / bumped["p95"]
        print(f"{table_row(name, flooded)} {ratio:>5.2f} {against_new:>5.2f} {errors:>4}  {answered}")
    print(f"H1 aims (p95 at most 2x quiet, no 5xx): {'met' if met else 'NOT met'} (×p95: against the quiet run; "
          "×new: against a new version with no flood, what the flood itself adds)")
    print("after the flood, no one reading: seconds until each document is served (200): "
          + ", ".join(f"{url.split('/t/')[1]} {seconds}" for url, seconds in ready_after(args.port).items()))
    return met


def ready_after(port: int, most: float = 300) -> dict[str, str]:
    """Each of ``H1_DOCUMENTS`` asked for once a second until it is served: the seconds it took, or ``>most``
    (one documents' worker builds them one after another)."""
    started = time.perf_counter()
    waiting = set(H1_DOCUMENTS)
    out: dict[str, str] = {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    while waiting and time.perf_counter() - started < most:
        for url in sorted(waiting):
            status, _size = get(conn, *split_language(url))
            if status == 200:
                out[url] = f"{time.perf_counter() - started:.0f}"
                waiting.discard(url)
        time.sleep(1)
    conn.close()
    out.update({url: f">{most:.0f}" for url in waiting})
    return {url: out[url] for url in H1_DOCUMENTS}


def answers_of(port: int, urls: dict[str, list[str]]) -> dict[str, tuple[int, int, str]]:
    """Each URL's size as a phone gets it (compressed), as it is (no Accept-Encoding) and its ETag."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    out = {}
    for url in (u for some in urls.values() for u in some):
        conn.request("GET", url, headers={**HEADERS, **PHONE})
        response = conn.getresponse()
        wire = len(response.read())
        etag = response.getheader("ETag") or ""
        _status, plain = get(conn, url, {"Accept-Encoding": "identity"})
        out[url] = (wire, plain, etag)
    conn.close()
    return out


def side_by_side(name: str, ours: dict[str, Any], floor: dict[str, Any]) -> str:
    """A phase's row with the floor's figures beside it and the ratios (ours / floor: time per request, p95)."""
    per_request = floor["rps"] / ours["rps"] if ours["rps"] else float("inf")
    p95 = ours["p95"] / floor["p95"] if floor["p95"] else float("inf")
    return f"{table_row(name, ours)} {floor['rps']:>8.0f} {floor['p95']:>8.1f} {per_request:>7.2f} {p95:>7.2f}"


def public_phases(args: argparse.Namespace) -> None:
    urls = urls_by_kind(args.players, args.rounds)
    first = cold(args.port, urls)
    warm(args.port, urls, args.clients)
    sizes = answers_of(args.port, urls)
    print(f"public pages: {args.clients} concurrent clients, {args.seconds:.0f} s per phase, "
          f"load average {load_average()}")
    print("cold (first request, empty cache): " + ", ".join(
        f"{kind} {ms:.0f} ms" for kind, (ms, _size) in first.items()))
    print("size (as sent to a phone / as it is): " + ", ".join(
        f"{kind} {sizes[some[0]][0] / 1024:.1f} / {sizes[some[0]][1] / 1024:.0f} KiB" for kind, some in urls.items()))
    print(f"floor: the same gunicorn ({args.workers} sync workers) answering each URL's body size from memory "
          "(bench/floor.py), run right after each phase")
    print(f"{TABLE_HEADER}  floor/s floor p95 ×time   ×p95")
    if args.h1_only:
        h1_phase(args, urls)
        return
    phases = [*urls.items(), ("mixed", [u for some in urls.values() for u in some])]
    floor_port = args.floor_port
    for kind, some in phases:
        ours = phase(args.port, some, args.clients, args.seconds)
        floor = phase(floor_port, [f"/bytes/{sizes[u][0]}" for u in some], args.clients, args.seconds)
        print(side_by_side(kind, ours, floor))
    mixed = phases[-1][1]
    held = {u: {"If-None-Match": sizes[u][2]} for u in mixed}
    ours = phase(args.port, mixed, args.clients, args.seconds, held, ok=304)
    floor = phase(floor_port, ["/not-modified"], args.clients, args.seconds, ok=304)
    print(side_by_side("304 (mixed)", ours, floor))
    if args.flooders:
        flooded_phase(args, urls)
        h1_phase(args, urls)


def main() -> None:
    import tournament_day

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12, help="rounds; on the tournament day the last is played")
    # The pools of deploy/nginx/pools.conf: readers on one (under nice), everyone with credentials on the other.
    parser.add_argument("--workers", type=int, default=3, help="the public pool's sync workers")
    parser.add_argument("--staff-workers", type=int, default=2,
                        help="the staff pool's workers: judges and the chief judge (0: one pool for all, as before)")
    parser.add_argument("--public-nice", type=int, default=10, help="the public pool's niceness (with a staff pool)")
    parser.add_argument("--staff-port", type=int, default=0, help="the staff pool's port (0: the app's port + 2)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent spectator clients")
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each public phase")
    parser.add_argument("--flooders", type=int, default=8,
                        help="clients flooding results.pdf in the last phase (0: no such phase)")
    parser.add_argument("--flood-seconds", type=float, default=30.0,
                        help="length of the flood phase and of the same phase without it (longer than a PDF build)")
    parser.add_argument("--port", type=int, default=8765, help="the app's port; the floor's is the next one")
    parser.add_argument("--server-url", default=os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--database", default="mafia_bench")
    parser.add_argument("--proxy", action="store_true",
                        help="nginx with the shipped deploy/nginx/ files in front of both pools (its cache and "
                             "compression): every client then goes through it, as at an event")
    parser.add_argument("--reuse-static", action="store_true",
                        help="skip collectstatic when staticfiles/ is newer than static/ (the smoke test)")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--day-only", action="store_true", help="only the tournament day")
    which.add_argument("--public-only", action="store_true", help="only the public phases")
    which.add_argument("--h1-only", action="store_true",
                       help="only the H1 phase (a new version, then documents flooded) after the warm-up")
    tournament_day.add_arguments(parser)
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # stop gunicorn and clean up on kill too

    args.floor_port = args.port + 1  # the floor is asked directly, past the proxy
    env = production_env(args.server_url, args.database)
    print(f"load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} cores")
    recreate_database(args.server_url, args.database)
    manage(env, "migrate", "--noinput")
    if not (args.reuse_static and static_is_current()):
        manage(env, "collectstatic", "--noinput")
    setup_django()
    if not args.day_only:
        seconds_to_load = load_tournament(args.players, args.rounds)
        print(f"loaded {args.players} players x {args.rounds} rounds into {args.database} in {seconds_to_load:.1f} s")
        if args.flooders:
            load_tournament(70, 8, SMALL_SLUG)
    args.public_only = args.public_only or args.h1_only
    day = None if args.public_only else tournament_day.prepare(args)

    server = start_gunicorn(env, args.workers, args.port, nice=args.public_nice if args.staff_workers else 0)
    args.staff_port = (args.staff_port or args.port + 2) if args.staff_workers else args.port
    staff = start_gunicorn(env, args.staff_workers, args.staff_port) if args.staff_workers else None
    floor = None if args.day_only else start_gunicorn(env, args.workers, args.port + 1, "floor:app", "/bytes/1")
    workers = start_workers(env)
    failed = False
    proxy = contextlib.ExitStack()
    try:
        if args.proxy:
            from tests.deploy.nginx_run import running

            folder = Path(tempfile.mkdtemp(prefix="bench-nginx-"))
            front = proxy.enter_context(running(folder, {"mafia_public": args.port, "mafia_staff": args.staff_port}))
            print(f"nginx (deploy/nginx/: the readers' cache, gzip and Brotli) in front of both pools on port {front}")
            args.port = args.staff_port = front
        if staff is None:
            print(f"gunicorn {args.workers} sync workers for everyone, loopback, production profile, Redis cache")
        else:
            print(f"gunicorn: a public pool of {args.workers} sync workers at nice {args.public_nice} (readers) and a "
                  f"staff pool of {args.staff_workers} (judges and the chief), as deploy/nginx/ splits them; "
                  "loopback, production profile, Redis cache")
        if not args.day_only:
            public_phases(args)
        if day is not None:
            failed = not tournament_day.run(day, args)
    finally:
        proxy.close()
        stop(server)
        if staff is not None:
            stop(staff)
        if floor is not None:
            stop(floor)
        for worker in workers:
            stop(worker)
        delete_cache_keys(env["CACHE_KEY_PREFIX"])
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    if isinstance(sys.stdout, io.TextIOWrapper):  # a pipe or a terminal, not a test's capture
        sys.stdout.reconfigure(line_buffering=True)
    main()
