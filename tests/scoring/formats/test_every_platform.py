"""What every registered platform converter promises (docs/formats.md), whatever the platform: each of the four
shared examples exports and reads back as ``kept`` says, what is not kept is named in ``lost``, a seating reads
back as the same seating, another platform's document is refused by name, and ``python -m scoring convert``
does the same from the command line (exit 2 and the problem named for a bad document)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from scoring import fileio
from scoring.filejson import dumps
from scoring.formats import PLATFORMS, FormatError
from scoring.model import Tournament
from tests.scoring.build import run_cli

DATA = Path(__file__).resolve().parents[1] / "data"
EXAMPLES = ["tomsk", "kostroma", "fiim", "zvezdy"]
NAMES = sorted(PLATFORMS)


def example(ruleset: str) -> Tournament:
    return fileio.loads((DATA / f"{ruleset}-example.json").read_text())


def seating_only(t: Tournament) -> Tournament:
    """The tournament's first round as a seating: the same players at the same tables and seats, no result."""
    stage = t.stages[0]
    first = stage.rounds[0]
    games = tuple(dataclasses.replace(g, winner=None, first_killed=None, best_move=(), circles=(),
                                      mafia_missed_three_nights=False, protests=(), log=(), notes=None,
                                      seats=tuple(dataclasses.replace(s, fouls=0, removed=False, best=False,
                                                                      extra=s.extra * 0, subjective=None,
                                                                      days_survived=None) for s in g.seats))
                  for g in first.games)
    return dataclasses.replace(t, stages=(dataclasses.replace(stage, rounds=(dataclasses.replace(
        first, games=games, byes=(), absent=(), penalties=()),)),))


def seats_of(t: Tournament) -> list[tuple[str, int, int, int, str]]:
    return sorted((s.id, r.number, g.table, seat.seat, seat.player)
                  for s in t.stages for r in s.rounds for g in r.games for seat in g.seats)


def test_the_contract_names_are_registered() -> None:
    """CONTRACT: FORMAT is one of these (those whose public definition exists, docs/formats.md)."""
    assert set(NAMES) <= {"gomafia", "mwt", "imafia", "mafiaratings", "polemica"}
    assert NAMES, "no platform converter is registered"


@pytest.mark.parametrize("ruleset", EXAMPLES)
@pytest.mark.parametrize("name", NAMES)
def test_each_example_round_trips_to_what_the_format_keeps(name: str, ruleset: str) -> None:
    platform, ours = PLATFORMS[name], example(ruleset)
    exported = platform.export(ours)
    back = platform.read(exported.document, ruleset=ruleset).tournament
    kept = platform.kept(ours)
    assert back == kept
    fileio.loads(dumps(back))  # a valid tournament file
    if kept != ours:
        assert exported.lost, f"{name} keeps less of the {ruleset} example but names nothing lost"
    assert all(isinstance(line, str) and line.strip() for line in exported.lost)


@pytest.mark.parametrize("ruleset", EXAMPLES)
@pytest.mark.parametrize("name", NAMES)
def test_a_seating_reads_back_as_the_same_seating(name: str, ruleset: str) -> None:
    platform, seating = PLATFORMS[name], seating_only(example(ruleset))
    back = platform.read(platform.export(seating).document, ruleset=ruleset).tournament
    assert seats_of(back) == seats_of(platform.kept(seating))


@pytest.mark.parametrize("other", NAMES)
@pytest.mark.parametrize("name", NAMES)
def test_another_platforms_document_is_refused_by_name(name: str, other: str) -> None:
    if name == other:
        return
    document = PLATFORMS[other].export(example("fiim")).document
    with pytest.raises(FormatError) as refused:
        PLATFORMS[name].read(document, ruleset="fiim")
    assert name in str(refused.value)


@pytest.mark.parametrize("name", NAMES)
def test_the_command_line_converts_both_ways(name: str, tmp_path: Path) -> None:
    source = DATA / "fiim-example.json"
    document = tmp_path / f"doc.{PLATFORMS[name].extension}"
    to = run_cli("convert", str(source), "--to", name, "--out", str(document))
    assert to.returncode == 0, to.stderr
    assert to.stdout == ""
    assert to.stderr.splitlines() == [f"lost: {line}" for line in PLATFORMS[name].export(example("fiim")).lost]
    back = run_cli("convert", str(document), "--from", name, "--ruleset", "fiim")
    assert back.returncode == 0, back.stderr
    assert fileio.loads(back.stdout) == PLATFORMS[name].kept(example("fiim"))


@pytest.mark.parametrize("name", NAMES)
def test_the_command_line_names_a_bad_document_and_exits_2(name: str, tmp_path: Path) -> None:
    truncated = tmp_path / "truncated.json"
    truncated.write_text(PLATFORMS[name].export(example("fiim")).document[:40])
    result = run_cli("convert", str(truncated), "--from", name)
    assert (result.returncode, result.stdout) == (2, "")
    assert name in result.stderr and result.stderr.strip()
    missing = run_cli("convert", str(tmp_path / "absent.json"), "--from", name)
    assert missing.returncode == 2 and "cannot read the file" in missing.stderr


def test_an_unknown_format_is_refused_with_the_list() -> None:
    result = run_cli("convert", str(DATA / "fiim-example.json"), "--to", "nowhere")
    assert result.returncode == 2
    assert all(name in result.stderr for name in NAMES)


def test_help_lists_the_formats() -> None:
    result = run_cli("convert", "--help")
    assert result.returncode == 0
    assert all(name in result.stdout for name in NAMES)



@pytest.mark.parametrize("ruleset", EXAMPLES)
@pytest.mark.parametrize("name", NAMES)
def test_players_of_one_name_stay_apart(name: str, ruleset: str) -> None:
    """Two players of one name (no nickname, no platform id) read back as one player on the platforms that know a
    player by a name: their games merged in the rating. With every two players of the example sharing a name, as
    many players read back as without, each still in their own seats, and ``lost`` names how each was written."""
    platform, ours = PLATFORMS[name], example(ruleset)
    shared = dataclasses.replace(ours, players=tuple(
        dataclasses.replace(p, name=f"Алексеева Ольга {i // 2}", nickname=None) for i, p in enumerate(ours.players)))
    exported = platform.export(shared)
    back = platform.read(exported.document, ruleset=ruleset).tournament
    assert back == platform.kept(shared)
    assert len(seated(back)) == len(seated(platform.kept(ours)))
    assert len(seats_of(back)) == len(seats_of(platform.kept(ours)))
    if not seated(back):  # the platform holds none of the regulation's games (tomsk's tables of 12, the doctor)
        return
    if name != "mwt":  # MWT adds the id to a shared nickname itself (scoring/formats/mwt/writing.py shown_names)
        assert any("another player has the name" in line for line in exported.lost), exported.lost


def seated(t: Tournament) -> set[str]:
    return {player for _stage, _round, _table, _seat, player in seats_of(t)}
