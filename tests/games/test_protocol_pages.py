"""Protocol pages: who may open what (every role, anonymous included), the form, states, history."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameState
from tests.helpers import ROLES, table

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def url(round_: Any, name: str, number: int = 1) -> str:
    return reverse(f"games:{name}", kwargs={"slug": round_.stage.tournament.slug, "table": table(round_, number).pk})


def form_data(game: Game, ruleset: str = "fiim", **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"version": game.version, "winner": "", "best_move": "", "notes": ""}
    for n, role in enumerate(ROLES[ruleset], start=1):
        data[f"s{n}_role"] = role
    data.update(extra)
    return data


@pytest.mark.parametrize(
    ("who", "table_1", "table_2"),
    [
        ("organizer", 200, 200),
        ("chief", 200, 200),
        ("judge", 200, 403),  # assigned to table 1 of this round
        ("other", 403, 200),  # assigned to table 2 of the whole stage
        ("stranger", 403, 403),
        ("superuser", 200, 200),
    ],
)
def test_who_opens_which_protocol(
    round_: Any, people: dict[str, Any], make_user: Callable[..., User], who: str, table_1: int, table_2: int
) -> None:
    user = {"stranger": make_user("nobody"), "superuser": make_user("root", superuser=True)}.get(who) or people[who]
    client = client_for(user)
    assert client.get(url(round_, "protocol", 1)).status_code == table_1
    assert client.get(url(round_, "protocol", 2)).status_code == table_2
    assert client.post(url(round_, "protocol", 2), {}).status_code in ({403} if table_2 == 403 else {400})
    assert client.get(url(round_, "history", 1)).status_code == table_1


def test_anonymous_users_are_sent_to_log_in(round_: Any, people: dict[str, Any]) -> None:
    client = Client()
    for name in ("protocol", "history"):
        response = client.get(url(round_, name))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client.post(url(round_, "state"), {"action": "submit", "version": 1})
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Game.objects.exists()
    slug = round_.stage.tournament.slug
    assert client.get(reverse("games:protocols", kwargs={"slug": slug})).status_code == 302
    assert client.get(reverse("games:staff", kwargs={"slug": slug})).status_code == 302


def test_the_protocol_list_shows_a_judge_only_their_tables(round_: Any, people: dict[str, Any]) -> None:
    slug = round_.stage.tournament.slug
    page = client_for(people["judge"]).get(reverse("games:protocols", kwargs={"slug": slug})).content.decode()
    assert url(round_, "protocol", 1) in page and url(round_, "protocol", 2) not in page
    page = client_for(people["chief"]).get(reverse("games:protocols", kwargs={"slug": slug})).content.decode()
    assert url(round_, "protocol", 1) in page and url(round_, "protocol", 2) in page


def test_only_organizers_manage_judges(round_: Any, people: dict[str, Any], make_user: Callable[..., User]) -> None:
    slug = round_.stage.tournament.slug
    staff_url = reverse("games:staff", kwargs={"slug": slug})
    for who in ("chief", "judge"):
        assert client_for(people[who]).get(staff_url).status_code == 403
        assert client_for(people[who]).post(staff_url, {"action": "judge", "username": who}).status_code == 403
    make_user("newbie")
    client = client_for(people["organizer"])
    assert client.post(staff_url, {"action": "judge", "username": "newbie"}).status_code == 302
    judge = round_.stage.tournament.judges.get(user__username="newbie")
    response = client.post(staff_url, {"action": "assign", "judge": judge.pk, "stage": round_.stage.pk,
                                       "round_number": 1, "table": 2})
    assert response.status_code == 302
    assert client_for(judge.user).get(url(round_, "protocol", 2)).status_code == 200
    page = client.get(staff_url).content.decode()
    assert "newbie" in page and "chief" in page


def test_a_full_protocol_through_the_form_with_points(round_: Any, people: dict[str, Any]) -> None:
    client = client_for(people["judge"])
    client.get(url(round_, "protocol"))
    game = Game.objects.get()
    data = form_data(game, winner="red", best_move="1 2 6", s1_foul1="honestly", s1_foul2="gestures",
                     s5_left="killed", s5_left_number=1, s5_extra="1", s6_extra="0")
    response = client.post(url(round_, "protocol"), data)
    assert response.status_code == 302, response.context["general_problems"]
    game.refresh_from_db()
    assert (game.winner, game.first_killed, game.best_move, game.version) == ("red", 5, [1, 2, 6], 2)
    seat1 = game.seats.get(seat__number=1)
    assert seat1.fouls == 2 and seat1.foul_reasons == ["honestly", "gestures"]
    page = client.get(url(round_, "protocol")).content.decode()
    # Seat 5, a civilian killed first who named 2 blacks of 3: win 2 + best move 0.25 + extra 1.
    assert "= 3,25" in page  # Russian by default: a decimal comma
    points = page.split("= 3,25")[0].rsplit('class="small seat-points">', 1)[1]
    # each part its own line, or its own item where a phone's narrow table runs them together (static/css/site.css)
    assert points.count('<span class="text-nowrap">') == 3 and "+2</span><br>" in points, points
    assert points.startswith('<span class="d-sm-none fw-semibold">Баллы:</span>')  # a phone hides the header row


def test_a_broken_rule_is_shown_on_the_seat_and_nothing_is_saved(round_: Any, people: dict[str, Any]) -> None:
    client = client_for(people["judge"])
    client.get(url(round_, "protocol"))
    game = Game.objects.get()
    response = client.post(url(round_, "protocol"), form_data(game, winner="red", s2_extra="1", notes="x"))
    assert response.status_code == 400
    page = response.content.decode()
    assert "Seat 2: a losing player can get 0 or 0.5 extra points under FIIM" in page or "Место 2" in page
    game.refresh_from_db()
    assert game.version == 1 and game.notes is None and not game.seats.exclude(role="").exists()


def test_a_stale_form_is_refused_with_a_message(round_: Any, people: dict[str, Any]) -> None:
    judge, chief = client_for(people["judge"]), client_for(people["chief"])
    judge.get(url(round_, "protocol"))
    game = Game.objects.get()
    stale = form_data(game, notes="from the judge")
    assert chief.post(url(round_, "protocol"), form_data(game, notes="from the chief")).status_code == 302
    response = judge.post(url(round_, "protocol"), stale)
    assert response.status_code == 409
    game.refresh_from_db()
    assert game.notes == "from the chief"


def test_states_through_the_pages(round_: Any, people: dict[str, Any]) -> None:
    judge, chief = client_for(people["judge"]), client_for(people["chief"])
    judge.get(url(round_, "protocol"))
    game = Game.objects.get()
    judge.post(url(round_, "protocol"), form_data(game, winner="black"))
    game.refresh_from_db()
    judge.post(url(round_, "state"), {"action": "submit", "version": game.version})
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED
    # submitted: the judge sees it read-only, saying why (a form that only answered 409 on saving was shown)
    page = judge.get(url(round_, "protocol")).content.decode()
    assert 'id="protocol-held"' in page and "<fieldset disabled>" in page and 'id="protocol-save"' not in page
    page = chief.get(url(round_, "protocol")).content.decode()  # the chief judge may still correct it
    assert 'id="protocol-held"' not in page and 'id="protocol-save"' in page
    judge.post(url(round_, "state"), {"action": "confirm", "version": game.version})
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED
    chief.post(url(round_, "state"), {"action": "confirm", "version": game.version})
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED
    response = judge.post(url(round_, "protocol"), form_data(game, winner="red"))
    game.refresh_from_db()
    assert response.status_code == 409 and game.winner == "black"
    chief.post(url(round_, "state"), {"action": "reopen", "version": game.version, "reason": "wrong winner"})
    game.refresh_from_db()
    assert game.state == GameState.SUBMITTED
    history = chief.get(url(round_, "history")).content.decode()
    assert "wrong winner" in history and "judge" in history and "chief" in history


def test_an_unknown_state_action_changes_nothing_and_says_so(round_: Any, people: dict[str, Any]) -> None:
    chief = client_for(people["chief"])
    chief.get(url(round_, "protocol"))
    game = Game.objects.get()
    response = chief.post(url(round_, "state"), {"action": "publish", "version": game.version}, follow=True)
    assert "Неизвестное действие" in response.content.decode() or "Unknown action." in response.content.decode()
    assert Game.objects.get().state == GameState.DRAFT and Game.objects.get().version == game.version


def test_query_counts(round_: Any, people: dict[str, Any], django_assert_max_num_queries: Any) -> None:
    client = client_for(people["judge"])
    client.get(url(round_, "protocol"))
    game = Game.objects.get()
    client.post(url(round_, "protocol"), form_data(game, winner="red"))
    with django_assert_max_num_queries(17):  # 16 + the protocol's protests
        assert client.get(url(round_, "protocol")).status_code == 200
    with django_assert_max_num_queries(15):  # 14 + the protests
        assert client.get(url(round_, "history")).status_code == 200
