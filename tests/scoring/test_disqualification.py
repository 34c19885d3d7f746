"""A player disqualified from the tournament (scoring/standings.py, each ruleset's docstring): their
games still count for everyone else, they are listed last with no rank, never go on, never win."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring.standings import Standings, standings_json
from tests.scoring.build import LAYOUTS, game, players, round_, run_cli, stage, standings, tournament

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def table(ruleset: str) -> list[str]:
    return players(len(LAYOUTS[ruleset]))


def disqualify(data: dict[str, Any], *who: str) -> dict[str, Any]:
    """The file as the web app writes it: ``tournament.disqualifications``."""
    entries = [{"player": pid, "reason": f"insulted the judge ({pid})", "at": "2026-05-01T12:00:00+03:00"}
               for pid in who]
    return {**data, "tournament": {"name": "Cup", "disqualifications": entries}}


def two_stages(ruleset: str) -> dict[str, Any]:
    """A qualifying game whose lots order everyone (reds win), sending the top 3 on; a final after it."""
    seated = table(ruleset)
    qualifying = stage("q", [round_(1, [game(ruleset, seated, "red")])], lots=list(reversed(seated)),
                       advance={"top": 3})
    final = stage("f", [round_(1, [game(ruleset, seated, "red")])], lots=list(reversed(seated)))
    return tournament(ruleset, [qualifying, final])


def _reds(ruleset: str) -> set[str]:
    return {pid for pid, role in zip(table(ruleset), LAYOUTS[ruleset], strict=True)
            if role not in ("don", "mafia", "maniac")}


def order(result: Standings) -> list[str]:
    return [row.player for row in result.rows]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_disqualified_player_at_the_cut_gives_the_slot_to_the_next(ruleset: str) -> None:
    data = two_stages(ruleset)
    before = standings(data, "q")
    first, second, third, fourth = order(before)[:4]
    assert list(before.advance) == [first, second, third]
    after = standings(disqualify(data, second), "q")
    assert list(after.advance) == [first, third, fourth]
    assert order(after) == [p for p in order(before) if p != second] + [second]
    assert [row.rank for row in after.rows] == [*range(1, len(after.rows)), None]
    out = after.rows[-1]
    assert (out.player, out.rank, out.eligible, out.disqualified) == (second, None, False,
                                                                      f"insulted the judge ({second})")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_disqualified_players_games_still_count_for_the_others(ruleset: str) -> None:
    data = two_stages(ruleset)
    before = standings(data, "q")
    leader = order(before)[0]
    after = standings(disqualify(data, leader), "q")
    for row in after.rows:
        old = before.row(row.player)
        assert old is not None
        assert (row.points, row.tally.games, row.tally.wins) == (old.points, old.tally.games, old.tally.wins)
        if row.player != leader:  # their own head-to-head has no group left to be computed in
            assert dict(row.tiebreaks) == dict(old.tiebreaks), row.player


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_disqualified_leader_of_the_final_is_not_a_winner(ruleset: str) -> None:
    data = two_stages(ruleset)
    before = standings(data, "f")
    winners = list(before.winners or ())
    leader = order(before)[0]
    assert leader in winners
    after = standings(disqualify(data, leader), "f")
    assert after.winners is not None and leader not in after.winners
    assert after.rows[-1].player == leader and after.rows[-1].rank is None
    if ruleset in ("fiim", "zvezdy"):  # the best-ranked eligible player: the next one
        assert list(after.winners) == [order(before)[1]]
    else:  # the winning side of the last game in standings order, the disqualified left out
        side = [p for p in order(before) if p != leader and p in _reds(ruleset)]
        limit = 6 if ruleset == "tomsk" else None  # tomsk: at most 6, so the 7th red moves in
        assert list(after.winners) == side[:limit]
        assert set(winners) - {leader} <= set(after.winners)


def test_per_game_advancement_gives_the_place_to_the_next_of_the_game() -> None:
    # tomsk 4.6: the top 3 of each qualifying table go on. Table 1 (red won): p07 5.5, p08 4.5,
    # p09 3.5, p10 3.0; with p07 disqualified, p10 is third at that table.
    table_a, table_b = players(12), players(12, start=13)
    sp_a = {7: {"subjective": 3}, 8: {"subjective": 2}, 9: {"subjective": 1}, 10: {"subjective": 0.5}}
    sp_b = {1: {"subjective": 1}, 2: {"subjective": 0.5}}
    data = tournament("tomsk", [stage("q", [round_(1, [game("tomsk", table_a, "red", seats=sp_a),
                                                        game("tomsk", table_b, "black", table=2, seats=sp_b)])])])
    assert set(standings(data).advance) == {"p07", "p08", "p09", "p13", "p14", "p15"}
    after = standings(disqualify(data, "p07"))
    assert set(after.advance) == {"p08", "p09", "p10", "p13", "p14", "p15"}


def test_standings_json_marks_the_disqualified_and_leaves_the_others_rows_alone() -> None:
    data = two_stages("fiim")
    leader = order(standings(data, "q"))[0]
    out = standings_json(standings(disqualify(data, leader), "q"))
    rows: list[dict[str, Any]] = out["standings"]  # type: ignore[assignment]
    assert rows[-1]["player"] == leader and rows[-1]["rank"] is None
    assert rows[-1]["disqualified"] is True and rows[-1]["reason"] == f"insulted the judge ({leader})"
    assert rows[-1]["eligible"] is False
    assert all(set(row) == {"rank", "player", "name", "points", "games", "wins", "eligible", "tiebreaks"}
               for row in rows[:-1])


def test_cli_standings_and_advance_know_the_disqualified(tmp_path: Any) -> None:
    data = two_stages("kostroma")
    first, second, third, fourth = order(standings(data, "q"))[:4]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(disqualify(data, first)))
    result = run_cli("standings", str(path), "--stage", "q")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)["standings"]
    assert [row["player"] for row in rows[:3]] == [second, third, fourth]
    assert rows[-1] == {**rows[-1], "player": first, "rank": None, "disqualified": True,
                        "reason": f"insulted the judge ({first})"}
    advance = json.loads(run_cli("advance", str(path), "--stage", "q").stdout)
    assert advance == {"stage": "q", "advance": [second, third, fourth]}
    text = run_cli("standings", str(path), "--stage", "q", "--format", "text").stdout
    line = next(line for line in text.splitlines() if f" {first} " in line)
    assert line.startswith("-") and f"disqualified: insulted the judge ({first})" in line
    final = json.loads(run_cli("standings", str(path), "--stage", "f").stdout)
    assert first not in final["winners"]


def test_cli_seat_never_seats_the_disqualified(tmp_path: Any) -> None:
    rounds = [round_(1, [game("fiim", players(10), "red"), game("fiim", players(10, start=11), "black", table=2)])]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(disqualify(tournament("fiim", [stage("q", rounds)]), "p07")))
    result = run_cli("seat", str(path), "--stage", "q", "--method", "random")
    assert result.returncode == 0, result.stderr
    planned = json.loads(result.stdout)["rounds"][0]
    seated = [pid for table_ in planned["tables"] for pid in table_["seats"]] + planned["byes"]
    assert sorted(seated) == [p for p in players(20) if p != "p07"]
