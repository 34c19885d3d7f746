"""The judges page's allocation grid: a judge per table of the round chosen, saved all at once or not at
all, "same as last round", and the conflicts shown beside each table."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from judges.models import Judge, JudgeAssignment
from judges.services import allocation, staff
from tests.helpers import table
from tournaments.models import KeepApart, Participant, ParticipantStatus, Player, Round, Table, Team

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


@pytest.fixture
def scene(round_: Any, people: dict[str, Any], make_user: Any) -> dict[str, Any]:
    tournament = round_.stage.tournament
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people["organizer"])
    judges = {name: Judge.objects.get(tournament=tournament, user=people[name]) for name in ("judge", "other", "chief")}
    return {"t": tournament, "client": client, "url": reverse("games:staff", args=[tournament.slug]), **judges}


def post_grid(scene: dict[str, Any], round_: Any, **tables: Any) -> Any:
    data = {"action": "allocate", "round": round_.pk}
    data.update({f"table_{n[1:]}": getattr(j, "pk", j) for n, j in tables.items()})
    return scene["client"].post(scene["url"], data)


def round_rows(round_: Any) -> set[tuple[int, str]]:
    return set(JudgeAssignment.objects.filter(round=round_).values_list("table", "judge__user__username"))


def test_the_grid_shows_every_table_with_its_judge(scene: dict[str, Any], round_: Any) -> None:
    response = scene["client"].get(scene["url"])
    html = response.content.decode()
    assert response.status_code == 200 and html.count('class="grid-row"') == 2
    form = response.context["grid_form"]
    # table 1: the judge for this round; table 2: the other judge, for every round of the stage
    assert form["table_1"].initial == scene["judge"].pk and form["table_2"].initial == scene["other"].pk


def test_the_grid_is_saved_at_once(scene: dict[str, Any], round_: Any) -> None:
    response = post_grid(scene, round_, t1=scene["other"], t2=scene["chief"])
    assert response.status_code == 302 and response["Location"].endswith(f"?round={round_.pk}#allocation")
    assert round_rows(round_) == {(1, "other"), (2, "chief")}
    post_grid(scene, round_, t1=scene["judge"], t2="")
    assert round_rows(round_) == {(1, "judge")}
    # the other judge's assignment for every round of the stage stays
    assert JudgeAssignment.objects.filter(round__isnull=True, judge=scene["other"]).exists()


@pytest.mark.parametrize("bad", ["abc", "-1", str(10**30), "999999"])
def test_one_bad_table_saves_nothing(scene: dict[str, Any], round_: Any, bad: str, make_tournament: Any,
                                     make_user: Any) -> None:
    before = round_rows(round_)
    response = post_grid(scene, round_, t1=scene["chief"], t2=bad)
    assert response.status_code == 400 and "Nothing was saved" in response.content.decode()
    assert round_rows(round_) == before


def test_a_judge_of_another_tournament_saves_nothing(scene: dict[str, Any], round_: Any, make_tournament: Any,
                                                     make_user: Any) -> None:
    theirs = staff.add_judge(make_tournament("fiim", slug="theirs"), make_user("theirs"))
    before = round_rows(round_)
    assert post_grid(scene, round_, t1=scene["chief"], t2=theirs).status_code == 400
    assert round_rows(round_) == before
    with pytest.raises(ValueError):
        allocation.save_allocation(round_, {1: scene["chief"], 2: theirs})
    assert round_rows(round_) == before


def test_a_round_of_another_tournament_is_refused(scene: dict[str, Any], make_tournament: Any) -> None:
    from tournaments.models import Stage

    stage = Stage.objects.create(tournament=make_tournament("fiim", slug="theirs"), ext_id="q", kind="qualifying",
                                 order=1)
    theirs = Round.objects.create(stage=stage, number=1, seating="random")
    response = scene["client"].post(scene["url"], {"action": "allocate", "round": theirs.pk}, follow=True)
    assert "the tournament has no such round" in response.content.decode()




def test_same_as_last_round_fills_the_grid(scene: dict[str, Any], round_: Any) -> None:
    second = Round.objects.create(stage=round_.stage, number=2, seating="random")
    for number in (1, 2, 3):
        Table.objects.create(round=second, number=number)
    post_grid(scene, round_, t1=scene["chief"], t2=scene["judge"])
    response = scene["client"].get(scene["url"], {"round": second.pk, "fill": "previous"})
    form = response.context["grid_form"]
    assert 'id="grid-filled"' in response.content.decode()
    assert [form[f"table_{n}"].initial for n in (1, 2, 3)] == [scene["chief"].pk, scene["judge"].pk, None]
    assert not round_rows(second)  # filled, not saved
    assert allocation.previous_round(second) == round_ and allocation.previous_round(round_) is None


def entry(tournament: Any, user: Any, number: int, **fields: Any) -> Participant:
    player = Player.objects.create(surname="Судьин", first_name="Игрок", user=user)
    return Participant.objects.create(tournament=tournament, player=player, number=number, ext_id=f"j{number}",
                                      **fields)


def test_the_conflicts_beside_each_table(scene: dict[str, Any], round_: Any, people: dict[str, Any]) -> None:
    tournament = scene["t"]
    # the judge's account linked to the player of table 1, seat 4
    seated = table(round_, 1).seats.get(number=4).participant.player
    seated.user = people["judge"]
    seated.save()
    # the other judge's own entry (rejected application) in the team of table 2's seat 2, kept apart from seat 5
    team = Team.objects.create(tournament=tournament, name="Полночь")
    mate = table(round_, 2).seats.get(number=2).participant
    mate.team = team
    mate.save()
    own = entry(tournament, people["other"], 99, team=team, status=ParticipantStatus.REJECTED)
    partner = table(round_, 2).seats.get(number=5).participant
    first, second = sorted([own.pk, partner.pk])
    KeepApart.objects.create(tournament=tournament, first_id=first, second_id=second)
    found = allocation.conflicts(round_, {1: scene["judge"], 2: scene["other"]})
    assert len(found[1]) == 1 and "plays at this table (seat 4:" in found[1][0]
    assert any("is a teammate of" in c and "seat 2" in c and "Полночь" in c for c in found[2])
    assert any("is kept apart from" in c and "seat 5" in c for c in found[2])
    # a judge on both tables of the round
    twice = allocation.conflicts(round_, {1: scene["chief"], 2: scene["chief"]})
    assert "also on table 2" in twice[1][0] and "also on table 1" in twice[2][0]
    # the page lists them beside the tables
    post_grid(scene, round_, t1=scene["judge"], t2=scene["other"])
    html = scene["client"].get(scene["url"]).content.decode()
    assert html.count('class="text-warning-emphasis conflict"') == 3
    assert allocation.conflicts(round_, {1: scene["chief"], 2: None}) == {}


def test_a_judge_for_every_round_counts_on_their_table(scene: dict[str, Any], round_: Any) -> None:
    """The other judge hosts table 2 in every round of the stage: chosen for table 1 too, they are on two tables;
    another judge chosen for table 2 leaves them hosting it as well, which the grid says."""
    found = allocation.conflicts(round_, {1: scene["other"], 2: scene["chief"]})
    assert found == {1: [found[1][0]]} and "also on table 2" in found[1][0]
    rows = allocation.grid(round_, {1: scene["other"], 2: scene["chief"]})
    assert rows[1].every_round == scene["other"] and rows[0].every_round is None
    post_grid(scene, round_, t1=scene["judge"], t2=scene["chief"])
    assert 'class="text-secondary every-round"' in scene["client"].get(scene["url"]).content.decode()


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "tomsk", "zvezdy"])
def test_allocate_fills_the_grid_honouring_the_conflicts(ruleset: str, make_round: Any, make_user: Any) -> None:
    """"Allocate": the grid filled by the app, not saved; no judge at a table with a player linked to
    them, a teammate or a kept-apart partner; the judge of every round keeps their table; the chief judge only
    where nobody else can go; a table nobody may judge is left empty and the page says why."""
    from tests.conftest import new_people

    round_ = make_round(ruleset, tables=3)
    people = new_people(round_)
    tournament = round_.stage.tournament
    judge, other, chief = (Judge.objects.get(tournament=tournament, user=people[n])
                           for n in ("judge", "other", "chief"))
    fourth = staff.add_judge(tournament, make_user("fourth"))
    client = Client()
    client.cookies["django_language"] = "en"
    client.force_login(people["organizer"])
    url = reverse("games:staff", args=[tournament.slug])
    saved = round_rows(round_)

    def proposed() -> tuple[dict[int, int | None], str]:
        response = client.get(url, {"round": round_.pk, "fill": "auto"})
        assert response.status_code == 200
        form = response.context["grid_form"]
        return {n: form[f"table_{n}"].initial for n in (1, 2, 3)}, response.content.decode()

    def seated(number: int, seat: int) -> Participant:
        return table(round_, number).seats.get(number=seat).participant

    player = seated(1, 4).player  # the judge's account is this player's: not at table 1
    player.user = people["judge"]
    player.save()
    team = Team.objects.create(tournament=tournament, name="Полночь")  # the fourth judge's teammate at table 3
    Participant.objects.filter(pk=seated(3, 2).pk).update(team=team)
    own = entry(tournament, fourth.user, 99, team=team, status=ParticipantStatus.REJECTED)
    grid, html = proposed()
    assert grid == {1: fourth.pk, 2: other.pk, 3: judge.pk}
    assert 'id="grid-proposed"' in html and 'id="grid-unfilled"' not in html
    assert round_rows(round_) == saved  # filled, not saved
    # the fourth judge kept apart from a player of table 1 too: the chief judge goes there, nobody else can
    first, second = sorted([own.pk, seated(1, 6).pk])
    KeepApart.objects.create(tournament=tournament, first_id=first, second_id=second)
    grid, _html = proposed()
    assert grid == {1: chief.pk, 2: other.pk, 3: judge.pk}
    # and the chief judge plays there: table 1 stays empty, and the page says who is barred and why
    chief_player = seated(1, 5).player
    chief_player.user = people["chief"]
    chief_player.save()
    grid, html = proposed()
    assert grid[1] is None and grid[2] == other.pk and grid[3] in (judge.pk, fourth.pk)
    unfilled = html[html.index('id="grid-unfilled"'):]
    unfilled = unfilled[:unfilled.index("</ul>")]
    assert "Table 1: every judge still free is linked to a player at it." in unfilled
    assert "plays at this table (seat 5:" in unfilled
    # saved as the organizer sends it back
    assert post_grid({"client": client, "url": url}, round_, t1="", t2=other, t3=grid[3]).status_code == 302
    assert round_rows(round_) == {(2, "other"), (3, "judge" if grid[3] == judge.pk else "fourth")}


def test_the_organizer_ranks_the_judges_and_allocate_seats_the_best_first(scene: dict[str, Any], round_: Any,
                                                                          make_user: Any) -> None:
    fourth = staff.add_judge(scene["t"], make_user("fourth"))
    client, url = scene["client"], scene["url"]
    assert allocation.proposal(round_).chosen[1] in (scene["judge"], fourth)
    for judge, rank in ((fourth, "1"), (scene["judge"], "2")):
        assert client.post(url, {"action": "rank", "judge": judge.pk, "rank": rank}).status_code == 302
    assert allocation.proposal(round_).chosen == {1: fourth, 2: scene["other"]}
    assert 'value="1"' in client.get(url).content.decode().split(f'id="rank-{fourth.pk}"')[1][:40]
    for bad in ("0", "abc", "100"):
        response = client.post(url, {"action": "rank", "judge": fourth.pk, "rank": bad}, follow=True)
        assert "The rank is not saved" in response.content.decode()
    fourth.refresh_from_db()
    assert fourth.rank == 1
    client.post(url, {"action": "rank", "judge": fourth.pk, "rank": ""})
    fourth.refresh_from_db()
    assert fourth.rank is None
