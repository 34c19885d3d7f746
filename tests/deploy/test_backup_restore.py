"""Backups (README "Backups", issue 8): a tournament day's database, dumped and restored into an empty
database, and every tournament's file, imported into an empty freshly migrated database, give the same
standings; the restored app is run as a separate process, the way an organizer would run it.

The day is built through the app's services: a played fiim qualifying with a round whose protocols went
through judges, a protest upheld (the confirmed protocol reopened and corrected) and one pending, a submitted
protocol, a penalty, an absence, a bye, a disqualification, a gap in the participants' numbers, judges,
a keep-apart pair and a draft round; beside it the example files of every ruleset.
"""

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

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from exchange.backup import BACKUP_NAME, backup_all, prune, write_atomically
from exchange.files import export_data, import_text
from games.models import Game
from games.permissions import staff_of
from games.services import protests, staff
from games.services import protocol as service
from running.services.seating import mark_absent, publish_round
from scoring.cli import main as scoring_main
from tests.deploy.restore_probe import observe
from tests.helpers import ROLES, played_file
from tournaments.models import Bye, Participant, Player, Round, Seat, Table, Tournament
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


@pytest.fixture
def day(organizer: Any, make_user: Callable[..., User]) -> dict[str, Tournament]:
    tournaments = {SLUG: build_day(organizer, make_user)}
    for path in sorted(EXAMPLES.glob("*.json")):
        tournaments[path.stem] = import_text(path.read_text(encoding="utf-8"), slug=path.stem, organizers=[organizer])
    return tournaments


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


# --- the database backup ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not POSTGRESQL, reason="the tests run on SQLite (DATABASE_URL is not PostgreSQL): "
                                           "test_an_sqlite_backup_restores_everything covers the database backup")
def test_a_postgresql_dump_restored_into_an_empty_database_gives_back_everything(day: Any, tmp_path: Path) -> None:
    server = Postgres()
    if reason := server.why_unusable():
        pytest.skip(reason)
    before = as_json(observe(everything=True))
    dump = tmp_path / "mafia.dump"
    server.run("pg_dump", "-Fc", "--no-owner", "-f", str(dump), server.database)
    with server.empty_database() as name:
        server.run("pg_restore", "--no-owner", "--exit-on-error", "-d", name, str(dump))
        after = probe(server.url(name), "observe", "--everything")
        probe(server.url(name), "write", SLUG)  # the restored database takes new rows
    assert after == before
    restored = after[SLUG]
    assert restored["protocols"]["qualifying/3/1"]["state"] == "confirmed"
    assert [h[1] for h in restored["protocols"]["qualifying/3/1"]["history"]][-3:] == [
        "submitted", "submitted", "confirmed"]  # reopened by the upheld protest, corrected, confirmed again
    assert restored["protocols"]["qualifying/3/2"]["state"] == "submitted"
    assert restored["judges"] == [["chief", True], ["judge", False]] and restored["keep_apart"]
    assert restored["disqualified"] == {"p013": "an unsporting agreement"}


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(POSTGRESQL, reason="the tests run on PostgreSQL: the pg_dump test covers the database backup")
def test_an_sqlite_backup_restores_everything(day: Any, tmp_path: Path) -> None:
    before = as_json(observe(everything=True))
    out = io.StringIO()
    call_command("backup_tournaments", str(tmp_path / "backups"), stdout=out)
    [database] = [Path(line) for line in out.getvalue().split() if line.endswith(".sqlite3")]
    copy = tmp_path / "restored.sqlite3"
    shutil.copyfile(database, copy)  # restoring is putting the copy back in place of db.sqlite3
    after = probe(f"sqlite:///{copy}", "observe", "--everything")
    probe(f"sqlite:///{copy}", "write", SLUG)
    assert after == before


# --- the tournament files -----------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_tournament_files_restore_into_an_empty_database_with_the_same_standings(
    day: Any, tmp_path: Path
) -> None:
    before = as_json(observe(everything=False))
    out = io.StringIO()
    call_command("backup_tournaments", str(tmp_path / "backups"), stdout=out)
    files = {BACKUP_NAME.match(path.name)["series"]: path  # type: ignore[index]
             for path in map(Path, out.getvalue().split()) if path.suffix == ".json"}
    assert set(files) == set(day)
    url = empty_migrated_database(tmp_path)
    after = probe(url, "import", *(f"{slug}={path}" for slug, path in files.items()))
    assert after == before  # the files, both standings of every stage, numbers, disqualifications
    # README's check: the restored tournament exported again is the backup file, byte for byte.
    assert manage(url, "export_tournament", SLUG) == files[SLUG].read_text(encoding="utf-8")
    for slug, path in files.items():
        for stage, (status, answer) in after[slug]["api"].items():
            if status == 200:  # hidden standings are refused to anyone anonymous, before and after
                assert answer == cli_standings(path, stage)
    assert after[SLUG]["numbers"]["p023"] == 23 and after[SLUG]["disqualified"] == {"p013": "an unsporting agreement"}
    assert after["zvezdy-example"]["api"]["qualifying"][0] == 403


def cli_standings(path: Path, stage: str) -> dict[str, Any]:
    out = io.StringIO()
    assert scoring_main(["standings", str(path), "--stage", stage], stdout=out, stderr=io.StringIO()) == 0
    return dict(json.loads(out.getvalue()))


@pytest.mark.django_db
def test_numbers_with_gaps_and_disqualifications_travel_in_the_file(
    organizer: Any, make_user: Callable[..., User]
) -> None:
    """Found by these tests: the file lost both, so a tournament restored from it renumbered the players
    after a gap (a removed registration, a rejected application) and seated a disqualified player again."""
    original = build_day(organizer, make_user)
    data = export_data(original)
    assert data["tournament"]["player_numbers"]["p023"] == 23
    assert data["tournament"]["disqualifications"][0]["player"] == "p013"
    restored = import_text(json.dumps(data), slug="restored")
    assert restored.participants.get(ext_id="p023").number == 23
    assert restored.participants.get(ext_id="p013").disqualification_reason == "an unsporting agreement"
    assert "player_numbers" not in restored.info_other  # read into the rows, not kept twice
    assert export_data(restored) == data


@pytest.mark.django_db
@pytest.mark.parametrize(("extra", "problem"), [
    ({"player_numbers": {"p001": 2, "p002": 2}}, "p001 and p002 both have number 2"),
    ({"player_numbers": {"p001": 0}}, "whole numbers from 1"),
    ({"player_numbers": {"nobody": 5}}, "player nobody is not in the file's players"),
    ({"player_numbers": [1, 2]}, "whole numbers from 1"),
    ({"disqualifications": [{"player": "p001"}]}, "must be a list of"),
    ({"disqualifications": [{"player": "nobody", "reason": "x"}]}, "player nobody is not in the file's players"),
    ({"disqualifications": [{"player": "p001", "reason": "x", "at": "yesterday"}]}, "is not a date and time"),
    ({"disqualifications": [{"player": "p001", "reason": "x"}, {"player": "p001", "reason": "y"}]},
     "disqualified twice"),
])
def test_bad_numbers_and_disqualifications_in_a_file_are_listed_and_nothing_is_saved(
    extra: dict[str, Any], problem: str
) -> None:
    from django.utils import translation

    from scoring.errors import InvalidTournament

    data = played_file(10, 1)
    data["tournament"].update(extra)
    with translation.override("en"), pytest.raises(InvalidTournament) as raised:
        import_text(json.dumps(data))
    assert problem in str(raised.value)
    assert not Tournament.objects.exists() and not Participant.objects.exists()


@pytest.mark.django_db
def test_a_file_restored_by_the_command_gets_its_address_and_organizers(organizer: Any, tmp_path: Path) -> None:
    """The file carries neither the tournament's address nor users: the restore gives both."""
    source = EXAMPLES / "tomsk-example.json"
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("import_tournament", str(source), slug="cup", organizer=["director", "ghost"], stderr=err)
    assert exited.value.code == 2 and "no user 'ghost'" in err.getvalue() and not Tournament.objects.exists()
    call_command("import_tournament", str(source), slug="cup", organizer=["director"], stdout=out)
    assert out.getvalue().strip() == "cup"
    assert list(Tournament.objects.get(slug="cup").organizers.all()) == [organizer]


# --- the backup command -------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)  # SQLite's online backup waits for the writer of an open transaction
def test_the_command_writes_whole_timestamped_files_keeps_the_newest_and_reports_a_failure(
    organizer: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    import datetime as dt

    from django.utils import timezone

    from exchange import backup

    for path in sorted(EXAMPLES.glob("*.json"))[:2]:
        import_text(path.read_text(encoding="utf-8"), slug=path.stem)
    moments = [dt.datetime(2025, 3, 15, 10 + hour, 0, tzinfo=dt.UTC) for hour in range(3)]
    for moment in moments:
        run = backup_all(tmp_path, keep=2, now=moment)
        assert not run.failed
    names = sorted(p.name for p in tmp_path.iterdir())
    database = 1 if connection.vendor == "sqlite" else 0
    assert len(names) == 2 * (2 + database)  # the two newest of each tournament (and of the database)
    newest, second, oldest = (f"fiim-example-{timezone.localtime(m).strftime('%Y%m%d-%H%M%S')}.json"
                              for m in reversed(moments))
    assert newest in names and second in names and oldest not in names
    assert not any(name.startswith(".") for name in names)  # no temporary file left
    written = json.loads((tmp_path / newest).read_text(encoding="utf-8"))
    assert written == export_data(Tournament.objects.get(slug="fiim-example"))

    # One tournament that cannot be exported: the others are written, it is named, the command exits 1.
    original = backup.export_text

    def export_text(tournament: Tournament) -> str:
        if tournament.slug == "fiim-example":
            raise RuntimeError("broken on purpose")
        return original(tournament)

    monkeypatch.setattr(backup, "export_text", export_text)
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command("backup_tournaments", str(tmp_path / "next"), stdout=out, stderr=err)
    assert exited.value.code == 1
    assert "fiim-example: not backed up: RuntimeError: broken on purpose" in err.getvalue()
    assert "fiim-params-example-" in out.getvalue()
    assert not list((tmp_path / "next").glob("fiim-example-*"))


def test_an_interrupted_write_leaves_the_earlier_backup_and_no_half_file(tmp_path: Path) -> None:
    target = tmp_path / "cup-20250315-100000.json"
    target.write_text("the earlier backup", encoding="utf-8")

    def half_then_fail(path: Path) -> None:
        path.write_text("half of it", encoding="utf-8")
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_atomically(target, half_then_fail)
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
    assert target.read_text(encoding="utf-8") == "the earlier backup"


def test_pruning_reads_the_time_from_the_end_of_names_with_hyphens(tmp_path: Path) -> None:
    names = ["cup-2025-20250315-100000.json", "cup-2025-20250315-110000.json", "cup-20250315-090000.json",
             "database-20250315-100000.sqlite3", "database-20250315-110000.sqlite3", "notes.txt"]
    for name in names:
        (tmp_path / name).write_text("x", encoding="utf-8")
    removed = prune(tmp_path, 1)
    assert [p.name for p in removed] == ["cup-2025-20250315-100000.json", "database-20250315-100000.sqlite3"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "cup-2025-20250315-110000.json", "cup-20250315-090000.json", "database-20250315-110000.sqlite3", "notes.txt"]


def test_the_sqlite_copy_is_consistent_while_another_connection_writes(tmp_path: Path) -> None:
    """The online backup the command uses on SQLite, on a plain SQLite file being written meanwhile."""
    import sqlite3
    from contextlib import closing

    source_path = tmp_path / "db.sqlite3"
    with closing(sqlite3.connect(source_path)) as source, closing(sqlite3.connect(source_path)) as writer:
        source.execute("CREATE TABLE seat (n INTEGER)")
        source.executemany("INSERT INTO seat VALUES (?)", [(n,) for n in range(5000)])
        source.commit()
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("DELETE FROM seat WHERE n < 2500")  # not committed while the copy is taken

        def copy(path: Path) -> None:
            with closing(sqlite3.connect(path)) as target:
                source.backup(target)

        target = tmp_path / "database-20250315-100000.sqlite3"
        write_atomically(target, copy)
        writer.commit()
    with closing(sqlite3.connect(target)) as restored:
        assert restored.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert restored.execute("SELECT count(*) FROM seat").fetchone() == (5000,)


# --- one moment per export, and caches after a restore -----------------------------------------------------


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not POSTGRESQL, reason="READ COMMITTED snapshots per query are PostgreSQL's")
def test_an_export_sees_one_moment_while_protocols_are_saved(organizer: Any, monkeypatch: Any) -> None:
    """Found by these tests: the export's queries each saw the database as it was at that query, so a
    backup taken while a judge saved a protocol could hold the game from before the save and its seats,
    protests or penalties from after it. It now reads one snapshot."""
    import threading

    from exchange import reading

    t = import_text(json.dumps(played_file(20, 2)), slug=SLUG, organizers=[organizer])
    round_ = t.stages.get(ext_id="qualifying").rounds.get(number=2)
    player = t.participants.get(ext_id="p001")
    original = reading.facts_of
    done: list[bool] = []

    def facts_of(*args: Any, **kwargs: Any) -> Any:
        if not done:  # between the export's first and last query, another connection commits a penalty
            def commit_a_penalty() -> None:
                penalties.add(round_, player, Decimal("-1"), "committed meanwhile")
                connection.close()

            thread = threading.Thread(target=commit_a_penalty)
            thread.start()
            thread.join()
            done.append(True)
        return original(*args, **kwargs)

    monkeypatch.setattr(reading, "facts_of", facts_of)
    exported = export_data(t)
    monkeypatch.setattr(reading, "facts_of", original)
    assert done and not exported["stages"][0]["rounds"][1].get("penalties")  # the moment the export began
    assert export_data(t)["stages"][0]["rounds"][1]["penalties"][0]["reason"] == "committed meanwhile"


@pytest.mark.django_db
def test_a_database_restored_from_an_older_backup_is_not_served_the_pages_of_the_lost_changes(
    client: Any, organizer: Any, django_capture_on_commit_callbacks: Any, tmp_path: Path
) -> None:
    """Found by these tests: after a restore from an older backup beside the same Redis, the next change
    reached a version number the lost changes had reached too, and the public pages and the API served
    what was cached for it then (ETags included). The moment a version was reached is now in both."""
    from django.urls import reverse

    from public.models import ResultsVersion

    t = import_text((EXAMPLES / "fiim-example.json").read_text(encoding="utf-8"), slug="cup",
                    organizers=[organizer])
    page = reverse("public:stage_standings", args=["cup", "qualifying"])
    api = "/api/tournaments/cup/standings/?stage=qualifying"
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        t.save()  # the backup is taken at this version
    backup = ResultsVersion.objects.filter(tournament=t).values("version", "updated").get()
    client.get(page, HTTP_HX_REQUEST="true")
    game = Game.objects.filter(table__round__stage__tournament=t).order_by("id").first()
    assert game is not None

    def change_winner(winner: str) -> None:
        with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
            Game.objects.filter(pk=game.pk).update(winner=winner)
            t.save()  # bumps the version, as any change does

    lost = "black" if game.winner == "red" else "red"
    change_winner(lost)  # a change made after the backup, lost with the crash
    lost_page = client.get(page, HTTP_HX_REQUEST="true")
    lost_api = client.get(api)
    # The restore: the rows and the version as they were at the backup (pg_restore of the older dump).
    Game.objects.filter(pk=game.pk).update(winner=game.winner)
    ResultsVersion.objects.filter(tournament=t).update(**backup)
    change_winner(game.winner)  # the change made after the restore reaches the lost change's version number
    assert ResultsVersion.objects.get(tournament=t).version == backup["version"] + 1
    served_page = client.get(page, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=lost_page["ETag"])
    served_api = client.get(api, HTTP_IF_NONE_MATCH=lost_api["ETag"])
    assert served_page.status_code == 200 and served_api.status_code == 200  # not 304 "you have it already"
    assert served_page.content != lost_page.content  # the game's winner is the restored one again
    assert served_api.json() == cli_standings_of(t, tmp_path, "qualifying") != lost_api.json()


def cli_standings_of(t: Tournament, directory: Path, stage: str) -> dict[str, Any]:
    path = directory / f"{t.slug}.json"
    path.write_text(json.dumps(export_data(t)), encoding="utf-8")
    return cli_standings(path, stage)
