"""Hidden means hidden: while the zvezdy standings are hidden, a Swiss round seats the five best by the
hidden points at table 1, so its public seating told who leads. Published, such a round's tables get their
numbers in a random order; who sits together and in which seat is as seated."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from running.services import planning
from running.services.seating import publish_round
from scoring import fileio
from scoring.generate import generate
from tournaments.models import Round, Seat, Stage

pytestmark = pytest.mark.django_db


class Reversing:
    """A stand-in for the system's random source that reverses: table 1 ↔ the last, deterministically."""

    def shuffle(self, items: list[Any]) -> None:
        items.reverse()


def seated_round(import_file: Any, hidden: bool, method: str = "swiss_zvezdy") -> Round:
    data = fileio.dump(generate("zvezdy", players=50, rounds=2, seed=3))
    data["tournament"] = {"name": "Звёзды", "standings_hidden": hidden}
    tournament = import_file(data, "stars")
    stage = Stage.objects.get(tournament=tournament)
    stage.planned_rounds = 8
    stage.save()
    return planning.generate_next_round(stage, method=method, seed=5)


def groups(round_: Round) -> dict[int, set[tuple[str, int]]]:
    """Each table number: who sits there, in which seat."""
    out: dict[int, set[tuple[str, int]]] = {}
    for seat in Seat.objects.filter(round=round_).select_related("table", "participant"):
        out.setdefault(seat.table.number, set()).add((seat.participant.ext_id, seat.number))
    return out


def test_hidden_swiss_round_is_published_with_its_tables_renumbered(import_file: Any, organizer: Any,
                                                                   client: Any) -> None:
    round_ = seated_round(import_file, hidden=True)
    before = groups(round_)
    assert len(before) == 5
    with mock.patch("running.services.seating.random.SystemRandom", Reversing):
        publish_round(round_, organizer)
    after = groups(round_)
    assert sorted(map(sorted, after.values())) == sorted(map(sorted, before.values()))  # the same seating
    assert after[1] == before[5] and after[5] == before[1]  # but the leaders' table is not table 1
    leaders = {pid for pid, _seat in before[1]}
    page = client.get(f"/p/stars/seating/{round_.stage.ext_id}/{round_.number}/").content.decode()
    table_one = page[page.index('id="by-table"'):]
    table_one = table_one[:table_one.index("</table>")]
    assert not any(f"/p/stars/players/{pid}/" in table_one for pid in leaders)
    assert all(f"/p/stars/players/{pid}/" in table_one for pid, _seat in before[5])


def test_the_organizer_is_told_before_publishing(import_file: Any, organizer: Any, client: Any) -> None:
    round_ = seated_round(import_file, hidden=True)
    client.force_login(organizer)
    page = client.get(f"/t/stars/stages/{round_.stage.ext_id}/rounds/{round_.number}/").content.decode()
    assert 'id="numbers-drawn"' in page


@pytest.mark.parametrize(("hidden", "method"), [(False, "swiss_zvezdy"), (True, "balanced")])
def test_rounds_that_tell_nothing_keep_their_numbers(import_file: Any, organizer: Any, client: Any,
                                                    hidden: bool, method: str) -> None:
    """Published standings (table 1 is the leaders' table, as the regulation says) or a seating that does not
    follow the standings: published as seated."""
    round_ = seated_round(import_file, hidden=hidden, method=method)
    before = groups(round_)
    with mock.patch("running.services.seating.random.SystemRandom", Reversing):
        publish_round(round_, organizer)
    assert groups(round_) == before
    client.force_login(organizer)
    page = client.get(f"/t/stars/stages/{round_.stage.ext_id}/rounds/{round_.number}/").content.decode()
    assert 'id="numbers-drawn"' not in page


@pytest.mark.parametrize("hidden", [True, False])
def test_the_rules_page_says_what_stays_visible_while_hidden(import_file: Any, client: Any, hidden: bool) -> None:
    data = fileio.dump(generate("zvezdy", players=20, rounds=1, seed=3))
    data["tournament"] = {"name": "Звёзды", "standings_hidden": hidden}
    import_file(data, "stars")
    page = client.get("/p/stars/rules/").content.decode()
    assert ('id="while-hidden"' in page) is hidden
    if hidden:
        assert "table 1 is not the leaders" in page and "s winner, the roles" in page
    assert "swiss_zvezdy" not in page.split('id="params"')[0]  # the stages' seating by its name, not its id
