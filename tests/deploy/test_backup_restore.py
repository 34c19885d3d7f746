"""Backups (README "Backups"): a tournament day's database, dumped and restored into an empty
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
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.core.management import call_command

from exchange.backup import BACKUP_NAME
from exchange.files import export_data, import_text
from tests.deploy.backup_day import (
    EXAMPLES,
    POSTGRESQL,
    SLUG,
    Postgres,
    as_json,
    build_day,
    cli_standings,
    empty_migrated_database,
    manage,
    probe,
)
from tests.deploy.restore_probe import observe
from tests.helpers import played_file
from tournaments.models import Participant, Tournament

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

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
