"""The tournament file import under bad numbers, texts and sizes: in the browser (/import/), the
command (``import_tournament``, called and as a process) each is a problem line naming its place, exit
status 2 or a 400 page, and nothing is saved; a zvezdy file that does not say takes the ruleset's default
(standings hidden)."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils.html import escape

from exchange.files import export_data, import_text, read_upload
from games.models import Game
from scoring import fileio
from scoring.errors import InvalidTournament
from tests.conftest import PASSWORD
from tests.helpers import sqlite_copy
from tournaments.models import Participant, Player, Round, Seat, Stage, Team, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "scoring" / "data"
SEAT = "stage qualifying, round 1, table 1, seat 1"


def example(name: str = "fiim") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}-example.json").read_text(encoding="utf-8"))
    return data


def with_raw(data: dict[str, Any], path: list[Any], raw: str) -> str:
    node: Any = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = "@@RAW@@"
    return json.dumps(data).replace('"@@RAW@@"', raw, 1)


def seat(field: str) -> list[Any]:
    return ["stages", 0, "rounds", 0, "games", 0, "seats", 0, field]


def spaces(path: list[Any], name: str = "fiim") -> str:
    data = example(name)
    node: Any = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = "   "
    return json.dumps(data)


BAD = {  # id: (the file's text, what the problem line starts with)
    "nan-seat": (with_raw(example(), seat("seat"), "NaN"), f"{SEAT}: seat: NaN is not a number"),
    "infinity-seat": (with_raw(example(), seat("seat"), "Infinity"), f"{SEAT}: seat: Infinity is not a number"),
    "1e400-seat": (with_raw(example(), seat("seat"), "1e400"), f"{SEAT}: seat: the number 1e400 is out of range"),
    "nan-extra": (with_raw(example(), seat("extra"), "NaN"), f"{SEAT}: extra: "),
    "1e400-extra": (with_raw(example(), seat("extra"), "1e400"), f"{SEAT}: extra: "),
    "nan-penalty": (with_raw(example(), ["stages", 0, "rounds", 0, "penalties"], '[{"player": "p001", "points": NaN}]'),
                    "stage qualifying, round 1: points: "),
    "digits-seat": (with_raw(example(), seat("seat"), "7" * 5000), f"{SEAT}: seat: "),
    "digits-extra": (with_raw(example(), seat("extra"), "7" * 5000), f"{SEAT}: extra: "),
    "surrogate-name": (with_raw(example(), ["players", 0, "name"], '"Ivanov \\ud800"'), "players.0.name: "),
    "surrogate-judge": (with_raw(example(), ["stages", 0, "rounds", 0, "games", 0, "judge"], '"\\udfff"'),
                        "stage qualifying, round 1, table 1: judge: "),
    "duplicate-key": (json.dumps(example()).replace('"role": "mafia"}', '"role": "mafia", "role": "mafia"}', 1),
                      f'{SEAT}: key "role" appears 2 times'),
    "spaces-player": (spaces(["players", 0, "name"]), "players.0.name: a name of spaces only"),
    "spaces-tournament": (spaces(["tournament", "name"]), "tournament.name: a name of spaces only"),
    "spaces-team": (spaces(["teams", 0, "name"], "tomsk"), "teams.0.name: a name of spaces only"),
    "table-past-integers": (with_raw(example(), ["stages", 0, "rounds", 0, "games", 0, "table"], "9" * 25),
                            "The file has a value the database cannot store"),
}


def tables() -> list[type[Any]]:
    return [Tournament, Player, Participant, Team, Stage, Round, Seat, Game]


def counts() -> list[int]:
    return [model.objects.count() for model in tables()]


@pytest.fixture
def english(settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_the_service_refuses_with_the_place(case: str, english: None) -> None:
    text, where = BAD[case]
    before = counts()
    with pytest.raises(InvalidTournament) as refused:
        import_text(text)
    lines = [str(p) for p in refused.value.problems]
    assert len(lines) == 1 and lines[0].startswith(where), lines
    assert counts() == before


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_the_browser_shows_the_problem_and_saves_nothing(case: str, organizer: Any) -> None:
    text, where = BAD[case]
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.login(username=organizer.username, password=PASSWORD)
    before = counts()
    response = client.post("/import/", {"file": SimpleUploadedFile("t.json", text.encode("utf-8"))})
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was imported" in page
    assert escape(where) in page
    assert counts() == before


def run_command(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("import_tournament", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_the_command_exits_2_with_the_place(case: str, tmp_path: Path) -> None:
    text, where = BAD[case]
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    before = counts()
    status, out, err = run_command(str(path))
    assert (status, out) == (2, "")
    assert err.startswith(where), err
    assert counts() == before


# --- the command as a process: no traceback, exit 2 -----------------------------------------------


@pytest.fixture
def database_url(tmp_path: Path) -> str:
    """A database the command's process can open with the test database's tables (and its rows)."""
    if connection.vendor != "sqlite":
        settings = connection.settings_dict
        return (f"postgres://{settings['USER']}:{settings['PASSWORD']}@{settings['HOST'] or 'localhost'}:"
                f"{settings['PORT'] or 5432}/{settings['NAME']}")
    return sqlite_copy(tmp_path / "copy.sqlite3")


def manage(database_url: str, *args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings"}
    env.pop("REDIS_URL", None)
    result = subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True,
                            input=stdin, timeout=60, check=False)
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode("utf-8", "replace"),
                                       result.stderr.decode("utf-8", "replace"))


def saved_tournaments(database_url: str) -> int:
    if database_url.startswith("sqlite:///"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as db:
            return int(db.execute("SELECT count(*) FROM tournaments_tournament").fetchone()[0])
    return Tournament.objects.count()


@pytest.mark.parametrize("case", ["digits-seat", "surrogate-name"])
def test_the_command_process_exits_2_without_a_traceback(case: str, tmp_path: Path, database_url: str) -> None:
    text, where = BAD[case]
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    result = manage(database_url, "import_tournament", str(path))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.startswith(where), result.stderr
    assert saved_tournaments(database_url) == 0


def test_an_organizer_name_of_bytes_not_utf8_is_an_unknown_user(tmp_path: Path, database_url: str) -> None:
    """Found by tests/fuzz/test_file_import.py: ``--organizer $'\\xff'`` (bytes of argv that are not UTF-8 reach
    Python as a lone surrogate, ``'\\udcff'``) was sent to the database, which cannot encode it: a traceback
    and exit 1. It is a user that does not exist: exit 2 saying so, nothing saved."""
    path = tmp_path / "good.json"
    path.write_text(json.dumps(example()), encoding="utf-8")
    result = manage(database_url, "import_tournament", str(path), "--organizer", "\udcff")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stderr.startswith("no user '\\udcff'"), result.stderr
    assert saved_tournaments(database_url) == 0
    assert run_command(str(path), "--organizer", "\ud800")[0::2] == (2, "no user '\\ud800': create it first "
                                                                         "(createsuperuser)\n")


# --- sizes ----------------------------------------------------------------------------------------


def test_the_limit_is_20_mb() -> None:
    assert fileio.MAX_FILE_BYTES == 20_000_000


def test_an_upload_past_the_limit_is_refused_unread(english: None) -> None:
    class Huge:
        size = fileio.MAX_FILE_BYTES + 1

        def read(self, *args: Any) -> bytes:
            raise AssertionError("read")

    with pytest.raises(InvalidTournament, match="larger than 20 MB"):
        read_upload(Huge())


def test_the_browser_refuses_a_file_past_the_limit(organizer: Any) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.login(username=organizer.username, password=PASSWORD)
    big = SimpleUploadedFile("big.json", b" " * (fileio.MAX_FILE_BYTES + 1))
    response = client.post("/import/", {"file": big})
    assert response.status_code == 400
    assert "larger than 20 MB" in response.content.decode()
    assert Tournament.objects.count() == 0


def test_the_command_refuses_a_file_past_the_limit(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(fileio.MAX_FILE_BYTES + 1)
    status, _out, err = run_command(str(big))
    assert status == 2 and "larger than 20 MB" in err


def test_the_command_reads_at_most_the_limit_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    class Endless(io.RawIOBase):
        asked = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            Endless.asked += len(buffer)
            buffer[:] = b" " * len(buffer)
            return len(buffer)

    class Stdin:
        buffer = io.BufferedReader(Endless())

    monkeypatch.setattr(sys, "stdin", Stdin())
    status, _out, err = run_command("-")
    assert status == 2 and "larger than 20 MB" in err
    assert Endless.asked <= fileio.MAX_FILE_BYTES + 1 + io.DEFAULT_BUFFER_SIZE


def test_a_good_file_from_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stdin:
        buffer = io.BytesIO((DATA / "fiim-example.json").read_bytes())

    monkeypatch.setattr(sys, "stdin", Stdin())
    status, out, _err = run_command("-", "--slug", "from-stdin")
    assert (status, out.strip()) == (0, "from-stdin")


# --- standings hidden: the ruleset's default when the file does not say ---------------------------


def test_a_zvezdy_file_without_standings_hidden_is_hidden() -> None:
    data = example("zvezdy")
    data["tournament"].pop("standings_hidden", None)
    assert import_text(json.dumps(data), slug="stars").standings_hidden is True


def test_a_zvezdy_file_published_stays_published_through_export_and_import() -> None:
    data = example("zvezdy")
    data["tournament"]["standings_hidden"] = False
    tournament = import_text(json.dumps(data), slug="stars")
    assert tournament.standings_hidden is False
    exported = export_data(tournament)
    assert exported["tournament"]["standings_hidden"] is False
    assert import_text(json.dumps(exported), slug="stars-again").standings_hidden is False


def test_a_fiim_file_without_standings_hidden_is_published() -> None:
    tournament = import_text(json.dumps(example("fiim")), slug="fiim-open")
    assert tournament.standings_hidden is False
    assert "standings_hidden" not in export_data(tournament)["tournament"]


def test_the_browser_import_of_a_zvezdy_file_hides_its_standings(organizer: Any) -> None:
    data = example("zvezdy")
    data["tournament"].pop("standings_hidden", None)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.login(username=organizer.username, password=PASSWORD)
    response = client.post("/import/", {"file": SimpleUploadedFile("z.json", json.dumps(data).encode())})
    assert response.status_code == 302
    assert Tournament.objects.get().standings_hidden is True
