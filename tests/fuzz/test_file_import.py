"""The tournament file, fuzzed: small valid files of every ruleset (``scoring.generate``) mutated by
replacing, deleting and adding leaves and keys with bad JSON values (NaN, Infinity, 1e400, 5,000-digit
integers, unpaired surrogates written as JSON escapes, names of spaces, keys given twice, deep nesting, HTML,
very long texts, wrong types, values moved from elsewhere in the file), and raw junk text and bytes, through
every way a file gets in: the import service, the browser's import page, ``python -m scoring validate`` and
``standings``, and ``python manage.py import_tournament`` (in-process, and once as a real process to see that
no traceback reaches the terminal). A file is imported whole or refused with problems and nothing saved;
a command line exits 0 or 2, never 1 or with an exception."""

from __future__ import annotations

import copy
import functools
import io
import os
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import connection, transaction
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import cli, fileio
from scoring.errors import InvalidTournament
from tests.fuzz.tournament_files import (
    BASES,
    DEEP,
    FILES,
    JUNK_BYTES,
    ROOT,
    Raw,
    as_bytes,
    base_file,
    encode,
)
from tests.helpers import sqlite_copy

from .conftest import FUZZ

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User


# --- the import service ------------------------------------------------------------------------------------


def counts() -> dict[str, int]:
    from games.models import Game, GameSeat
    from tournaments.models import Participant, Player, Round, Seat, Stage, Tournament

    return {model.__name__: model.objects.count()
            for model in (Tournament, Player, Participant, Stage, Round, Seat, Game, GameSeat)}


def test_every_base_file_is_valid_and_imports(db: Any) -> None:
    """The mutations start from files that are right: each validates, imports and ranks."""
    from exchange.files import import_text

    for data in BASES:
        text = encode(data)
        with transaction.atomic():
            import_text(text)
            transaction.set_rollback(True)
        fileio.loads(text)


@pytest.mark.django_db
def test_import_service_imports_or_refuses_cleanly(fuzz_inputs: Any) -> None:
    from exchange.files import import_text

    @settings(FUZZ, max_examples=2400)
    @given(text=FILES)
    def run(text: str) -> None:
        fuzz_inputs()
        with transaction.atomic():
            before = counts()
            try:
                import_text(text)
            except InvalidTournament as error:
                assert error.problems, "refused without a problem to show"
                assert all(str(p).strip() for p in error.problems), "an empty problem line"
                assert counts() == before, "refused, yet rows were saved"
            transaction.set_rollback(True)

    run()


# --- the browser's import page ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_import_page_imports_or_refuses_cleanly(make_user: Callable[..., User], fuzz_inputs: Any) -> None:
    user = make_user("importer", can_create=True)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)

    @settings(FUZZ, max_examples=300)
    @given(body=FILES.map(as_bytes) | JUNK_BYTES, name=st.sampled_from(["t.json", "", "../../x.json", "t.txt"]),
           field=st.sampled_from(["file", "file", "file", "upload"]))
    def run(body: bytes, name: str, field: str) -> None:
        fuzz_inputs()
        with transaction.atomic():
            before = counts()
            upload = SimpleUploadedFile(name or "x", body, content_type="application/json")
            response = client.post("/import/", {field: upload})
            assert response.status_code in (200, 302, 400), (response.status_code, body[:200])
            if response.status_code != 302:
                assert counts() == before, ("refused, yet rows were saved", body[:200])
            transaction.set_rollback(True)

    run()


# --- python -m scoring validate / standings, in-process -----------------------------------------------------


def run_cli(argv: list[str], stdin: Any, monkeypatch: Any) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stdin", stdin)
    # one parser for all the calls of a test (the same every time): building one was half of each call, argparse
    # looking up each of its help texts in gettext's files
    if not hasattr(cli.build_parser, "cache_info"):
        monkeypatch.setattr(cli, "build_parser", functools.cache(cli.build_parser))
    code = cli.main(argv, out, err)
    return code, out.getvalue(), err.getvalue()


def test_scoring_command_line_exits_0_or_2(monkeypatch: Any, fuzz_inputs: Any) -> None:
    stage = st.sampled_from([None, "s1", "s2", "qualifying", "", "nope", "\ud800", "<script>", "x" * 500])

    @settings(FUZZ, max_examples=2800)
    @given(text=FILES, binary=st.booleans(), command=st.sampled_from(["validate", "standings", "standings-text"]),
           stage=stage)
    def run(text: str, binary: bool, command: str, stage: str | None) -> None:
        fuzz_inputs()
        argv = ["standings", "-", "--format", "text"] if command == "standings-text" else [command.split("-")[0], "-"]
        if stage is not None and command != "validate":
            argv += ["--stage", stage]
        stdin = io.TextIOWrapper(io.BytesIO(as_bytes(text)), encoding="utf-8") if binary else io.StringIO(text)
        code, out, err = run_cli(argv, stdin, monkeypatch)
        assert code in (0, 2), (code, err[-500:])
        if code == 2:
            assert err.strip(), "exit 2 without saying why"
        else:
            assert out.strip()
            if command == "validate":
                assert out.strip() == "ok"

    run()


def test_scoring_command_line_on_raw_bytes(monkeypatch: Any, fuzz_inputs: Any) -> None:
    @settings(FUZZ, max_examples=200)
    @given(body=JUNK_BYTES, command=st.sampled_from(["validate", "standings"]))
    def run(body: bytes, command: str) -> None:
        fuzz_inputs()
        code, _out, err = run_cli([command, "-"], io.TextIOWrapper(io.BytesIO(body), encoding="utf-8"), monkeypatch)
        assert code in (0, 2), (code, err[-500:])

    run()


# --- python manage.py import_tournament ---------------------------------------------------------------------


SLUGS = st.none() | st.sampled_from(["fuzz-cup", "cup.2025", "../escaped", "a\nb", "", " ", "x" * 300, "Кубок",
                                     "<script>", "\x00", "-", "fuzz_cup"])


@pytest.mark.django_db
def test_import_command_exits_2_or_imports(tmp_path: Path, make_user: Callable[..., User], fuzz_inputs: Any) -> None:
    make_user("boss")
    path = tmp_path / "file.json"

    @settings(FUZZ, max_examples=200)
    @given(body=FILES.map(as_bytes) | JUNK_BYTES, slug=SLUGS,
           organizer=st.sampled_from([[], ["boss"], ["nobody"], ["boss", "\ud800"]]))
    def run(body: bytes, slug: str | None, organizer: list[str]) -> None:
        fuzz_inputs()
        path.write_bytes(body)
        options: dict[str, Any] = {"organizer": organizer}
        if slug is not None:
            options["slug"] = slug
        out, err = io.StringIO(), io.StringIO()
        with transaction.atomic():
            before = counts()
            try:
                call_command("import_tournament", str(path), stdout=out, stderr=err, **options)
            except SystemExit as exit_:
                assert exit_.code == 2, (exit_.code, err.getvalue()[-500:])
                assert err.getvalue().strip(), "exit 2 without saying why"
                assert counts() == before, "refused, yet rows were saved"
            else:
                assert out.getvalue().strip(), "imported without printing the slug"
            transaction.set_rollback(True)

    run()


KOSTROMA = base_file("kostroma", 12, 2, 1, 1, True)


def nastiest(data: dict[str, Any]) -> dict[str, Any]:
    """One file with every number and text JSON lets through but no file can hold, each in its own place."""
    seats = data["stages"][0]["rounds"][0]["games"][0]["seats"]
    seats[0]["seat"] = Raw("NaN")
    seats[1]["fouls"] = Raw("Infinity")
    seats[2]["fouls"] = Raw("1e400")
    seats[3]["seat"] = Raw("7" * 5000)
    data["players"][0]["name"] = Raw('"\\ud800"')
    data["players"][1] = Raw(encode(data["players"][1])[:-1] + ', "id": "p0002"}')
    return data


@pytest.mark.django_db
def test_import_command_in_a_real_process_prints_no_traceback(tmp_path: Path, fuzz_inputs: Any) -> None:
    """``python manage.py import_tournament`` as an organizer runs it, on the nastiest files: exit 2, problems on
    stderr, never a traceback (the database: on SQLite a copy of the test database)."""
    if connection.vendor == "sqlite":
        url = sqlite_copy(tmp_path / "db.sqlite3")
    else:  # the test database itself: the files are refused before anything is written
        db = connection.settings_dict
        url = f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"
    files = {"nastiest.json": as_bytes(encode(nastiest(copy.deepcopy(KOSTROMA)))),
             "deep.json": ('{"format": ' + "[" * DEEP + "]" * DEEP + "}").encode(),
             "spaces.json": as_bytes(encode({**KOSTROMA, "players": [{"id": "p0001", "name": "   "},
                                                                    *KOSTROMA["players"][1:]]}))}
    for name, body in files.items():
        (tmp_path / name).write_bytes(body)
    env = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings"}
    env.pop("REDIS_URL", None)
    for name, expected in [("nastiest.json", ["NaN", "Infinity", "1e400", "5000 digits", "surrogate",
                                              '"id" appears 2 times']),
                           ("deep.json", ["nested too deep"]),
                           ("spaces.json", ["players.0.name: a name of spaces only"])]:
        fuzz_inputs()
        args = [sys.executable, "manage.py", "import_tournament", str(tmp_path / name)]
        result = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert "Traceback" not in result.stderr, (name, result.stderr[-2000:])
        assert result.returncode == 2, (name, result.returncode, result.stderr[-2000:])
        for words in expected:
            assert words in result.stderr, (name, words, result.stderr[-2000:])
