"""Groups of tables (tomsk's programme, 10): a group's next-stage table is seated while the stage goes on."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse
from django.utils import translation

from games.permissions import staff_of
from games.services import protocol as protocol_service
from games.services.facts import ProtocolFacts
from running.services import groups
from running.services.planning import generate_next_round
from running.services.seating import publish_round
from running.services.stages import close_stage, stage_standings
from tests.helpers import ROLES
from tournaments.models import Round, Stage, StagePlayer, Table, TableGroup

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


@pytest.fixture
def tomsk(make_tournament: Any, add_participants: Any, organizer: Any) -> Any:
    """96 players, the three stages of the regulation, the qualifying's one round of 8 tables published."""
    tournament = make_tournament("tomsk")
    add_participants(tournament, 96)
    for order, kind in enumerate(("qualifying", "semifinal", "final"), start=1):
        Stage.objects.create(tournament=tournament, ext_id=kind, kind=kind, order=order)
    qualifying = tournament.stages.get(ext_id="qualifying")
    publish_round(generate_next_round(qualifying, method="random", tables=8, seed=3), organizer)
    return tournament


def play(round_: Round, number: int, user: Any, *, confirm: bool = True) -> None:
    """Table ``number`` won by the city; SP by seat, (seat − 6) / 2, so the 3 best of each game are seats 10–12."""
    table = Table.objects.get(round=round_, number=number)
    game = protocol_service.open_protocol(table, user)

    def fill(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES["tomsk"], strict=True):
            seat.role, seat.days_survived, seat.subjective = role, 2, Fraction(seat.number - 6, 2)
        facts.winner = "red"

    game = protocol_service.change(game, user, game.version, fill)
    game = protocol_service.submit(game, user, game.version)
    if confirm:
        protocol_service.confirm(game, staff_of(user, round_.stage.tournament), user, game.version)


def seated_at(round_: Round, number: int, seats: list[int]) -> set[str]:
    return set(round_.seats.filter(table__number=number, number__in=seats).values_list("participant__ext_id",
                                                                                      flat=True))


def test_semifinal_one_is_seated_while_later_qualifying_games_are_unplayed(tomsk: Any, organizer: Any) -> None:
    qualifying, semifinal = tomsk.stages.get(ext_id="qualifying"), tomsk.stages.get(ext_id="semifinal")
    round_ = qualifying.rounds.get()
    assert [g.tables for g in groups.group_views(qualifying)] == [(1, 2, 3, 4), (5, 6, 7, 8)]  # the programme
    assert [g.state for g in groups.group_views(qualifying)] == ["playing", "playing"]
    for number in (1, 2, 3, 4):  # the 17:00 and 17:40 slots
        play(round_, number, organizer)
    play(round_, 5, organizer)  # 18:30: games 5–6 are under way; game 5 is over, the rest still play
    assert [g.state for g in groups.group_views(qualifying)] == ["ready", "playing"]

    closed = groups.close_group(qualifying, 1, organizer)

    expected = set().union(*(seated_at(round_, n, [10, 11, 12]) for n in (1, 2, 3, 4)))
    assert set(closed.players) == expected and len(expected) == 12
    semi_round = semifinal.rounds.get()
    assert semi_round.number == 1 and list(semi_round.tables.values_list("number", flat=True)) == [1]
    assert set(semi_round.seats.values_list("participant__ext_id", flat=True)) == expected
    assert sorted(semi_round.seats.values_list("number", flat=True)) == list(range(1, 13))
    assert set(StagePlayer.objects.filter(stage=semifinal).values_list("participant__ext_id", flat=True)) == expected
    views = groups.group_views(qualifying)
    assert [g.state for g in views] == ["seated", "playing"] and all(g.stored for g in views)
    assert not Table.objects.get(round=round_, number=8).seats.filter(number=1).get().participant.stages.exists()
    qualifying.refresh_from_db()
    assert not qualifying.closed  # the stage goes on

    # semifinal 1 is published and played while the qualifying's last games finish (19:10)
    publish_round(semi_round, organizer)
    for number in (6, 7, 8):
        play(round_, number, organizer)
    closed_two = groups.close_group(qualifying, 2, organizer)
    assert set(semi_round.tables.values_list("number", flat=True)) == {1, 2}
    advance = stage_standings(qualifying).advance
    assert set(closed.players) | set(closed_two.players) == set(advance) and len(advance) == 24

    # closing the stage now only fixes the order of the 24; the final is seated as usual later
    close_stage(qualifying)
    assert list(semifinal.entries.order_by("position").values_list("participant__ext_id", flat=True)) == list(advance)


def test_a_group_is_closed_once_and_only_when_all_its_games_are_confirmed(tomsk: Any, organizer: Any) -> None:
    qualifying = tomsk.stages.get(ext_id="qualifying")
    round_ = qualifying.rounds.get()
    for number in (1, 2, 3):
        play(round_, number, organizer)
    play(round_, 4, organizer, confirm=False)
    with pytest.raises(groups.GroupError, match="Group 1: table 4 of round 1 has no confirmed protocol yet"):
        groups.close_group(qualifying, 1, organizer)
    assert not tomsk.stages.get(ext_id="semifinal").rounds.exists()  # nothing half-saved
    game = Table.objects.get(round=round_, number=4).game
    protocol_service.confirm(game, staff_of(organizer, tomsk), organizer, game.version)
    groups.close_group(qualifying, 1, organizer)
    with pytest.raises(groups.GroupError, match="Group 1 is closed already"):
        groups.close_group(qualifying, 1, organizer)
    with pytest.raises(groups.GroupError, match="There is no group feeding table 3"):
        groups.close_group(qualifying, 3, organizer)
    with pytest.raises(groups.GroupError, match="Group 1 is closed already; the groups can no longer change"):
        groups.set_groups(qualifying, [[1, 2, 3, 4], [5, 6, 7]])
    assert list(TableGroup.objects.filter(stage=qualifying).values_list("tables", flat=True)) == [
        [1, 2, 3, 4], [5, 6, 7, 8]]


@pytest.mark.parametrize(("given", "message"), [
    ([[1, 2, 3, 4], [4, 5, 6, 7, 8]], "Table 4 is in group 1 and in group 2"),
    ([[1, 2], []], "Group 2 has no tables"),
    ([[1, 1, 2]], "Table 1 is listed twice in group 1"),
    ([], "at least one group"),
])
def test_bad_groups_are_refused_naming_the_group_and_table(tomsk: Any, given: list[list[int]], message: str) -> None:
    qualifying = tomsk.stages.get(ext_id="qualifying")
    groups.set_groups(qualifying, [[1, 2], [3, 4, 5, 6, 7, 8]])
    with pytest.raises(groups.GroupError, match=message):
        groups.set_groups(qualifying, given)
    assert list(qualifying.table_groups.values_list("tables", flat=True)) == [[1, 2], [3, 4, 5, 6, 7, 8]]


def test_a_group_without_games_and_a_group_sending_the_wrong_number(tomsk: Any, organizer: Any) -> None:
    qualifying = tomsk.stages.get(ext_id="qualifying")
    round_ = qualifying.rounds.get()
    groups.set_groups(qualifying, [[1, 2, 3], [4, 5, 6, 7, 8], [9]])
    with pytest.raises(groups.GroupError, match="Group 3 has no games yet"):
        groups.close_group(qualifying, 3, organizer)
    for number in (1, 2, 3):
        play(round_, number, organizer)
    with pytest.raises(groups.GroupError, match="Group 1 sends 9 players on, but a table seats 12"):
        groups.close_group(qualifying, 1, organizer)
    assert not tomsk.stages.get(ext_id="semifinal").rounds.exists()
    assert qualifying.table_groups.get(feeds=1).closed_at is None


def test_groups_need_per_game_advancement(tomsk: Any, organizer: Any) -> None:
    qualifying = tomsk.stages.get(ext_id="qualifying")
    Stage.objects.filter(pk=qualifying.pk).update(advance_kind="top", advance_count=24)
    for number in (1, 2, 3, 4):
        play(qualifying.rounds.get(), number, organizer)
    with pytest.raises(groups.GroupError, match="per-game advancement"):
        groups.close_group(qualifying, 1, organizer)


def test_the_stage_page_shows_the_groups_and_closes_one(client: Any, tomsk: Any, organizer: Any) -> None:
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    url = reverse("running:stage", kwargs={"slug": tomsk.slug, "stage": "qualifying"})
    html = client.get(url).content.decode()
    assert html.count('class="table-group"') == 2 and "group-state-playing" in html
    assert "1-4\n5-8" in html  # the programme's groups, in the form
    response = client.post(url, {"action": "groups", "groups": "1-4\n4 5 6"})
    assert response.status_code == 400 and "Table 4 is in group 1 and in group 2" in response.content.decode()
    response = client.post(url, {"action": "groups", "groups": "1-4\nx"})
    assert response.status_code == 400 and "Line 2: “x” is not a table number" in response.content.decode()
    assert client.post(url, {"action": "groups", "groups": "1, 2, 3, 4\n5-8"}).status_code == 302
    qualifying = tomsk.stages.get(ext_id="qualifying")
    for number in (1, 2, 3, 4):
        play(qualifying.rounds.get(), number, organizer)
    assert "group-state-ready" in client.get(url).content.decode()
    response = client.post(url, {"action": "close_group", "group": "1"}, follow=True)
    assert "Group 1 is closed: table 1 of" in response.content.decode()
    html = client.get(url).content.decode()
    assert "group-state-seated" in html and 'id="groups-form"' not in html
    response = client.post(url, {"action": "close_group", "group": "1"})
    assert response.status_code == 400 and "Group 1 is closed already" in response.content.decode()


def test_no_groups_on_the_last_stage_and_none_for_other_rulesets(client: Any, tomsk: Any, organizer: Any,
                                                                 make_tournament: Any) -> None:
    client.force_login(organizer)
    final = reverse("running:stage", kwargs={"slug": tomsk.slug, "stage": "final"})
    assert 'id="table-groups"' not in client.get(final).content.decode()
    for ruleset in ("fiim", "kostroma", "zvezdy"):
        other = make_tournament(ruleset)
        Stage.objects.create(tournament=other, ext_id="q", kind="qualifying", order=1)
        Stage.objects.create(tournament=other, ext_id="f", kind="final", order=2)
        html = client.get(reverse("running:stage", kwargs={"slug": other.slug, "stage": "q"})).content.decode()
        # a next stage: the section and its form are there, with no group until the organizer sets them
        assert 'id="table-groups"' in html and 'class="table-group"' not in html


def test_closing_the_stage_is_refused_while_a_group_is_open_and_the_next_stage_has_rounds(
        tomsk: Any, organizer: Any) -> None:
    qualifying = tomsk.stages.get(ext_id="qualifying")
    round_ = qualifying.rounds.get()
    for number in range(1, 9):
        play(round_, number, organizer)
    groups.close_group(qualifying, 1, organizer)
    with pytest.raises(groups.StageError, match="The next stage has rounds already"):
        close_stage(qualifying)
    qualifying.refresh_from_db()
    assert not qualifying.closed


def test_the_stage_page_runs_the_same_queries_however_far_the_groups_are(client: Any, tomsk: Any,
                                                                          organizer: Any) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(organizer)
    url = reverse("running:stage", kwargs={"slug": tomsk.slug, "stage": "qualifying"})
    counts = []
    qualifying = tomsk.stages.get(ext_id="qualifying")
    for step in range(3):
        if step == 1:
            for number in (1, 2, 3, 4, 5):
                play(qualifying.rounds.get(), number, organizer)
        if step == 2:
            groups.close_group(qualifying, 1, organizer)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] and counts[2] <= counts[0] + 1  # stored groups: no ruleset default to read


def test_groups_whose_tables_the_next_stage_already_has_show_as_seated(client: Any, import_file: Any,
                                                                       organizer: Any) -> None:
    """The tomsk example arrives with the semifinal seated: its groups are not offered for closing (a click
    only answered "table 1 of semifinal is seated already")."""
    client.force_login(organizer)
    client.cookies["django_language"] = "en"
    tournament = import_file("tomsk-example.json", "tomsk-seated")
    url = reverse("running:stage", kwargs={"slug": tournament.slug, "stage": "qualifying"})
    html = client.get(url).content.decode()
    assert html.count("group-state-seated") == 2 and "group-state-ready" not in html
    assert 'value="close_group"' not in html


def test_the_programme_says_it_is_written_for_96_players_and_which_tables_a_smaller_stage_lacks(
        make_tournament: Any, add_participants: Any, organizer: Any, client: Any) -> None:
    # with 3 tables seated the page proposed «1–4 / 5–8» without saying the programme assumes 96 players
    tournament = make_tournament("tomsk")
    add_participants(tournament, 36)
    for order, kind in enumerate(("qualifying", "semifinal", "final"), start=1):
        Stage.objects.create(tournament=tournament, ext_id=kind, kind=kind, order=order)
    qualifying = tournament.stages.get(ext_id="qualifying")
    url = reverse("running:stage", args=[tournament.slug, "qualifying"])
    client.force_login(organizer)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "written for 96 players: 8 tables of 12." in page  # said before any table is seated
    publish_round(generate_next_round(qualifying, method="random", tables=3, seed=3), organizer)
    words = groups.programme_words(qualifying, groups.group_views(qualifying))
    assert words[0] == "The regulation's programme is written for 96 players: 8 tables of 12."
    assert words[1] == ("This stage seats 3 tables, not 8: the groups name tables 4, 5, 6, 7, 8, which it does not "
                        "have; save the groups of the tables you have.")
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="programme-assumes"' in page and "the groups name tables 4, 5, 6, 7, 8" in page
    groups.set_groups(qualifying, [(1, 2, 3)])  # the organizer's own groups: nothing assumed any more
    assert groups.programme_words(qualifying, groups.group_views(qualifying)) == []


def test_the_full_programme_seated_says_only_what_it_is_written_for(tomsk: Any) -> None:
    qualifying = tomsk.stages.get(ext_id="qualifying")
    assert groups.programme_words(qualifying, groups.group_views(qualifying)) == [
        "The regulation's programme is written for 96 players: 8 tables of 12."]
