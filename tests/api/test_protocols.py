"""The write API: token authentication, permissions, validation, states, history, conflicts."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from games.models import Game
from tests.conftest import PASSWORD, new_people
from tests.helpers import table

from .conftest import full_protocol

pytestmark = pytest.mark.django_db


def url(round_: Any, number: int, action: str = "") -> str:
    name = {"": "api:protocol", "submit": "api:submit", "confirm": "api:confirm", "reopen": "api:reopen"}[action]
    return reverse(name, args=[round_.stage.tournament.slug, table(round_, number).pk])


def test_token_for_username_and_password(api: Any, people: Any) -> None:
    response = api().post(reverse("api:token"), {"username": "judge", "password": PASSWORD}, format="json")
    assert response.status_code == 200 and len(response.json()["token"]) == 40
    assert api().post(reverse("api:token"), {"username": "judge", "password": "no"}).status_code == 400


def test_judge_reads_their_table_opened_as_draft(api: Any, round_: Any, people: Any) -> None:
    response = api(people["judge"]).get(url(round_, 1))
    assert response.status_code == 200
    data = response.json()
    assert data["state"] == "draft" and data["version"] == 1 and data["table"] == 1
    first = table(round_, 1).seats.select_related("participant__player").get(number=1).participant
    assert data["seats"][0] == {**data["seats"][0], "seat": 1, "player": first.ext_id,
                                "name": first.player.full_name, "number": first.number}


@pytest.mark.parametrize("who, status", [("judge", 403), ("stranger", 403), (None, 401), ("chief", 200),
                                         ("organizer", 200), ("other", 200)])
def test_who_may_open_table_2(api: Any, round_: Any, people: Any, stranger: Any, who: str | None,
                              status: int) -> None:
    """The judge hosts table 1 only; the other judge hosts table 2 for the whole stage."""
    user = stranger if who == "stranger" else people.get(who or "")
    assert api(user).get(url(round_, 2)).status_code == status
    assert api(user).put(url(round_, 2), full_protocol(1), format="json").status_code == status
    assert not Game.objects.filter(winner="red").exists() if status != 200 else True


def test_change_submit_confirm_with_history(api: Any, round_: Any, people: Any) -> None:
    judge = api(people["judge"])
    judge.get(url(round_, 1))
    response = judge.put(url(round_, 1), full_protocol(1, first_killed=1, best_move=[2, 3, 4]), format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["version"] == 2 and response.json()["winner"] == "red"
    assert judge.post(url(round_, 1, "confirm"), {"version": 2}, format="json").status_code == 403
    response = judge.post(url(round_, 1, "submit"), {"version": 2}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "submitted"
    response = api(people["chief"]).post(url(round_, 1, "confirm"), {"version": 3}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "confirmed"
    game = Game.objects.get(table=table(round_, 1))
    assert [h.history_user.username for h in game.history.order_by("history_id")] == [
        "judge", "judge", "judge", "chief"]
    locked = judge.put(url(round_, 1), full_protocol(4), format="json")
    assert locked.status_code == 409 and "confirmed" in locked.json()["detail"]
    assert locked.json()["state"] == "confirmed"


def test_rule_problems_name_the_seat_and_save_nothing(api: Any, round_: Any, people: Any) -> None:
    judge = api(people["judge"])
    judge.get(url(round_, 1))
    body = full_protocol(1)
    body["seats"][1]["role"] = "don"  # two dons
    body["seats"][4]["extra"] = "0.5"
    response = judge.put(url(round_, 1), body, format="json")
    assert response.status_code == 400
    data = response.json()
    assert data["problems"] and "don" in data["detail"]
    game = Game.objects.get(table=table(round_, 1))
    assert game.version == 1 and game.winner == ""


def test_seat_problems_are_located(api: Any, round_: Any, people: Any) -> None:
    judge = api(people["judge"])
    judge.get(url(round_, 1))
    body = full_protocol(1, first_killed=3, best_move=[3])  # the first-killed names their own seat
    response = judge.put(url(round_, 1), body, format="json")
    assert response.status_code == 400
    assert any("first-killed" in p["message"] for p in response.json()["problems"])


def test_every_seat_once(api: Any, round_: Any, people: Any) -> None:
    body = full_protocol(1)
    body["seats"] = body["seats"][:9]
    response = api(people["judge"]).put(url(round_, 1), body, format="json")
    assert response.status_code == 400 and "every seat" in str(response.json()["fields"]["seats"])
    body = full_protocol(1)
    body["seats"][0]["role"] = "wizard"
    assert api(people["judge"]).put(url(round_, 1), body, format="json").status_code == 400


def test_submit_needs_a_result(api: Any, round_: Any, people: Any) -> None:
    judge = api(people["judge"])
    judge.get(url(round_, 1))
    response = judge.post(url(round_, 1, "submit"), {"version": 1}, format="json")
    assert response.status_code == 400
    assert {p["seat"] for p in response.json()["problems"]} >= {1, 10}  # no role yet, by seat


def test_an_older_version_is_a_conflict(api: Any, round_: Any, people: Any) -> None:
    judge, chief = api(people["judge"]), api(people["chief"])
    judge.get(url(round_, 1))
    assert chief.put(url(round_, 1), full_protocol(1), format="json").status_code == 200
    response = judge.put(url(round_, 1), full_protocol(1, winner="black"), format="json")
    assert response.status_code == 409
    data = response.json()
    assert "changed meanwhile" in data["detail"] and "chief" in data["detail"] and data["version"] == 2
    assert Game.objects.get(table=table(round_, 1)).winner == "red"
    assert judge.post(url(round_, 1, "submit"), {"version": 1}, format="json").status_code == 409


def test_unpublished_round_is_a_conflict(api: Any, round_: Any, people: Any) -> None:
    round_.state = "draft"
    round_.save()
    response = api(people["chief"]).get(url(round_, 1))
    assert response.status_code == 409 and "not published" in response.json()["detail"]


def test_unknown_table_is_404(api: Any, round_: Any, people: Any) -> None:
    slug = round_.stage.tournament.slug
    assert api(people["chief"]).get(reverse("api:protocol", args=[slug, 999999])).status_code == 404


def test_the_chief_judge_reopens_a_confirmed_protocol_with_a_reason(api: Any, round_: Any, people: Any) -> None:
    judge, chief = api(people["judge"]), api(people["chief"])
    judge.get(url(round_, 1))
    assert judge.put(url(round_, 1), full_protocol(1), format="json").status_code == 200
    early = chief.post(url(round_, 1, "reopen"), {"version": 2, "reason": "Wrong winner"}, format="json")
    assert early.status_code == 409 and early.json()["state"] == "draft"  # only a confirmed one reopens
    assert judge.post(url(round_, 1, "submit"), {"version": 2}, format="json").status_code == 200
    assert chief.post(url(round_, 1, "confirm"), {"version": 3}, format="json").status_code == 200
    body = {"version": 4, "reason": "The protest of seat 3 is upheld"}
    for who in ("judge", "organizer"):
        assert api(people[who]).post(url(round_, 1, "reopen"), body, format="json").status_code == 403
    missing = chief.post(url(round_, 1, "reopen"), {"version": 4}, format="json")
    assert missing.status_code == 400 and "reason" in missing.json()["fields"]
    stale = chief.post(url(round_, 1, "reopen"), {**body, "version": 3}, format="json")
    assert stale.status_code == 409 and stale.json()["version"] == 4
    response = chief.post(url(round_, 1, "reopen"), body, format="json")
    assert response.status_code == 200 and response.json()["state"] == "submitted"
    game = Game.objects.get(table=table(round_, 1))
    assert game.reopen_reason == "The protest of seat 3 is upheld"
    last = game.history.order_by("-history_id").first()
    assert last.history_user.username == "chief" and last.history_change_reason == body["reason"]
    assert judge.put(url(round_, 1), full_protocol(5), format="json").status_code == 200  # editable again


def test_each_answer_is_the_protocol_as_read_back(api: Any, round_: Any, people: Any) -> None:
    """A save's answer is built from the row the service wrote (its seats read again), not from the game read
    once more: it must be exactly what reading the protocol gives."""
    judge, chief = api(people["judge"]), api(people["chief"])
    judge.get(url(round_, 1))
    body = full_protocol(1, first_killed=1, best_move=[2, 3, 4], notes="n")
    body["seats"][2].update(fouls=2, extra="0.5")
    body["seats"][6].update(fouls=1, best=True)
    answers = [judge.put(url(round_, 1), body, format="json")]
    answers.append(judge.post(url(round_, 1, "submit"), {"version": 2}, format="json"))
    answers.append(chief.post(url(round_, 1, "confirm"), {"version": 3}, format="json"))
    answers.append(chief.post(url(round_, 1, "reopen"), {"version": 4, "reason": "a second look"}, format="json"))
    for version, answer in enumerate(answers, start=2):
        assert answer.status_code == 200, answer.json()
        assert answer.json()["version"] == version
    assert answers[-1].json() == chief.get(url(round_, 1)).json() == judge.get(url(round_, 1)).json()
    assert answers[0].json()["seats"][2]["extra"] == judge.get(url(round_, 1)).json()["seats"][2]["extra"]


def test_a_judges_requests_query_counts(api: Any, round_: Any, people: Any, django_assert_max_num_queries: Any) -> None:
    """The tournament day's requests (bench/tournament_day.py), the work after the commit aside (the public
    version, the rating). Each was two queries more: staff_of read the judge and whether they organise it apart,
    a GET read the game twice, a save read it again for its answer."""
    judge, chief = api(people["judge"]), api(people["chief"])
    protocol, submit, confirm = url(round_, 1), url(round_, 1, "submit"), url(round_, 1, "confirm")
    with django_assert_max_num_queries(17):  # the first: the protocol opened, its ten seats created
        assert judge.get(protocol).status_code == 200
    with django_assert_max_num_queries(7):  # token, tournament, judge, table, assignment, game, seats
        assert judge.get(protocol).status_code == 200
    body = full_protocol(1, first_killed=1, best_move=[2, 3, 4])
    with django_assert_max_num_queries(16):
        assert judge.put(protocol, body, format="json").status_code == 200
    body["seats"][3]["fouls"] = 1
    with django_assert_max_num_queries(16):
        assert judge.put(protocol, {**body, "version": 2}, format="json").status_code == 200
    with django_assert_max_num_queries(13):
        assert judge.post(submit, {"version": 3}, format="json").status_code == 200
    with django_assert_max_num_queries(6):
        assert chief.get(protocol).status_code == 200
    with django_assert_max_num_queries(11):
        assert chief.post(confirm, {"version": 4}, format="json").status_code == 200


def test_an_awarded_win_and_warnings_through_the_api(api: Any, make_round: Any) -> None:
    """The regulation's own events as the tournament file keeps them: a fiim win awarded against "monsters", a
    kostroma seat's verbal warnings; not given, they stay as recorded; refused where the regulation has none."""
    fiim = make_round("fiim")
    judge = api(new_people(fiim, "f-")["judge"])
    judge.get(url(fiim, 1))
    body = full_protocol(1, winner="red", awarded={"reason": "monsters", "seats": [3, 4]})
    roles = [seat["role"] for seat in body["seats"]]
    black = [n for n, role in enumerate(roles, start=1) if role in ("mafia", "don")]
    body["awarded"]["seats"] = black[:2]
    answer = judge.put(url(fiim, 1), body, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["awarded"] == {"reason": "monsters", "seats": black[:2]}
    assert Game.objects.get(pk=answer.json()["id"]).awarded == {"reason": "monsters", "seats": black[:2]}
    kept = full_protocol(2, winner="red")  # a client that knows no awards loses none
    assert judge.put(url(fiim, 1), kept, format="json").json()["awarded"]["reason"] == "monsters"
    wrong = full_protocol(3, winner="black", awarded={"reason": "monsters", "seats": black[:1]})
    refused = judge.put(url(fiim, 1), wrong, format="json")
    assert refused.status_code == 400, refused.json()
    assert Game.objects.get(pk=answer.json()["id"]).winner == "red"
    cleared = judge.put(url(fiim, 1), full_protocol(3, winner="red", awarded=None), format="json")
    assert cleared.status_code == 200 and cleared.json()["awarded"] is None
    warned = full_protocol(4, winner="red")
    warned["seats"][1]["warnings"] = 1
    refused = judge.put(url(fiim, 1), warned, format="json")
    assert refused.status_code == 400 and any(p["seat"] == 2 for p in refused.json()["problems"]), refused.json()

    kostroma = make_round("kostroma")
    judge = api(new_people(kostroma, "k-")["judge"])
    judge.get(url(kostroma, 1))
    body = full_protocol(1, "kostroma")
    body["seats"][4]["warnings"] = 2
    answer = judge.put(url(kostroma, 1), body, format="json")
    assert answer.status_code == 200, answer.json()
    assert answer.json()["seats"][4]["warnings"] == 2 and answer.json()["seats"][0]["warnings"] == 0
    again = full_protocol(2, "kostroma")
    assert judge.put(url(kostroma, 1), again, format="json").json()["seats"][4]["warnings"] == 2
