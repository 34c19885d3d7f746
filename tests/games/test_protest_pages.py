"""Protest pages: who may open, lodge and decide (every role, anonymous included), and what shows."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone, translation

from games.models import Game, GameState, Protest
from games.services import protocol as service
from tests.helpers import ROLES, table

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english() -> Any:
    with translation.override("en"):
        yield


@pytest.fixture
def round_(make_round: Any) -> Any:
    return make_round("kostroma")


def client_for(user: User | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def urls(round_: Any, number: int = 1) -> dict[str, str]:
    kwargs = {"slug": round_.stage.tournament.slug, "table": table(round_, number).pk}
    return {name: reverse(f"games:{name}", kwargs=kwargs) for name in ("protests", "protocol", "history")}


def decide_url(round_: Any, protest: Protest) -> str:
    return reverse("games:decide", kwargs={"slug": round_.stage.tournament.slug, "table": protest.game.table_id,
                                           "protest": protest.pk})


def ended(round_: Any, people: dict[str, Any], minutes_ago: float) -> Game:
    judge = people["judge"]
    game = service.open_protocol(table(round_, 1), judge)

    def fill(facts: Any) -> None:
        for seat, role in zip(facts.seats, ROLES["kostroma"], strict=True):
            seat.role = role
        facts.winner = "black"

    game = service.change(game, judge, game.version, fill)
    Game.objects.filter(pk=game.pk).update(ended_at=game.ended_at - dt.timedelta(minutes=minutes_ago))
    return game


@pytest.mark.parametrize(
    ("who", "opens", "lodges"),
    [("organizer", 200, 302), ("chief", 200, 302), ("judge", 200, 302), ("other", 403, 403),
     ("stranger", 403, 403)],
)
def test_who_opens_the_protests_of_table_1_and_records_one(
    round_: Any, people: dict[str, Any], make_user: Callable[..., User], who: str, opens: int, lodges: int
) -> None:
    ended(round_, people, 1)
    user = make_user("nobody") if who == "stranger" else people[who]
    client = client_for(user)
    assert client.get(urls(round_)["protests"]).status_code == opens
    response = client.post(urls(round_)["protests"], {"seat": 3, "text": f"from {who}"})
    assert response.status_code == lodges
    assert Protest.objects.filter(text=f"from {who}").exists() == (lodges == 302)


def test_anonymous_users_are_sent_to_log_in_and_nothing_is_saved(round_: Any, people: dict[str, Any]) -> None:
    game = ended(round_, people, 1)
    protest = Protest.objects.create(game=game, seat=1, text="x", decision="pending")
    client = Client()
    for response in (client.get(urls(round_)["protests"]),
                     client.post(urls(round_)["protests"], {"seat": 3, "text": "anon"}),
                     client.post(decide_url(round_, protest), {"decision": "upheld", "reason": "r"})):
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    protest.refresh_from_db()
    assert Protest.objects.count() == 1 and protest.decision == "pending"


@pytest.mark.parametrize(("who", "status"), [("organizer", 403), ("judge", 403), ("other", 403), ("chief", 302)])
def test_only_the_chief_judge_decides(round_: Any, people: dict[str, Any], who: str, status: int) -> None:
    game = ended(round_, people, 1)
    protest = Protest.objects.create(game=game, seat=1, text="x", decision="pending")
    response = client_for(people[who]).post(decide_url(round_, protest), {"decision": "rejected", "reason": "r"})
    assert response.status_code == status
    protest.refresh_from_db()
    assert protest.decision == ("rejected" if status == 302 else "pending")


def test_a_protest_nobody_here_may_decide_says_who_does(round_: Any, people: dict[str, Any]) -> None:
    """«not decided» and no button was a dead end for an organizer: the page says the chief judge decides, and
    where the tournament has none yet, an organizer is sent to the judges' page to make one."""
    from judges.models import Judge

    game = ended(round_, people, 1)
    Protest.objects.create(game=game, seat=1, text="x", decision="pending")
    page = client_for(people["organizer"]).get(urls(round_)["protests"]).content.decode()
    assert "The chief judge decides it." in page  # the round's people include a chief judge
    Judge.objects.filter(tournament=round_.stage.tournament, chief=True).update(chief=False)
    page = client_for(people["organizer"]).get(urls(round_)["protests"]).content.decode()
    staff = reverse("games:staff", kwargs={"slug": round_.stage.tournament.slug})
    assert f'the tournament has none yet: make one on the <a href="{staff}">' in page
    page = client_for(people["judge"]).get(urls(round_)["protests"]).content.decode()
    assert "the tournament has none yet." in page and staff not in page.split('id="protests"')[1]


def test_a_late_protest_is_refused_on_the_page_even_for_the_chief_judge(
    round_: Any, people: dict[str, Any]
) -> None:
    game = ended(round_, people, 12)
    game.refresh_from_db()
    closes_text = timezone.localtime(game.ended_at + dt.timedelta(minutes=10)).strftime("%H:%M:%S")
    for who in ("judge", "chief"):
        client = client_for(people[who])
        page = client.get(urls(round_)["protests"]).content.decode()
        assert "within 10 minutes of the game's end" in page and "accept_late" not in page
        response = client.post(urls(round_)["protests"], {"seat": 5, "text": "late", "accept_late": "on"})
        assert response.status_code == 400
        body = response.content.decode()
        assert f"the window closed at {closes_text}" in body and "a later protest is not accepted" in body
    assert not Protest.objects.exists()


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_protests_off_hide_the_forms_and_links_and_refuse(
    make_round: Any, make_user: Callable[..., User], ruleset: str
) -> None:
    from judges.services import staff as staff_service

    round_ = make_round(ruleset)
    tournament = round_.stage.tournament
    chief = make_user("chief")
    staff_service.add_judge(tournament, chief, chief=True)
    client = client_for(chief)
    service.open_protocol(table(round_, 1), chief)
    default_on = ruleset != "fiim"  # fiim: judges' decisions are not subject to appeal
    for on in (default_on, not default_on):
        tournament.protests_enabled = None if on == default_on else on
        tournament.save(update_fields=["protests_enabled"])
        protests_page = client.get(urls(round_)["protests"]).content.decode()
        protocol_page = client.get(urls(round_)["protocol"]).content.decode()
        assert ('id="lodge-form"' in protests_page) is on
        assert ('id="protest-link"' in protocol_page) is on
        response = client.post(urls(round_)["protests"], {"seat": 1, "text": "x"})
        assert response.status_code == (302 if on else 400)
        if on:  # the protest and the form name the seat's player, not the number alone
            name = table(round_, 1).seats.get(number=1).participant.player.full_name
            protests_page = client.get(urls(round_)["protests"]).content.decode()
            assert f'Seat 1 · <span class="protest-player">{name}</span>' in protests_page
            assert f'<option value="1">1 · {name}</option>' in protests_page
            protocol_page = client.get(urls(round_)["protocol"]).content.decode()
            assert f'<span class="protest-player">{name}</span>' in protocol_page
        if not on:
            assert "takes no protests" in response.content.decode()
            assert "takes no protests" in protocol_page
            organizer_page = client_for(tournament.organizers.get()).get(urls(round_)["protests"]).content.decode()
            assert "participants/#settings-form" in organizer_page
        Protest.objects.all().delete()


def test_bad_input_gets_a_message_and_saves_nothing(round_: Any, people: dict[str, Any]) -> None:
    ended(round_, people, 1)
    client = client_for(people["judge"])
    for data in ({"seat": 11, "text": "x"}, {"seat": 2, "text": ""}, {"seat": "x", "text": "y"}):
        response = client.post(urls(round_)["protests"], data)
        assert response.status_code == 400 and 'class="invalid-feedback' in response.content.decode()
    assert not Protest.objects.exists()


def test_deciding_through_the_page_is_final_and_shown_on_the_protocol_and_history(
    round_: Any, people: dict[str, Any]
) -> None:
    game = ended(round_, people, 1)
    service.submit(game, people["judge"], Game.objects.get(pk=game.pk).version)
    game.refresh_from_db()
    organizer = people["organizer"]
    from games.permissions import staff_of

    service.confirm(game, staff_of(organizer, round_.stage.tournament), organizer, game.version)
    judge, chief = client_for(people["judge"]), client_for(people["chief"])
    assert judge.post(urls(round_)["protests"], {"seat": 2, "text": "The vote was miscounted."}).status_code == 302
    protest = Protest.objects.get()
    response = chief.post(decide_url(round_, protest), {"decision": "upheld", "reason": ""})
    assert response.status_code == 400 and Protest.objects.get().decision == "pending"
    response = chief.post(decide_url(round_, protest), {"decision": "upheld", "reason": "Recount: seat 6 was out."})
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED and "Protest of seat 2 upheld" in game.reopen_reason
    response = chief.post(decide_url(round_, protest), {"decision": "rejected", "reason": "again"})
    assert response.status_code == 400 and "the decision is final" in response.content.decode()
    assert Protest.objects.get().decision == "upheld"
    page = judge.get(urls(round_)["protocol"]).content.decode()
    assert "The vote was miscounted." in page and "Recount: seat 6 was out." in page and "upheld" in page
    assert 'class="mt-2 decide-form"' not in chief.get(urls(round_)["protests"]).content.decode()
    history = judge.get(urls(round_)["history"]).content.decode()
    assert "Protest of seat 2 recorded: The vote was miscounted." in history
    assert "Protest of seat 2 upheld" in history and "Recount: seat 6 was out." in history
