"""Where the login takes a judge: a judge with one table to record lands on its live screen, no tap in
between; a judge with several sees them, one tap each; a submitted table is no longer theirs to record; anyone
else gets the list of tournaments."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from games.services import protocol as service
from judges.services import staff
from tests.conftest import PASSWORD
from tests.helpers import table

pytestmark = pytest.mark.django_db


def log_in(client: Client, username: str) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": PASSWORD}, follow=True)


def test_a_judge_with_one_table_lands_on_its_live_screen(client: Client, round_: Any,
                                                         people: dict[str, Any]) -> None:
    response = log_in(client, "judge")
    slug, pk = round_.stage.tournament.slug, table(round_, 1).pk
    assert response.redirect_chain[-1][0] == f"/t/{slug}/tables/{pk}/live/"
    assert 'id="screen"' in response.content.decode()


def test_a_judge_with_several_tables_chooses_one_tap_each(client: Client, round_: Any,
                                                          people: dict[str, Any]) -> None:
    judge = round_.stage.tournament.judges.get(user=people["judge"])
    staff.assign(judge, round_.stage, round_, 2)
    response = log_in(client, "judge")
    assert response.redirect_chain[-1][0] == "/start/"
    page = response.content.decode()
    for number in (1, 2):
        assert f'href="/t/{round_.stage.tournament.slug}/tables/{table(round_, number).pk}/live/"' in page


def test_a_submitted_table_is_the_chief_judges_and_the_judge_gets_the_list(client: Client, round_: Any,
                                                                          people: dict[str, Any]) -> None:
    from tests.helpers import ROLES

    game = service.open_protocol(table(round_, 1), people["judge"])

    def play(facts: Any) -> None:
        for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
            seat.role = role
        facts.winner = "red"

    game = service.change(game, people["judge"], game.version, play)
    service.submit(game, people["judge"], game.version)
    response = log_in(client, "judge")
    assert response.redirect_chain[-1][0] == "/"


def test_an_organizer_and_a_player_get_the_list(client: Client, round_: Any, people: dict[str, Any],
                                                make_user: Any) -> None:
    make_user("someone")
    assert log_in(client, "someone").redirect_chain[-1][0] == "/"
    other = Client()
    other.force_login(people["organizer"])
    assert other.get("/start/").url == "/"


def test_the_login_link_on_the_list_leaves_the_landing_to_the_start(client: Client) -> None:
    html = client.get("/").content.decode()
    assert 'href="/accounts/login/"' in html  # no ?next=/ that would skip the judge's table
    assert 'href="/accounts/login/?next=/p/"' in client.get("/p/").content.decode()


def test_the_history_says_what_happened_in_words(client: Client, round_: Any, people: dict[str, Any]) -> None:
    """The history showed ``killed 1``, ``['hand_off_vote']``, ``fouls4`` and ``submitted`` as stored."""
    from django.utils import translation

    from games.history import protocol_history
    from tests.helpers import ROLES

    game = service.open_protocol(table(round_, 1), people["judge"])

    def play(facts: Any) -> None:
        for seat, role in zip(facts.seats, ROLES["fiim"], strict=True):
            seat.role = role
        facts.seats[0].foul_reasons = ["hand_off_vote"]
        facts.seats[1].left, facts.seats[1].left_number = "killed", 1
        facts.seats[2].left, facts.seats[2].left_number, facts.seats[2].removal_reason = "removed", 2, "fouls4"
        facts.seats[2].foul_reasons = ["gestures"] * 4
        facts.winner = "red"

    game = service.change(game, people["judge"], game.version, play)
    service.submit(game, people["judge"], game.version)
    with translation.override("ru"):
        lines = [line for entry in protocol_history(game) for line in [*entry.what, entry.reason]]
    text = "\n".join(lines)
    for raw in ("killed", "hand_off_vote", "fouls4", "['", "civilian", "sheriff", "submitted", "draft", "red"):
        assert raw not in text, raw
    assert "убит в ночь 1" in text or "убит ночью 1" in text or "ночь 1" in text, text
    assert "четвёртое замечание" in text or "4" in text
