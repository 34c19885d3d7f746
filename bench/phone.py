"""Benchmark: the public pages and the judge's table screen on a mid phone, in Chromium.

Each page is opened in a fresh browser context (a first visit: nothing cached) at 390×844, in Russian, with a mid
phone's profile set through the DevTools protocol: the CPU slowed 4× (``Emulation.setCPUThrottlingRate``) and the
network at 1.6 Mbit/s down, 750 kbit/s up and a 150 ms round trip (``Network.emulateNetworkConditions``). Printed per
page: the bytes on the wire and the requests (``Network.loadingFinished``), DOMContentLoaded and the largest
contentful paint (a ``PerformanceObserver`` of ``largest-contentful-paint``), the median of ``--runs`` loads.

Without ``--base`` the benchmark builds what it measures: a fresh PostgreSQL database with a 1,000-player and a
70-player fiim tournament (12 and 8 rounds, published standings) and a tournament with a round in play whose table 1
has a judge, served by gunicorn under the production profile (``bench/harness.py``), as an event runs it. With
``--base URL`` it measures a server already running that holds those tournaments (``--keep`` leaves them behind).

Run from the repository root: ``python bench/phone.py [--base URL] [--runs N] [--proxy]`` (``--proxy``: through
nginx with the shipped deploy/nginx/ files, as at an event). The last line printed is one JSON
object: ``{"PAGE": {"lcp_ms": n, "dcl_ms": n, "bytes": n, "requests": n}, ...}`` including ``"standings_1000"``.
Goals: every public page's LCP ≤ 2.0 s, the 1,000-player standings ≤ 2.5 s, the table screen ≤ 2.0 s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

BIG, SMALL, LIVE = "bench-1000", "bench-70", "bench-live"
STAGE = "s1"
GOALS_MS = {"standings_1000": 2500}
GOAL_MS = 2000

# A mid phone: 4× slower CPU, 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip.
CPU_SLOWDOWN = 4
NETWORK = {"offline": False, "latency": 150, "downloadThroughput": 1_600_000 / 8, "uploadThroughput": 750_000 / 8}

# The largest contentful paint so far, kept where the page's script can read it.
LCP_OBSERVER = """
window.__lcp = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) window.__lcp = Math.max(window.__lcp, entry.startTime);
}).observe({type: "largest-contentful-paint", buffered: true});
"""


def pages(judge_table: int | None) -> dict[str, str]:
    """The pages measured: each public page of a 70-player event, the 1,000-player standings, the table screen."""
    found = {
        "list": "/p/",
        "home": f"/p/{SMALL}/",
        "standings": f"/p/{SMALL}/standings/{STAGE}/",
        "standings_1000": f"/p/{BIG}/standings/{STAGE}/",
        "seating": f"/p/{SMALL}/seating/{STAGE}/8/",
        "where": f"/p/{SMALL}/where/",
        "player": f"/p/{SMALL}/players/p0007/",
        "game": f"/p/{SMALL}/games/{STAGE}/8/1/",
        "rules": f"/p/{SMALL}/rules/",
        "ratings": "/ratings/",
    }
    if judge_table is not None:
        found["table_screen"] = f"/t/{LIVE}/tables/{judge_table}/live/"
    return found


def build(env: dict[str, str]) -> tuple[int, str]:
    """The three tournaments; the judge's table and a signed session of that judge."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from public_load import load_tournament

    from tests.conftest import new_people, new_round, new_user
    from tests.helpers import table

    load_tournament(1000, 12, BIG)
    load_tournament(70, 8, SMALL)
    organizer = new_user("phone-director", can_create=True)
    round_ = new_round(organizer, "fiim", tables=7)
    tournament = round_.stage.tournament
    tournament.slug = LIVE
    tournament.save(update_fields=["slug"])
    judge = new_people(round_, prefix="phone-")["judge"]
    session = SessionStore()
    session[SESSION_KEY] = str(judge.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = judge.get_session_auth_hash()
    session.create()
    return table(round_, 1).pk, str(session.session_key)


def measure(browser: Any, base: str, path: str, session: str | None) -> dict[str, float]:
    """One first visit of ``path`` on the mid phone: bytes, requests, DOMContentLoaded and LCP (ms)."""
    context = browser.new_context(
        base_url=base, locale="ru-RU", viewport={"width": 390, "height": 844}, device_scale_factor=3,
        is_mobile=True, has_touch=True,
        extra_http_headers={"Accept-Language": "ru", "X-Forwarded-Proto": "https"})
    if session is not None:
        context.add_cookies([{"name": "sessionid", "value": session, "url": base, "secure": True}])
    page = context.new_page()
    page.add_init_script(LCP_OBSERVER)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send("Network.emulateNetworkConditions", NETWORK)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    wire = {"bytes": 0.0, "requests": 0.0}

    def finished(event: dict[str, Any]) -> None:
        wire["bytes"] += float(event.get("encodedDataLength", 0))
        wire["requests"] += 1

    cdp.on("Network.loadingFinished", finished)
    response = page.goto(path, wait_until="load", timeout=120_000)
    if response is None or response.status != 200:
        raise SystemExit(f"{path}: answered {response.status if response else 'nothing'}")
    page.wait_for_timeout(500)  # a paint after the load event still counts; the observer is buffered
    lcp = float(page.evaluate("window.__lcp"))
    dcl = float(page.evaluate("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd"))
    context.close()
    return {"lcp_ms": round(lcp), "dcl_ms": round(dcl), "bytes": int(wire["bytes"]), "requests": int(wire["requests"])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", help="a running server holding the benchmark's tournaments (default: build one)")
    parser.add_argument("--runs", type=int, default=3, help="loads per page; the median is printed")
    parser.add_argument("--only", nargs="*", help="only these pages")
    parser.add_argument("--port", type=int, default=8785)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--server-url", default=os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--database", default="mafia_phone")
    parser.add_argument("--reuse-static", action="store_true", help="skip collectstatic when staticfiles/ is current")
    parser.add_argument("--proxy", action="store_true",
                        help="through nginx with the shipped deploy/nginx/ files (its cache and compression)")
    args = parser.parse_args()

    from harness import (
        drop_database,
        load_average,
        manage,
        production_env,
        recreate_database,
        setup_django,
        start_gunicorn,
        static_is_current,
        stop,
    )

    print(f"load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} cores")
    server, judge_table, session, base = None, None, None, args.base
    if base is None:
        env = production_env(args.server_url, args.database)
        env["ALLOWED_HOSTS"] = os.environ["ALLOWED_HOSTS"] = "127.0.0.1,localhost"
        recreate_database(args.server_url, args.database)
        manage(env, "migrate", "--noinput")
        if not (args.reuse_static and static_is_current()):
            manage(env, "collectstatic", "--noinput")
        setup_django()
        started = time.perf_counter()
        judge_table, session = build(env)
        print(f"built the tournaments in {time.perf_counter() - started:.1f} s")
        server = start_gunicorn(env, args.workers, args.port)
        # localhost, not 127.0.0.1: Chromium sends the production profile's secure cookies to it over plain HTTP
        base = f"http://localhost:{args.port}"
    results: dict[str, dict[str, float]] = {}
    proxy = contextlib.ExitStack()
    try:
        if args.proxy and server is not None:
            from tests.deploy.nginx_run import running

            front = proxy.enter_context(running(Path(tempfile.mkdtemp(prefix="phone-nginx-")),
                                                {"mafia_public": args.port, "mafia_staff": args.port}))
            base = f"http://localhost:{front}"
            print(f"through nginx (deploy/nginx/) on port {front}")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"),
                args=["--no-sandbox", "--disable-gpu"])
            for name, path in pages(judge_table).items():
                if args.only and name not in args.only:
                    continue
                measure(browser, base, path, session if name == "table_screen" else None)  # warms the server
                runs = [measure(browser, base, path, session if name == "table_screen" else None)
                        for _ in range(args.runs)]
                results[name] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
                lcps = ", ".join(str(r["lcp_ms"]) for r in runs)
                goal = GOALS_MS.get(name, GOAL_MS)
                print(f"{name:15} LCP {results[name]['lcp_ms']:>6.0f} ms ({lcps}; goal ≤ {goal})  DCL "
                      f"{results[name]['dcl_ms']:>6.0f} ms  {results[name]['bytes'] / 1024:7.1f} KiB  "
                      f"{results[name]['requests']:.0f} requests", flush=True)
            browser.close()
    finally:
        proxy.close()
        if server is not None:
            stop(server)
            drop_database(args.server_url, args.database)
    print(f"load average {load_average()} (1, 5, 15 min)")
    print(json.dumps({name: {k: int(v) for k, v in r.items()} for name, r in results.items()}))


if __name__ == "__main__":
    main()
