"""Each command of ``python -m scoring`` imports only what it uses (bench/README.md "The command line"):
the standings need neither the seating engine nor ``jsonschema`` (which only names an invalid file's problems),
and no command loads Django. Run as the real entry point, in a fresh interpreter; no timing here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.scoring.build import REPOSITORY

DATA = REPOSITORY / "tests" / "scoring" / "data"
EXAMPLE = str(DATA / "fiim-example.json")

# Runs ``python -m scoring ARGS`` as ``__main__`` and prints, as JSON, its exit status and the modules of
# interest loaded by then.
PROBE = """
import json, runpy, sys
sys.argv = ["scoring", *json.loads(sys.argv[1])]
try:
    runpy.run_module("scoring", run_name="__main__", alter_sys=True)
except SystemExit as done:
    code = done.code
watched = ("jsonschema", "jsonschema_rs", "django", "scoring.seating", "scoring.round_planning", "traceback")
loaded = sorted(m for m in sys.modules if m.split(".")[0] in watched or m.startswith(watched))
print(json.dumps({"code": code, "loaded": loaded}), file=sys.__stderr__)
"""


def modules_loaded(*args: str, stdin: str | None = None) -> tuple[int, set[str]]:
    result = subprocess.run([sys.executable, "-c", PROBE, json.dumps(list(args))], input=stdin, capture_output=True,
                            text=True, check=False, cwd=REPOSITORY)
    report = json.loads(result.stderr.strip().splitlines()[-1])
    return report["code"], set(report["loaded"])


def seating(loaded: set[str]) -> set[str]:
    return {m for m in loaded if m.startswith(("scoring.seating", "scoring.round_planning"))}


@pytest.mark.parametrize("args", [
    ("validate", EXAMPLE),
    ("standings", EXAMPLE),
    ("standings", EXAMPLE, "--stage", "qualifying", "--format", "text"),
    ("advance", EXAMPLE, "--stage", "qualifying"),
    ("explain", EXAMPLE, "--stage", "qualifying", "--player", "p001"),
    ("needs", EXAMPLE, "--stage", "qualifying", "--rounds-left", "1"),
], ids=lambda args: " ".join(a for a in args if a != EXAMPLE))
def test_reading_and_standings_load_no_seating_no_jsonschema_no_django(args: tuple[str, ...]) -> None:
    code, loaded = modules_loaded(*args)
    assert code == 0
    assert "jsonschema_rs" in loaded  # the file is checked against the schema, by the compiled validator
    assert seating(loaded) == set()
    assert {m for m in loaded if m.split(".")[0] in ("jsonschema", "django")} == set()
    assert "traceback" not in loaded  # only for a crash


@pytest.mark.parametrize("args", [
    ("seat", EXAMPLE, "--stage", "qualifying", "--method", "random"),
    ("seating-report", EXAMPLE),
], ids=lambda args: args[0])
def test_seating_commands_load_the_seating_engine_and_still_no_jsonschema(args: tuple[str, ...]) -> None:
    code, loaded = modules_loaded(*args)
    assert code == 0
    assert "scoring.seating" in loaded and "scoring.round_planning" in loaded
    assert {m for m in loaded if m.split(".")[0] in ("jsonschema", "django")} == set()


def test_an_invalid_file_loads_jsonschema_to_name_its_problems() -> None:
    data = json.loads((DATA / "fiim-example.json").read_text())
    data["players"][0]["unknown"] = 1
    code, loaded = modules_loaded("standings", "-", stdin=json.dumps(data))
    assert code == 2
    assert "jsonschema" in loaded  # the probe sees a module when it is imported
    assert seating(loaded) == set()
