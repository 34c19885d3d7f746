"""Import and export of the tournament file, the demo, and the adapter's fixed query count."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command

from exchange.files import export_data, import_text
from exchange.reading import to_model
from games.models import Game
from scoring import fileio
from scoring.round_planning import seating_report
from tournaments.models import Participant, Player, Round, Stage, Tournament

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[3] / "shared" / "examples"
if not EXAMPLES.is_dir():  # CI lays shared/ beside the clone; a checkout may sit elsewhere
    EXAMPLES = Path("/work/shared/examples")
FILES = sorted(EXAMPLES.glob("*.json")) if EXAMPLES.is_dir() else []


def canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_import_then_export_gives_back_the_same_tournament(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    tournament = import_text(text)
    exported = export_data(tournament)
    assert canonical(exported) == canonical(fileio.dump(fileio.loads(text)))
    # and again: the export imports back to the same file
    again = import_text(json.dumps(exported))
    assert canonical(export_data(again)) == canonical(exported)


def test_examples_are_there() -> None:
    assert len(FILES) >= 4, f"no example files found in {EXAMPLES}"


def test_commands_round_trip_with_ids_kept(tmp_path: Path) -> None:
    source = EXAMPLES / "tomsk-example.json"
    out = io.StringIO()
    call_command("import_tournament", str(source), stdout=out)
    slug = out.getvalue().strip()
    tournament = Tournament.objects.get(slug=slug)
    assert tournament.ruleset == "tomsk"
    assert set(tournament.stages.values_list("ext_id", flat=True)) == {"qualifying", "semifinal", "final"}
    assert tournament.participants.filter(ext_id="p001", team__ext_id="t5").exists()
    out = io.StringIO()
    call_command("export_tournament", slug, stdout=out)
    original = fileio.dump(fileio.loads(source.read_text(encoding="utf-8")))
    assert canonical(json.loads(out.getvalue())) == canonical(original)


def test_invalid_file_exits_2_lists_every_problem_and_saves_nothing(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads((EXAMPLES / "fiim-example.json").read_text(encoding="utf-8"))
    game = data["stages"][0]["rounds"][0]["games"][0]
    game["seats"][0]["role"] = "don"
    game["seats"][1]["role"] = "don"
    data["stages"][0]["rounds"][1]["games"][1]["seats"][2]["extra"] = 7
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_tournament", str(bad))
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "stage qualifying, round 1, table 1" in err and "don" in err
    assert "round 2, table 2, seat 3" in err
    assert Tournament.objects.count() == 0 and Player.objects.count() == 0


def test_not_json_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    with pytest.raises(SystemExit) as exit_info:
        call_command("import_tournament", str(bad))
    assert exit_info.value.code == 2
    assert "not JSON" in capsys.readouterr().err


def test_a_date_that_is_not_a_date_saves_nothing() -> None:
    data = json.loads((EXAMPLES / "kostroma-example.json").read_text(encoding="utf-8"))
    data["tournament"]["starts"] = "next spring"
    from scoring.errors import InvalidTournament

    with pytest.raises(InvalidTournament) as error:
        import_text(json.dumps(data))
    assert "tournament.starts" in str(error.value)
    assert Tournament.objects.count() == 0 and Participant.objects.count() == 0


def test_load_demo_twice_changes_nothing() -> None:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "organizer / mafia-demo" in out.getvalue()
    counts = (Tournament.objects.count(), Participant.objects.count(), Round.objects.count(), Game.objects.count())
    call_command("load_demo", stdout=io.StringIO())
    assert counts == (Tournament.objects.count(), Participant.objects.count(), Round.objects.count(),
                      Game.objects.count())
    demo = Tournament.objects.get(slug="demo")
    assert demo.ruleset == "fiim" and demo.participants.count() == 70
    assert demo.stages.get(ext_id="qualifying").rounds.count() == 4
    assert Stage.objects.get(tournament=demo, ext_id="qualifying").planned_rounds == 7
    model = fileio.load(export_data(demo))  # valid under the rules
    # fiim's regulation: the first four rounds by "компьютерная выборка", seated and recorded so
    assert list(demo.stages.get(ext_id="qualifying").rounds.values_list("seating", flat=True)) == ["balanced"] * 4
    assert [r.seating for r in model.stage("qualifying").rounds] == ["balanced"] * 4
    figures = seating_report(model, "qualifying")  # not merely named balanced: at the bound (a shuffle: about 230)
    assert figures["max_meetings"] == 2 and figures["q"] == figures["lower_bound"]


def test_adapter_reads_any_tournament_in_the_same_number_of_queries(django_assert_num_queries: Any) -> None:
    """12 queries with every game to convert; 9 when this process converted them all before (their rows unchanged:
    ``exchange.reading.ConvertedGames``; on SQLite, which has no digest of the rows, every game is converted again)."""
    from django.db import connection

    from exchange.reading import CONVERTED

    small = import_text((EXAMPLES / "kostroma-example.json").read_text(encoding="utf-8"))
    big = import_text((EXAMPLES / "fiim-example.json").read_text(encoding="utf-8"))
    CONVERTED.clear()
    with django_assert_num_queries(12):
        to_model(small)
    with django_assert_num_queries(12):
        model = to_model(big)
    again = 9 if connection.vendor == "postgresql" else 12
    with django_assert_num_queries(again):
        to_model(small)
    with django_assert_num_queries(again):
        assert to_model(big) == model
    assert sum(len(r.games) for s in model.stages for r in s.rounds) > 40
