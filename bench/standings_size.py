"""The size of the public standings fragment of a generated 1,000-player ``fiim`` tournament: raw, gzip -6 and
brotli (when the ``brotli`` module is there), in English and Russian. The fragment is what the page carries in
``#live`` and what every htmx poll fetches (phones on venue Wi-Fi).

    .venv/bin/python bench/standings_size.py [--players 1000] [--rounds 12] [--save FILE]

Runs on a throwaway in-memory SQLite database (Django's test database), never on ``DATABASE_URL``'s."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--save", help="write the Russian fragment to this file")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.pop("DATABASE_URL", None)  # SQLite, in memory
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafia_tournament.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment

    setup_test_environment()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "standings-size"}}
    connection.creation.create_test_db(verbosity=0, keepdb=False)
    from exchange.files import import_text
    from scoring import fileio
    from scoring.generate import generate

    data = fileio.dump(generate("fiim", players=args.players, rounds=args.rounds, seed=11))
    data["tournament"] = {"name": "Size", "standings_hidden": False}
    import_text(json.dumps(data), slug="size")
    client = Client()
    for language in ("en", "ru"):
        client.cookies["django_language"] = language
        body = client.get("/p/size/standings/", headers={"HX-Request": "true"}).content
        sizes = [f"raw {len(body) / 1024:.1f} KiB", f"gzip -6 {len(gzip.compress(body, 6)) / 1024:.1f} KiB"]
        try:
            import brotli  # type: ignore[import-untyped,unused-ignore]

            sizes.append(f"brotli {len(brotli.compress(body)) / 1024:.1f} KiB")
        except ImportError:
            pass
        print(f"{language}: standings fragment of {args.players} players x {args.rounds} rounds: {', '.join(sizes)}")
        if args.save and language == "ru":
            Path(args.save).write_bytes(body)


if __name__ == "__main__":
    main()
