"""The backups' tournament day (built through the app's services, beside the example files of every ruleset) and
the ways the tests run a restored app as its own process (a private PostgreSQL database, the management commands,
the probe)."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.db import connection

from exchange.files import import_text
from games.models import Game
from games.permissions import staff_of
from games.services import protests
from games.services import protocol as service
from judges.services import staff
from running.services.seating import mark_absent, publish_round
from scoring.cli import main as scoring_main
from tests.helpers import ROLES, played_file
from tournaments.models import Bye, Player, Round, Seat, Table, Tournament
from tournaments.services import apart, penalties, registration
from tournaments.services.disqualification import disqualify
from tournaments.services.people import remove_participant

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "tests" / "scoring" / "data"
SLUG = "day-cup"
POSTGRESQL = connection.vendor == "postgresql"


# --- the tournament day ------------------------------------------------------------------------------


def play(game: Game, user: User, winner: str, fouls: dict[int, int] | None = None) -> Game:
    def fill(facts: Any) -> None:
        for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
            seat.role = role
            seat.foul_reasons = ["out_of_turn"] * (fouls or {}).get(seat.number, 0)
        facts.winner = winner

    return service.change(game, user, game.version, fill)


def build_day(organizer: Any, make_user: Callable[..., User]) -> Tournament:
    t = import_text(json.dumps(played_file(20, 2)), slug=SLUG, organizers=[organizer])
    t.protests_enabled = True  # fiim takes none unless the organizer turns them on
    t.save(update_fields=["protests_enabled"])
    stage = t.stages.get(ext_id="qualifying")
    # Three late registrations, the second removed again: the numbers have a gap (21, 23).
    late = [registration.register(t, Player.objects.create(surname=surname, first_name="Late")).participant
            for surname in ("Морозов", "Волков", "Лебедев")]
    remove_participant(late[1])
    people = list(t.participants.order_by("number"))
    assert [p.number for p in people[-2:]] == [21, 23]
    # Round 3: two tables of ten, one player absent, one with a bye; seated as the seating job would.
    round_ = Round.objects.create(stage=stage, number=3, seating="random")
    mark_absent(round_, people[-1])
    for number in (1, 2):
        table = Table.objects.create(round=round_, number=number)
        Seat.objects.bulk_create(Seat(table=table, round=round_, number=n + 1, participant=p)
                                 for n, p in enumerate(people[(number - 1) * 10: number * 10]))
    Bye.objects.create(round=round_, participant=people[20])
    round_ = publish_round(round_, organizer)
    chief, judge = make_user("chief"), make_user("judge")
    staff.add_judge(t, chief, chief=True)
    staff.assign(staff.add_judge(t, judge), stage, round_, 1)
    as_chief, as_judge = staff_of(chief, t), staff_of(judge, t)
    # Table 1: played, submitted, confirmed; a protest upheld reopens it; corrected and confirmed again.
    first = play(service.open_protocol(round_.tables.get(number=1), judge), judge, "red", {2: 1, 7: 2})
    first = service.submit(first, judge, first.version)
    first = service.confirm(first, as_chief, chief, first.version)
    protest = protests.lodge(first, as_judge, judge, 4, "the vote on seat 4 was counted wrong")
    protests.decide(protest, as_chief, chief, "upheld", "recounted: the mafia won")
    first.refresh_from_db()
    first = play(first, chief, "black", {2: 1, 7: 2})
    service.confirm(first, as_chief, chief, first.version)
    # Table 2: submitted, not yet confirmed, with a protest pending.
    second = play(service.open_protocol(round_.tables.get(number=2), organizer), organizer, "red")
    second = service.submit(second, organizer, second.version)
    protests.lodge(second, staff_of(organizer, t), organizer, 9, "seat 9 was not given a last word")
    penalties.add(round_, people[3], Decimal("-0.5"), "a phone at the table")
    disqualify(people[12], organizer, "an unsporting agreement")
    apart.add_pair(t, people[0], people[1])
    Round.objects.create(stage=stage, number=4, seating="random")  # a draft, not published
    return t


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))


# --- running the restored app as its own process --------------------------------------------------------


def probe(database_url: str, *args: str) -> Any:
    """``restore_probe`` against ``database_url`` in a new process: local-memory cache (the shared Redis holds
    the original's answers under the same keys), no settings inherited from the test run."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "ALLOWED_HOSTS"}}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="mafia_tournament.settings",
               ALLOWED_HOSTS="testserver")
    result = subprocess.run([sys.executable, "-m", "tests.deploy.restore_probe", *args], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=180)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout) if result.stdout else None


def manage(database_url: str, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(DATABASE_URL=database_url, DJANGO_SETTINGS_MODULE="mafia_tournament.settings")
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


class Postgres:
    """The tools of the server the tests use, at its major version (pg_dump refuses a newer server)."""

    def __init__(self) -> None:
        settings = connection.settings_dict
        self.host, self.port = settings["HOST"] or "127.0.0.1", str(settings["PORT"] or 5432)
        self.user, self.password = settings["USER"] or "postgres", settings["PASSWORD"] or ""
        self.database = settings["NAME"]
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version_num")
            self.major = int(cursor.fetchone()[0]) // 10000
        debian = Path(f"/usr/lib/postgresql/{self.major}/bin")
        self.bin = debian if (debian / "pg_dump").exists() else None

    def tool(self, name: str) -> str | None:
        path = self.bin / name if self.bin else shutil.which(name)
        return str(path) if path and Path(path).exists() else None

    def why_unusable(self) -> str | None:
        for name in ("pg_dump", "pg_restore", "createdb", "dropdb"):
            path = self.tool(name)
            if path is None:
                return f"no {name} for PostgreSQL {self.major}"
            version = subprocess.run([path, "--version"], capture_output=True, text=True).stdout.split()
            if name == "pg_dump" and (not version or int(version[-1].split(".")[0]) < self.major):
                return f"{path} is older than the server ({self.major}): it refuses to dump it"
        return None

    def run(self, name: str, *args: str) -> None:
        env = {**os.environ, "PGPASSWORD": self.password} if self.password else dict(os.environ)
        command = [self.tool(name) or name, "-h", self.host, "-p", self.port, "-U", self.user, *args]
        result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
        assert result.returncode == 0, f"{' '.join(command)}: {result.stderr}"

    def url(self, database: str) -> str:
        password = f":{self.password}" if self.password else ""
        return f"postgres://{self.user}{password}@{self.host}:{self.port}/{database}"

    @contextmanager
    def empty_database(self) -> Iterator[str]:
        """A new database of our own on the server, dropped afterwards whatever happens."""
        name = f"backup_restore_{uuid.uuid4().hex[:12]}"
        self.run("createdb", name)
        try:
            yield name
        finally:
            self.run("dropdb", "--if-exists", "--force", name)


def empty_migrated_database(tmp_path: Path) -> str:
    """A new SQLite database, migrated and empty: the laptop an organizer falls back on when the server is
    gone (``make run``), whatever database the tests run on; PostgreSQL is restored from its own dump."""
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    manage(url, "migrate", "--no-input", "-v0")
    return url


def cli_standings(path: Path, stage: str) -> dict[str, Any]:
    out = io.StringIO()
    assert scoring_main(["standings", str(path), "--stage", stage], stdout=out, stderr=io.StringIO()) == 0
    return dict(json.loads(out.getvalue()))
