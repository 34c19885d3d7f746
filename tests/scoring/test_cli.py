"""``python -m scoring`` as docs/command-line.md promises: outputs, formats, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.scoring.build import dumps, game, players, round_, run_cli, stage, tournament

DATA = Path(__file__).parent / "data"
TEN = players(10)


def test_validate_prints_ok() -> None:
    result = run_cli("validate", str(DATA / "fiim-example.json"))
    assert (result.returncode, result.stdout, result.stderr) == (0, "ok\n", "")


def test_invalid_file_exits_2_with_one_line_per_problem() -> None:
    data = tournament("fiim", [stage("qualifying", [round_(3, [
        game("fiim", TEN, "red", table=2, seats={2: {"role": "don"}, 6: {"extra": 0.5}})])])])
    result = run_cli("validate", "-", stdin=dumps(data))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "stage qualifying, round 3, table 2: 1 mafia at the table; fiim expects 2",
        "stage qualifying, round 3, table 2: 2 dons at the table; fiim expects 1",
        "stage qualifying, round 3, table 2, seat 6: a winning player can get 0 or 1 extra points under fiim",
    ]


def test_unreadable_and_non_json_input_exit_2() -> None:
    missing = run_cli("validate", "/nonexistent/file.json")
    assert missing.returncode == 2 and "cannot read the file" in missing.stderr
    garbage = run_cli("standings", "-", stdin="{not json")
    assert garbage.returncode == 2 and garbage.stderr.startswith("not JSON:")


def test_standings_json_defaults_to_the_last_stage_with_a_result() -> None:
    result = run_cli("standings", str(DATA / "kostroma-example.json"))
    assert result.returncode == 0
    out = json.loads(result.stdout)
    assert out["ruleset"] == "kostroma" and out["stage"] == "final"
    first = out["standings"][0]
    assert set(first) == {"rank", "player", "name", "points", "games", "wins", "eligible", "tiebreaks"}
    assert list(first["tiebreaks"]) == ["extra", "wins", "don_sheriff_wins"]
    assert "winners" in out and "teams" not in out
    ranks = [row["rank"] for row in out["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1


def test_standings_of_a_chosen_stage_and_teams() -> None:
    result = run_cli("standings", str(DATA / "tomsk-example.json"), "--stage", "qualifying")
    out = json.loads(result.stdout)
    assert out["stage"] == "qualifying" and len(out["teams"]) == 6 and "winners" not in out
    guests = {p["id"] for p in json.loads((DATA / "tomsk-example.json").read_text())["players"] if p.get("guest")}
    assert not guests & {row["player"] for row in out["standings"]}


def test_standings_text_is_a_readable_table() -> None:
    result = run_cli("standings", str(DATA / "fiim-example.json"), "--stage", "qualifying", "--format", "text")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "fiim · stage qualifying (qualifying)"
    assert lines[2].split()[:6] == ["#", "player", "name", "points", "games", "wins"]
    assert lines[-1].startswith("advance (30): ")


def test_advance_lists_ids_best_first() -> None:
    result = run_cli("advance", str(DATA / "fiim-example.json"), "--stage", "qualifying")
    out = json.loads(result.stdout)
    assert out["stage"] == "qualifying" and len(out["advance"]) == 30
    standings = json.loads(run_cli("standings", str(DATA / "fiim-example.json"), "--stage", "qualifying").stdout)
    assert out["advance"] == [row["player"] for row in standings["standings"][:30]]
    final = json.loads(run_cli("advance", str(DATA / "fiim-example.json"), "--stage", "final").stdout)
    assert final == {"stage": "final", "advance": []}


def test_unknown_stage_exits_2() -> None:
    result = run_cli("standings", str(DATA / "fiim-example.json"), "--stage", "nope")
    assert result.returncode == 2
    assert result.stderr.strip() == "stage nope: no such stage in the tournament"


def test_a_bug_exits_1() -> None:
    # A crash inside the package (here: standings made to raise) is a bug: exit 1, not 2.
    code = ("import runpy, sys\n"
            "import scoring.standings\n"
            "def boom(*args, **kwargs):\n    raise RuntimeError('boom')\n"
            "scoring.standings.compute_standings = boom\n"
            f"sys.argv = ['scoring', 'standings', {str(DATA / 'fiim-example.json')!r}]\n"
            "runpy.run_module('scoring', run_name='__main__', alter_sys=True)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False,
                            cwd=DATA.parents[2])
    assert result.returncode == 1 and "RuntimeError: boom" in result.stderr
