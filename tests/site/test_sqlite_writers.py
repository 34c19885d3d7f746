"""`make run` on SQLite (a club evening): four judges writing at once each wait their turn, none gets "database is
locked". With SQLite's default transactions two writers that had both read could not upgrade their locks and one
failed at once (a tap answered 503: tomsk's four tables tapped fast lost taps). Run in a process of its own with the
settings of a SQLite ``DATABASE_URL`` (mafia_tournament/settings.py), whatever database the suite runs on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

JUDGES = """
import json, os, sqlite3, sys, threading, time
os.environ["DJANGO_SETTINGS_MODULE"] = "mafia_tournament.settings"
import django
django.setup()
from django.conf import settings
from django.db import connection, transaction

with connection.cursor() as cursor:
    cursor.execute("CREATE TABLE taps (judge INTEGER)")
    cursor.execute("PRAGMA journal_mode")
    journal = cursor.fetchone()[0]
errors = []

def judge(number):
    try:
        for _tap in range(40):  # each tap reads, then writes, in one transaction (as a protocol's tap does)
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FROM taps")
                cursor.fetchone()
                time.sleep(0.002)  # the others read meanwhile: with SQLite's default transactions one fails
                cursor.execute("INSERT INTO taps VALUES (%s)", [number])
    except Exception as error:
        errors.append(repr(error))
    finally:
        connection.close()

threads = [threading.Thread(target=judge, args=(number,)) for number in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
with connection.cursor() as cursor:
    cursor.execute("SELECT judge, count(*) FROM taps GROUP BY judge ORDER BY judge")
    taps = cursor.fetchall()
from pathlib import Path
from exchange.backup import copy_sqlite_database
copy_sqlite_database(Path(sys.argv[1]))
with sqlite3.connect(sys.argv[1]) as copy:
    copied = {"journal": copy.execute("PRAGMA journal_mode").fetchone()[0],
              "taps": copy.execute("SELECT count(*) FROM taps").fetchone()[0]}
print(json.dumps({"journal": journal, "errors": errors, "taps": taps, "copy": copied,
                  "test_database": settings.DATABASES["default"]["TEST"]["NAME"]}))
"""


def test_four_judges_writing_at_once_to_sqlite_lose_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "REDIS_URL": "",
           "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", JUDGES, str(tmp_path / "copy.sqlite3")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    assert answer["errors"] == []
    assert answer["taps"] == [[0, 40], [1, 40], [2, 40], [3, 40]]
    assert answer["journal"] == "wal"  # readers (spectators' pages) never wait for a writer
    # the backup (backup_tournaments) one file that any SQLite opens, with every tap
    assert answer["copy"] == {"journal": "delete", "taps": 160}
    # the tests' database a file: the browser journeys' live server writes from other threads
    assert answer["test_database"].endswith(".sqlite3") and "memory" not in answer["test_database"]
