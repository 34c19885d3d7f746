"""The team table and the team competition's cut (scoring/teams.py), as properties over random tables."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from scoring.model import Player, Team, Tournament
from scoring.teams import cut_line_after, team_table

TEAMS = tuple(Team(f"t{n}", f"Team {n}") for n in range(1, 7))


@given(points=st.lists(st.integers(-6, 12), min_size=1, max_size=40),
       teams=st.lists(st.integers(0, 6), min_size=40, max_size=40),
       cut=st.one_of(st.none(), st.integers(1, 4)),
       contenders=st.one_of(st.none(), st.sets(st.sampled_from([t.id for t in TEAMS]))),
       has_result=st.booleans())
def test_the_team_table(points: list[int], teams: list[int], cut: int | None, contenders: set[str] | None,
                        has_result: bool) -> None:
    players = tuple(Player(f"p{i}", f"P{i}", team=f"t{teams[i]}" if teams[i] else None) for i in range(40))
    tournament = Tournament("tomsk", players, (), teams=TEAMS)
    scores = {f"p{i}": Fraction(value, 2) for i, value in enumerate(points)}
    table = team_table(tournament, scores, cut, contenders, has_result)
    assert table.rows is not None and sorted(row.team for row in table.rows) == sorted(t.id for t in TEAMS)
    for row in table.rows:  # totals equal the sum of their parts
        assert row.points == sum((v for p, v in scores.items() if f"t{teams[int(p[1:])]}" == row.team), Fraction(0))
        assert row.contending is (contenders is None or row.team in contenders)
        assert row.advances is (cut is not None and has_result and row.contending and row.rank <= cut)
    flags = [row.contending for row in table.rows]
    assert flags == sorted(flags, reverse=True)  # contenders first
    for index, row in enumerate(table.rows):  # competition ranks within each part
        before = table.rows[index - 1] if index else None
        if before is not None and before.contending == row.contending and before.points == row.points:
            assert row.rank == before.rank
        else:
            assert row.rank == index + 1
        if before is not None and before.contending == row.contending:
            assert before.points >= row.points
    assert table.advance == tuple(row.team for row in table.rows if row.advances)
    line = cut_line_after(table.rows)
    assert line is None or (all(row.advances for row in table.rows[:line]) and not table.rows[line].advances)


def test_no_teams_no_table() -> None:
    assert team_table(Tournament("tomsk", (), ()), {}, 2, None, True).rows is None
