"""Bad tournament files: property-based mutations of a valid file and raw junk, through the
import service and the management command. Always a clear error (``InvalidTournament`` naming where,
exit status 2 with one line a problem), never another exception, and nothing half-saved."""

from __future__ import annotations

import copy
import json
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exchange.files import import_text
from games.models import Game
from scoring.errors import InvalidTournament
from tests.fuzz.tournament_files import paths
from tests.helpers import played_file
from tournaments.models import Participant, Player, Round, Seat, Stage, Tournament

pytestmark = pytest.mark.django_db

BASE = played_file(10, 2)
NASTY: list[Any] = [
    None, "", 0, -1, -(10**6), 2**31, 2**63, 10**30, 1e308, -1e308, 0.1, True, [], {}, [None], {"": None},
    "<script>alert(1)</script>", "Ёлкина «Злата» 🎲\u202e\u0000", "x" * 5000, "1", "-1", "NaN",
]


def tables() -> list[type[Any]]:
    return [Tournament, Player, Participant, Stage, Round, Seat, Game]


def counts() -> list[int]:
    return [model.objects.count() for model in tables()]


ALL_PATHS = paths(BASE)[1:]


@st.composite
def mutated(draw: st.DrawFn) -> dict[str, Any]:
    data = copy.deepcopy(BASE)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(ALL_PATHS))
        parent: Any = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            last = path[-1]
            if draw(st.booleans()) and isinstance(parent, dict):
                parent.pop(last, None)  # a missing field
            else:
                parent[last] = draw(st.sampled_from(NASTY) | st.integers() | st.text(max_size=30))
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation changed the tree under this path
    return data


def import_or_problem(text: str) -> Tournament | None:
    """Imports inside a savepoint rolled back afterwards (examples stay independent)."""
    before = counts()
    with transaction.atomic():
        try:
            tournament = import_text(text)
        except InvalidTournament as error:
            assert error.problems, "an InvalidTournament names its problems"
            assert all(str(p).strip() for p in error.problems)
            assert counts() == before, "nothing is half-saved"
            return None
        transaction.set_rollback(True)
        return tournament


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=mutated())
def test_mutated_files_import_or_are_refused_cleanly(data: dict[str, Any]) -> None:
    import_or_problem(json.dumps(data, ensure_ascii=False))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_junk_text_is_refused(text: str) -> None:
    assert import_or_problem(text) is None


@pytest.mark.parametrize("text", [
    "", "{", "[]", "null", "1e999", "[" * 5000, '{"a": ' * 3000, '{"format": "mafia-tournament/1"}', '{"format": NaN}',
    json.dumps({**BASE, "players": [{"id": "p001", "name": "x"}] * 2}),
    json.dumps(BASE).replace('"fouls": 1', '"fouls": -1', 1),
    json.dumps(BASE).replace('"fouls": 1', '"fouls": 99999999999999999999', 1),
    json.dumps(BASE).replace('"table": 1', '"table": 99999999999999999999', 1),
    json.dumps(BASE).replace('"number": 1', '"number": -5', 1),
    json.dumps(BASE).replace('"extra": 0.5', '"extra": 1e308', 1),
    json.dumps(BASE).replace('"player": "p003"', '"player": "nobody"', 1),
    json.dumps(BASE).replace('"name": "\\u0418', '"name": "\\u0000\\u0418', 1),
    json.dumps(BASE).replace('"judge": "', '"judge": "\\u0000', 1),
])
def test_known_bad_files(text: str) -> None:
    assert import_or_problem(text) is None


def test_names_with_html_and_unicode_are_kept_as_text() -> None:
    data = copy.deepcopy(BASE)
    data["players"][0]["name"] = "<script>alert(1)</script> Ёлкина 🎲"
    data["tournament"]["name"] = "<b>Кубок</b> & «Полночь»"
    tournament = import_text(json.dumps(data, ensure_ascii=False))
    assert tournament.name == "<b>Кубок</b> & «Полночь»"
    assert Participant.objects.filter(tournament=tournament, player__surname__contains="<script>").exists() or \
        Player.objects.filter(nickname__contains="<script>").exists() or \
        any("<script>" in str(p.player) for p in tournament.participants.select_related("player"))


def run_command(*args: str) -> tuple[int, str, str]:
    out, err = StringIO(), StringIO()
    try:
        call_command("import_tournament", *args, stdout=out, stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("content", [
    b"", b"{", b"\xff\xfe not utf-8 \xc3\x28", b"[" * 5000, b"[1, 2]", json.dumps({"format": "nope"}).encode(),
    json.dumps(BASE).replace('"seat": 1', '"seat": 0', 1).encode(),
])
def test_the_command_reports_bad_files_with_status_2(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    before = counts()
    status, out, err = run_command(str(path))
    assert status == 2
    assert err.strip() and "Traceback" not in err
    assert out == ""
    assert counts() == before


def test_the_command_imports_a_good_file(tmp_path: Path) -> None:
    path = tmp_path / "good.json"
    path.write_text(json.dumps(BASE, ensure_ascii=False), encoding="utf-8")
    status, out, _err = run_command(str(path))
    assert status == 0
    assert Tournament.objects.filter(slug=out.strip()).exists()


def test_the_command_reports_a_missing_file(tmp_path: Path) -> None:
    status, _out, err = run_command(str(tmp_path / "missing.json"))
    assert status == 2 and "cannot read" in err

