"""Backups (README "Backups"): the backup command's files, written whole and pruned; an export read as one
moment while protocols are saved; caches after a database restored from an older backup."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from exchange.backup import backup_all, prune, write_atomically
from exchange.files import export_data, import_text
from games.models import Game
from tests.deploy.backup_day import (
    EXAMPLES,
    POSTGRESQL,
    SLUG,
    cli_standings,
)
from tests.helpers import played_file
from tournaments.models import Tournament
from tournaments.services import penalties

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
