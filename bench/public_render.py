"""Benchmark: one public page's render in the app, without the network: the 1,000-player standings (page and the
fragment htmx polls), a round's seating (84 tables), a player's page and the standings API, each rendered warm
(the model already built) ``--repeat`` times in this process through Django's test client, in Russian.

Prints min / median / max milliseconds per page and the machine's load beside them, 200 players' pages read in
turn (CPU a page), then what a new results version costs three workers' first pages (CPU time: the model built
once, the stage ranked once, the rest read shared).
Loads a generated ``fiim`` tournament (1,000 players, 12 rounds) into a fresh PostgreSQL database ``--database``
(default ``mafia_render_bench``) with the development settings.

    .venv/bin/python bench/public_render.py [--repeat 15] [--players 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import load_average, manage, recreate_database

SLUG = "render-bench"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server-url", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--database", default="mafia_render_bench")
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    recreate_database(args.server_url, args.database)
    # the development settings (``make run``'s): no static manifest needed; DEBUG's query log is a few lines
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings",
           "DATABASE_URL": f"{args.server_url}/{args.database}"}
    os.environ.update(env)
    manage(env, "migrate", "--noinput")
    import django

    django.setup()
    from django.test import Client

    from base.collector import freeze_loaded
    from exchange.files import import_text
    from scoring import fileio
    from scoring.generate import generate

    freeze_loaded()  # as the WSGI entry point does once a worker has loaded the app (base/collector.py)
    data = fileio.dump(generate("fiim", players=args.players, rounds=args.rounds, seed=11))
    data["tournament"] = {"name": "Render benchmark", "standings_hidden": False}
    import_text(json.dumps(data), slug=SLUG)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru", HTTP_HOST="127.0.0.1")
    pages: dict[str, tuple[str, dict[str, str]]] = {
        "standings page": ("/p/{}/standings/s1/", {}),
        "standings fragment": ("/p/{}/standings/s1/", {"HX-Request": "true"}),
        f"seating, round {args.rounds}": (f"/p/{{}}/seating/s1/{args.rounds}/", {}),
        "player": ("/p/{}/players/p0042/", {}),
        "standings API": ("/api/tournaments/{}/standings/?stage=s1", {}),
    }
    print(f"{args.players} players, {args.rounds} rounds; load before: {load_average()}")
    print("| page | min ms | median ms | max ms | bytes |")
    print("|---|---|---|---|---|")
    for name, (url, headers) in pages.items():
        answer = client.get(url.format(SLUG), headers=headers)  # builds the model and what is derived from it
        assert answer.status_code == 200, (name, answer.status_code)
        took = []
        for _ in range(args.repeat):
            started = time.perf_counter()
            client.get(url.format(SLUG), headers=headers)
            took.append((time.perf_counter() - started) * 1000)
        print(f"| {name} | {min(took):.0f} | {statistics.median(took):.0f} | {max(took):.0f} | "
              f"{len(answer.content):,} |")
    print(players_in_turn(client, min(args.players, 200)))
    print(new_version_cost(client, args.repeat // 3 or 1))
    print(f"load after: {load_average()}")


def players_in_turn(client: Any, count: int) -> str:
    """``count`` different players' pages, each read once (the model warm): what the proxy asks for after a new
    version, one page per player a reader opens, in CPU milliseconds a page of this process."""
    urls = [f"/p/{SLUG}/players/p{number:04d}/" for number in range(1, count + 1)]
    assert client.get(urls[0]).status_code == 200
    started = time.process_time()
    for url in urls:
        assert client.get(url).status_code == 200
    return f"{count} players' pages in turn: {(time.process_time() - started) * 1000 / count:.1f} ms of CPU a page"


def new_version_cost(client: Any, repeat: int) -> str:
    """What a new results version costs the public pool before nginx has a page of it: the model built, then each
    of three workers (``LOCAL_MODELS`` cleared: another process, the shared cache as it is) asked for the standings
    page and a player's page, in CPU seconds of this process (the database's aside), min / median / max."""
    from django.core.cache import cache

    from public.model_cache import LOCAL_MODELS

    took = []
    for _ in range(repeat):
        cache.clear()  # the next version: nothing of it built or shared yet
        started = time.process_time()
        for _worker in range(3):
            LOCAL_MODELS.clear()
            for url in ("/p/{}/standings/s1/", "/p/{}/players/p0042/"):
                assert client.get(url.format(SLUG)).status_code == 200
        took.append((time.process_time() - started) * 1000)
    return (f"a new version, three workers' first standings page and player page: {min(took):.0f} / "
            f"{statistics.median(took):.0f} / {max(took):.0f} ms of CPU (min / median / max of {repeat})")


if __name__ == "__main__":
    main()
