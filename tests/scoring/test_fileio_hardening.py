"""Numbers, texts and sizes JSON allows but no tournament file can hold: each is a problem line
naming its place and exit status 2 from ``python -m scoring``, never a traceback (exit 1)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring import fileio
from scoring.errors import InvalidTournament
from tests.scoring.build import REPOSITORY, run_cli

DATA = Path(__file__).parent / "data"
SEAT = "stage qualifying, round 1, table 1, seat 1"


def example(name: str = "fiim") -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}-example.json").read_text(encoding="utf-8"))
    return data


def with_raw(data: dict[str, Any], path: list[Any], raw: str) -> str:
    """The file's text with the JSON value at ``path`` replaced by ``raw``, written as it is."""
    node: Any = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = "@@RAW@@"
    return json.dumps(data).replace('"@@RAW@@"', raw, 1)


def first_seat(field: str) -> list[Any]:
    return ["stages", 0, "rounds", 0, "games", 0, "seats", 0, field]


def problems(text: str) -> list[str]:
    with pytest.raises(InvalidTournament) as error:
        fileio.loads(text)
    return [str(p) for p in error.value.problems]


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
def test_a_seat_number_json_cannot_hold_names_the_seat(raw: str) -> None:
    lines = problems(with_raw(example(), first_seat("seat"), raw))
    assert len(lines) == 1 and lines[0].startswith(f"{SEAT}: seat: ") and raw in lines[0]


@pytest.mark.parametrize("raw", ["NaN", "Infinity", "1e400"])
def test_any_number_anywhere(raw: str) -> None:
    for path, where in ((first_seat("extra"), f"{SEAT}: extra: "),
                        (["stages", 0, "multiplier"], "stage qualifying: multiplier: "),
                        (["tournament", "x"], "tournament.x: ")):
        lines = problems(with_raw(example(), path, raw))
        assert len(lines) == 1 and lines[0].startswith(where), lines


def test_an_integer_of_5000_digits() -> None:
    lines = problems(with_raw(example(), first_seat("seat"), "7" * 5000))
    assert len(lines) == 1 and lines[0].startswith(f"{SEAT}: seat: ") and "5000 digits" in lines[0]
    assert len(lines[0]) < 300  # the number itself is not repeated


def test_an_unpaired_surrogate_in_a_name_and_in_a_key() -> None:
    data = example()
    data["players"][0]["name"] = "@@RAW@@"
    text = json.dumps(data).replace('"@@RAW@@"', '"Ivanov \\ud800"', 1)
    lines = problems(text)
    assert len(lines) == 1 and lines[0].startswith("players.0.name: ") and "\\ud800" in lines[0]
    lines[0].encode("utf-8")  # printable
    key = json.dumps(example()).replace('"city"', '"c\\udc00ity"', 1)
    lines = problems(key)
    assert len(lines) == 1 and lines[0].startswith("tournament: ") and "\\udc00" in lines[0]
    lines[0].encode("utf-8")


def test_duplicate_keys_are_named_with_their_place() -> None:
    text = json.dumps(example()).replace('"format": ', '"format": "x", "format": ', 1)
    assert problems(text) == ['key "format" appears 2 times in the object']
    seat = json.dumps(example()).replace('"role": "mafia"}', '"role": "mafia", "role": "mafia"}', 1)
    assert problems(seat) == [f'{SEAT}: key "role" appears 2 times in the object']


@pytest.mark.parametrize(("path", "where"), [
    (["players", 0, "name"], "players.0.name: "),
    (["players", 1, "nickname"], "players.1.nickname: "),
    (["tournament", "name"], "tournament.name: "),
    (["stages", 0, "name"], "stage qualifying: name: "),
])
def test_a_name_of_spaces_only(path: list[Any], where: str) -> None:
    data = example()
    node: Any = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = " \t\u00a0 "
    lines = problems(json.dumps(data))
    assert len(lines) == 1 and lines[0].startswith(where) and "spaces only" in lines[0]


def test_a_team_name_of_spaces_only() -> None:
    data = example("tomsk")
    data["teams"][0]["name"] = "   "
    lines = problems(json.dumps(data))
    assert len(lines) == 1 and lines[0].startswith("teams.0.name: ")


def test_nesting_too_deep() -> None:
    assert problems("[" * 100_000) == ["not a tournament file: its JSON is nested too deeply"]


def test_the_reader_stops_past_the_limit() -> None:
    """A stream is read at most limit + 1 bytes: a huge upload or pipe is refused without being read whole."""

    class Endless(io.RawIOBase):
        asked = 0

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: Any) -> int:
            Endless.asked += len(buffer)
            buffer[:] = b" " * len(buffer)
            return len(buffer)

    with pytest.raises(InvalidTournament) as error:
        fileio.read_limited(io.BufferedReader(Endless()), limit=2_000_000)
    assert str(error.value) == "the file is larger than 2 MB, the most a tournament file may be"
    assert Endless.asked <= 2_000_000 + 1 + io.DEFAULT_BUFFER_SIZE
    assert fileio.MAX_FILE_BYTES == 20 * 1000 * 1000


# --- python -m scoring ----------------------------------------------------------------------------


TABLE = ["stages", 0, "rounds", 0, "games", 0]


@pytest.mark.parametrize(("path", "raw", "where"), [
    (first_seat("extra"), "NaN", f"{SEAT}: extra: "),
    (first_seat("extra"), "1e400", f"{SEAT}: extra: "),
    (first_seat("extra"), "9" * 5000, f"{SEAT}: extra: "),
    ([*TABLE, "judge"], '"Judge \\ud800"', "stage qualifying, round 1, table 1: judge: "),
], ids=["nan", "1e400", "digits", "surrogate"])
def test_the_command_line_exits_2_with_the_place(path: list[Any], raw: str, where: str) -> None:
    text = with_raw(example(), path, raw)
    for command in ("validate", "standings"):
        result = run_cli(command, "-", stdin=text)
        assert result.returncode == 2, result.stderr
        assert result.stdout == "" and "Traceback" not in result.stderr
        assert result.stderr.startswith(where), result.stderr


def test_the_command_line_refuses_a_file_past_the_limit_before_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.json"
    with open(big, "wb") as handle:
        handle.truncate(fileio.MAX_FILE_BYTES + 1)  # sparse: nothing to write, and nothing must be read
    result = run_cli("validate", str(big))
    assert result.returncode == 2 and "larger than 20 MB" in result.stderr and "Traceback" not in result.stderr
    piped = subprocess.run([sys.executable, "-m", "scoring", "validate", "-"], input=b" " * (fileio.MAX_FILE_BYTES + 1),
                           capture_output=True, check=False, cwd=REPOSITORY)
    assert piped.returncode == 2 and b"larger than 20 MB" in piped.stderr


def test_the_command_line_reports_bad_utf8_and_deep_nesting() -> None:
    deep = run_cli("validate", "-", stdin="[" * 100_000)
    assert deep.returncode == 2 and "nested too deeply" in deep.stderr and "Traceback" not in deep.stderr
    bad = subprocess.run([sys.executable, "-m", "scoring", "validate", "-"], input=b'{"format": "\xff"}',
                         capture_output=True, check=False, cwd=REPOSITORY)
    assert bad.returncode == 2 and b"utf-8" in bad.stderr.lower() and b"Traceback" not in bad.stderr


def test_a_good_file_still_reads() -> None:
    result = run_cli("validate", str(DATA / "zvezdy-example.json"))
    assert (result.returncode, result.stdout) == (0, "ok\n")
