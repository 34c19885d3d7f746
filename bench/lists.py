"""How long a list takes an organizer's request: the participants' list pasted at sizes up to its cap
(read, checked and matched against the registry, then the preview rendered), a list far past the cap (refused by
its line count), and a tournament file past its player cap (refused before it is checked).

    .venv/bin/python bench/lists.py [--repeat 3]

Runs the app in this process on a fresh SQLite database in a temporary directory, through Django's test client
(the page's own view, forms and template; no server in between). Prints one line a case, the fastest and the
slowest of the repeats in seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="bench-lists-")
    os.environ.update({"DJANGO_SETTINGS_MODULE": "mafia_tournament.settings",
                       "DATABASE_URL": f"sqlite:///{folder}/db.sqlite3", "REDIS_URL": "",
                       "ALLOWED_HOSTS": "testserver"})
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    import logging

    logging.disable(logging.WARNING)  # Django's "Bad Request" line per refused list
    from django.contrib.auth.models import Permission, User
    from django.core.management import call_command
    from django.test import Client

    from exchange.files import MAX_FILE_PLAYERS
    from tournaments.forms.people import MAX_CSV_ROWS
    from tournaments.models import Tournament

    call_command("migrate", verbosity=0)
    organizer = User.objects.create_user("bench-organizer")
    organizer.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    tournament = Tournament.objects.create(slug="lists", name="Lists", ruleset="fiim")
    tournament.organizers.add(organizer)
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    client.force_login(organizer)
    url = f"/t/{tournament.slug}/participants/import/"

    def timed(label: str, post: dict[str, object], path: str = url, expect: int = 200) -> None:
        runs = []
        for _n in range(args.repeat):
            started = time.perf_counter()
            response = client.post(path, post)
            runs.append(time.perf_counter() - started)
            if response.status_code != expect:
                raise SystemExit(f"{label}: {response.status_code}, expected {expect}")
        print(f"{label:<58} {min(runs):6.2f} – {max(runs):6.2f} s")

    print(f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores; "
          f"{args.repeat} runs each")
    for rows in (500, 1000, MAX_CSV_ROWS):
        text = "фамилия,имя,город\n" + "".join(f"Иванов{i},Пётр,Томск\n" for i in range(rows))
        timed(f"a list of {rows} players previewed ({len(text.encode()) // 1024} KiB)", {"text": text})
    huge = "фамилия,город\n" + "".join(f"Ив{i},Омск\n" for i in range(100_000))
    timed(f"100,000 rows refused by the cap ({len(huge.encode()) // 1024} KiB)", {"text": huge}, expect=400)
    data = {"format": "mafia-tournament/1", "players": [{"id": f"p{n}", "name": f"P {n}"}
                                                        for n in range(MAX_FILE_PLAYERS + 1)]}
    from django.core.files.uploadedfile import SimpleUploadedFile

    body = json.dumps(data).encode()
    runs = []
    for _n in range(args.repeat):
        started = time.perf_counter()
        response = client.post("/import/", {"file": SimpleUploadedFile("big.json", body, "application/json")})
        runs.append(time.perf_counter() - started)
        assert response.status_code == 400, response.status_code
    print(f"{'a file of ' + str(MAX_FILE_PLAYERS + 1) + ' players refused by the cap':<58} "
          f"{min(runs):6.2f} – {max(runs):6.2f} s")


if __name__ == "__main__":
    main()
