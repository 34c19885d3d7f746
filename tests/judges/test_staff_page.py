"""The staff page (judges and their tables) under bad input. Every POST field with a bad value
(huge, negative, text, empty, an id of another tournament) gives a form error naming the field, or a
redirect with a message that says exactly what was refused; never a 500, never "Saved." for a no-op,
and nothing changes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import reverse

from judges.models import Judge, JudgeAssignment
from judges.services import staff
from tournaments.models import Round, RoundState, Stage

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates

BAD_NUMBERS = ["", " ", "abc", "-1", "0", "1.5", "1e3", str(10**30), "-" + str(10**30), "9" * 400, "x" * 5000,
               "２ 3", "0x10"]
SAVED = "Saved."


@pytest.fixture(autouse=True)
def fast_passwords(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def scene(round_: Any, people: dict[str, Any], make_tournament: Any, make_user: Callable[..., User]) -> dict[str, Any]:
    """Our tournament (a round, judges, assignments) and another one with its own judge, stage, round,
    assignment: the other tournament's ids must never act on ours or theirs from our page."""
    tournament = round_.stage.tournament
    other = make_tournament("kostroma", slug="other-cup")
    stage = Stage.objects.create(tournament=other, ext_id="q", kind="qualifying", order=1)
    their_round = Round.objects.create(stage=stage, number=1, seating="random", state=RoundState.PUBLISHED)
    their_judge = staff.add_judge(other, make_user("theirs"))
    their_assignment = staff.assign(their_judge, stage, their_round, 1)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(people["organizer"])
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])
    return {
        "client": client, "url": reverse("games:staff", args=[tournament.slug]), "tournament": tournament,
        "judge": judge, "stage": round_.stage, "round": round_,
        "assignment": JudgeAssignment.objects.filter(judge=judge).first(),
        "their": {"judge": their_judge, "stage": stage, "round": their_round, "assignment": their_assignment},
    }


def state() -> tuple[list[Any], list[Any]]:
    return (sorted(Judge.objects.values_list("pk", "tournament", "user", "chief")),
            sorted(JudgeAssignment.objects.values_list("pk", "judge", "stage", "round", "table")))


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def post(scene: dict[str, Any], data: dict[str, Any]) -> tuple[Any, list[str]]:
    """The answer (a 200/400 page, or the page the redirect led to) and the messages it showed."""
    response = scene["client"].post(scene["url"], data)
    assert response.status_code in (200, 302, 400), (data, response.status_code)
    if response.status_code == 302:
        assert response["Location"] == scene["url"]
        page = scene["client"].get(scene["url"])
        return response, messages_of(page)
    return response, messages_of(response)


def refused(scene: dict[str, Any], data: dict[str, Any], *, field_label: str | None = None) -> list[str]:
    """Posts ``data``, which must change nothing and say so: a form error (naming ``field_label``) or
    an error message; never "Saved."."""
    before = state()
    response, said = post(scene, data)
    assert state() == before, data
    assert SAVED not in said, (data, said)
    if response.status_code == 302:
        assert said, data
        return said
    text = response.content.decode()
    assert response.status_code == 400, (data, response.status_code)
    assert "invalid-feedback" in text or "alert-block" in text or "errorlist" in text, data
    if field_label is not None:
        assert field_label in text
    return said


def assign_data(scene: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = {"action": "assign", "judge": scene["judge"].pk, "stage": scene["stage"].pk, "round_number": "1",
            "table": "2"}
    data.update(changes)
    return data


def test_every_field_of_the_assignment_with_bad_values(scene: dict[str, Any]) -> None:
    their = scene["their"]
    for field, values in {
        "judge": [*BAD_NUMBERS, their["judge"].pk],
        "stage": [*BAD_NUMBERS, their["stage"].pk],
        "round_number": [v for v in BAD_NUMBERS if v.strip()] + ["7"],  # empty means every round
        "table": BAD_NUMBERS,
    }.items():
        for value in values:
            refused(scene, assign_data(scene, **{field: value}))


def test_a_huge_table_number_is_a_form_error_naming_the_table(scene: dict[str, Any]) -> None:
    response, _ = post(scene, assign_data(scene, table=str(10**30)))
    assert response.status_code == 400
    text = response.content.decode()
    assert 'id="error_1_id_table"' in text and "less than or equal to" in text


def test_a_non_numeric_judge_id_is_a_form_error(scene: dict[str, Any]) -> None:
    response, _ = post(scene, assign_data(scene, judge="abc"))
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()


def test_remove_and_unassign_refuse_bad_and_foreign_ids(scene: dict[str, Any]) -> None:
    their = scene["their"]
    for value in [*BAD_NUMBERS, their["judge"].pk, "999999"]:
        said = refused(scene, {"action": "remove_judge", "judge": value})
        assert any("judge" in m for m in said), said
    for value in [*BAD_NUMBERS, their["assignment"].pk, "999999"]:
        said = refused(scene, {"action": "unassign", "assignment": value})
        assert any("table" in m for m in said), said
    refused(scene, {"action": "remove_judge"})
    refused(scene, {"action": "unassign"})


def test_an_unknown_or_missing_action_is_refused(scene: dict[str, Any]) -> None:
    for data in ({}, {"action": ""}, {"action": "drop"}, {"action": "x" * 5000}):
        assert refused(scene, data) == ["Unknown action."]


def test_the_judge_form_with_bad_values(scene: dict[str, Any]) -> None:
    for value in ["", " ", "nobody", "x" * 5000, str(10**30)]:
        refused(scene, {"action": "judge", "username": value})
    refused(scene, {"action": "judge", "username": "theirs", "chief": "on"})  # the chief judge is someone else


def test_a_repeated_assignment_says_it_was_there_already(scene: dict[str, Any]) -> None:
    data = assign_data(scene, table="1")  # the judge hosts table 1 of round 1 already
    refused(scene, data)
    response, _ = post(scene, data)
    assert f"{scene['judge'].user} already hosts table 1 in round 1 of {scene['stage']}." in response.content.decode()
    other = Judge.objects.get(tournament=scene["tournament"], user__username="other")
    refused(scene, assign_data(scene, judge=other.pk, table="2", round_number=""))  # their stage-wide table 2


def test_good_actions_still_save_and_say_so(scene: dict[str, Any]) -> None:
    _, said = post(scene, assign_data(scene, table="2", round_number=""))
    assert said == [SAVED]
    assert JudgeAssignment.objects.filter(judge=scene["judge"], round=None, table=2).exists()
    _, said = post(scene, {"action": "unassign", "assignment": scene["assignment"].pk})
    assert said == [SAVED] and not JudgeAssignment.objects.filter(pk=scene["assignment"].pk).exists()
    _, said = post(scene, {"action": "remove_judge", "judge": scene["judge"].pk})
    assert said == [SAVED] and not Judge.objects.filter(pk=scene["judge"].pk).exists()
    assert Judge.objects.filter(pk=scene["their"]["judge"].pk).exists()


def test_generated_posts_never_fail_and_say_saved_only_for_a_change(scene: dict[str, Any]) -> None:
    """Generated posts to the staff page (any action, any field, values good and bad, ids of both
    tournaments): never a 500; "Saved." exactly when something changed; a refusal always says why."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    their = scene["their"]
    ids = [scene["judge"].pk, scene["stage"].pk, scene["assignment"].pk, their["judge"].pk, their["stage"].pk,
           their["assignment"].pk, 1, 2, 3]
    bad = st.one_of(st.integers(-(10**40), 10**40).map(str), st.sampled_from(BAD_NUMBERS),
                    st.text(max_size=30).filter(lambda s: "\x00" not in s))
    number = st.one_of(st.sampled_from(["1", "2", "3", ""]), bad)
    some_id = st.one_of(st.sampled_from([str(i) for i in ids]), bad)
    name = st.one_of(st.sampled_from(["judge", "other", "theirs", "chief", "nobody", "director"]), bad)
    flag = st.sampled_from(["on", "", "false", "0", "1"])
    fields = st.fixed_dictionaries({}, optional={
        "username": name, "chief": flag, "judge": some_id, "stage": some_id, "round_number": number,
        "table": number, "assignment": some_id, "four_eyes": flag})
    actions = st.sampled_from(["judge", "assign", "remove_judge", "unassign", "confirmation", "", "other"])

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(action=actions, data=fields)
    def check(action: str, data: dict[str, str]) -> None:
        before = (state(), scene["tournament"].__class__.objects.values_list("four_eyes", flat=True).get(
            pk=scene["tournament"].pk))
        response, said = post(scene, {"action": action, **data})
        after = (state(), scene["tournament"].__class__.objects.values_list("four_eyes", flat=True).get(
            pk=scene["tournament"].pk))
        if response.status_code == 302:
            assert said, (action, data)
            assert (SAVED in said or any(m.startswith("Four-eyes confirmation is") for m in said)) == (
                before != after), (action, data, said)
        else:
            assert response.status_code == 400 and before == after, (action, data)

    check()


def test_adding_a_judge_twice_says_so(scene: dict[str, Any]) -> None:
    for data, text in (({"username": "judge"}, "judge is already a judge of this tournament."),
                       ({"username": "chief", "chief": "on"}, "chief is already the chief judge.")):
        refused(scene, {"action": "judge", **data})
        response, _ = post(scene, {"action": "judge", **data})
        assert text in response.content.decode()
    _, said = post(scene, {"action": "judge", "username": "judge", "chief": "on"})  # the chief judge is another
    assert said == []
    _, said = post(scene, {"action": "judge", "username": "chief"})  # the chief judge becomes a judge
    assert said == [SAVED] and not Judge.objects.filter(tournament=scene["tournament"], chief=True).exists()
