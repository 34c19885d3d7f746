"""The tournament's parameters after it was created: changing one before any game is saved at once;
after games were played it asks for confirmation first, then re-scores every game (the standings are those
``scoring`` computes for the file with the new parameters); every change is recorded with who, when and
before → after; a change saved meanwhile by someone else is detected, never overwritten; bad values are refused
naming the field, in Russian; and parameters that do not apply to the regulation have no field at all."""

from __future__ import annotations

import json
import re
from html import unescape
from importlib import import_module
from typing import Any

import pytest
from django.apps import apps
from django.test import Client

from public.models import ResultsVersion
from scoring import fileio
from scoring.params import PARAM_KINDS
from scoring.rulesets import get_ruleset
from scoring.standings import compute_standings, standings_json
from tests.helpers import example_text
from tournaments.forms.params import ParamsForm
from tournaments.models import ParamChange, Tournament

pytestmark = pytest.mark.django_db


def form_data(tournament: Tournament, client: Client, **changes: str) -> dict[str, Any]:
    """What a browser posts: every field as the page fills it, then ``changes`` typed over it."""
    html = client.get(f"/t/{tournament.slug}/parameters/").content.decode()
    data: dict[str, Any] = {"seen": unescape(re.search(r'name="seen" value="([^"]*)"', html).group(1))}
    for name, value in re.findall(r'<input type="text" name="(param-[\w]+)" value="([^"]*)"', html):
        data[name] = unescape(value)  # as a browser reads the attribute
    for select in re.findall(r'<select name="(param-[\w]+)"[^>]*>(.*?)</select>', html, re.S):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', select[1])
        data[select[0]] = chosen.group(1) if chosen else ""
    data.update(changes)
    return data


def standings_of(data: dict[str, Any], stage: str) -> dict[str, object]:
    return standings_json(compute_standings(fileio.loads(json.dumps(data)), stage))


def test_a_change_before_any_game_is_saved_and_recorded(client: Client, organizer: Any, make_tournament: Any,
                                                        django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament("fiim", slug="open")
    client.force_login(organizer)
    before = ResultsVersion.objects.filter(tournament=tournament).values_list("version", flat=True).first() or 0
    with django_capture_on_commit_callbacks(execute=True):  # the results version moves on at the commit
        response = client.post("/t/open/parameters/", form_data(tournament, client, **{
            "param-win_points": "1", "param-ci_rate": "0,4", "reason": "рейтинговый турнир"}))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.params == {"win_points": 1, "ci_rate": 0.4}
    change = ParamChange.objects.get(tournament=tournament)
    assert change.changed_by == organizer and change.before is None and change.after == tournament.params
    assert change.changes == [["win_points", 2, 1], ["ci_rate", 0, 0.4]] and change.reason == "рейтинговый турнир"
    assert change.games_with_results == 0
    assert ResultsVersion.objects.get(tournament=tournament).version > before  # public pages built again
    html = client.get("/t/open/parameters/").content.decode()
    history = html.split('id="params-history"', 1)[1]
    assert "баллы за победу: 2 → 1" in history and "0,4" in history and "рейтинговый турнир" in history


def test_after_games_it_asks_first_then_rescores_everything(client: Client, organizer: Any, fiim: Any) -> None:
    client.force_login(organizer)
    source = json.loads(example_text("fiim-example.json"))
    played = sum(1 for stage in source["stages"] for round_ in stage["rounds"] for game in round_["games"]
                 if game.get("winner"))
    data = form_data(fiim, client, **{"param-win_points": "1", "param-ci_rate": "0.4"})
    asked = client.post("/t/fiim-open/parameters/", data)
    assert asked.status_code == 400
    page = asked.content.decode()
    assert 'id="confirm-rescoring"' in page and f"Игр с результатом: {played}" in page and "2 → 1" in page
    fiim.refresh_from_db()
    assert fiim.params is None and not ParamChange.objects.exists()  # nothing saved without the tick

    assert client.post("/t/fiim-open/parameters/", {**data, "confirm": "yes"}).status_code == 302
    fiim.refresh_from_db()
    assert fiim.params == {"win_points": 1, "ci_rate": 0.4}
    assert ParamChange.objects.get().games_with_results == played
    source["params"] = {"win_points": 1, "ci_rate": 0.4}
    for stage in ("qualifying", "semifinal", "final"):
        got = client.get(f"/api/tournaments/fiim-open/standings/?stage={stage}").json()
        assert got == standings_of(source, stage), stage  # every game scored again, as scoring scores the file
    exported = json.loads(client.get("/t/fiim-open/export/").content.decode())
    assert exported["params"] == {"win_points": 1, "ci_rate": 0.4}


def test_a_change_saved_meanwhile_is_never_overwritten(organizer: Any, make_user: Any,
                                                       make_tournament: Any) -> None:
    tournament = make_tournament("kostroma", slug="city")
    other = make_user("second")
    tournament.organizers.add(other)
    first, second = Client(), Client()
    first.force_login(organizer)
    second.force_login(other)
    mine = form_data(tournament, first, **{"param-removal_points": "-2"})
    theirs = form_data(tournament, second, **{"param-bye_points": "1"})
    assert second.post("/t/city/parameters/", theirs).status_code == 302
    late = first.post("/t/city/parameters/", mine)
    assert late.status_code == 409
    tournament.refresh_from_db()
    assert tournament.params == {"bye_points": 1}  # the other organizer's change stands
    page = late.content.decode()
    assert "изменил параметры" in page
    assert re.search(r'name="param-removal_points" value="-2"', page)  # what the late one typed is kept
    # saving again from that page is checked against the parameters in force now, and keeps both
    again = form_data(tournament, first, **{"param-removal_points": "-2"})
    assert first.post("/t/city/parameters/", again).status_code == 302
    tournament.refresh_from_db()
    assert tournament.params == {"bye_points": 1, "removal_points": -2}
    assert ParamChange.objects.count() == 2


@pytest.mark.parametrize(("field", "value", "message"), [
    ("param-win_points", "две", "Напишите значение JSON"),
    ("param-ci_rate", "-1", "не может быть меньше 0"),
    ("param-table_size", "13", "должно быть от 1 до 12"),
    ("param-role_points", '{"judge": {"win": 1}}', "нет роли &#x27;judge&#x27;"),
    ("param-tiebreaks_1", "wins", "показатель &#x27;wins&#x27; указан дважды"),
])
def test_bad_values_are_refused_naming_the_field_and_nothing_is_saved(client: Client, organizer: Any,
                                                                     make_tournament: Any, field: str,
                                                                     value: str, message: str) -> None:
    tournament = make_tournament("fiim", slug="open")
    client.force_login(organizer)
    data = form_data(tournament, client, **{field: value})
    if field.startswith("param-tiebreaks"):
        data["param-tiebreaks_0"] = "wins"
    response = client.post("/t/open/parameters/", data)
    assert response.status_code == 400
    assert message in response.content.decode()
    summary = response.content.decode().split('id="error-summary"', 1)[1].split("</div>", 1)[0]
    anchor = "id_param-tiebreaks_0" if field.startswith("param-tiebreaks") else f"id_{field}"
    assert f'<a href="#{anchor}">' in summary and f'id="{anchor}"' in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.params is None and not ParamChange.objects.exists()


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_fields_are_those_of_the_regulation(ruleset: str) -> None:
    form = ParamsForm(ruleset_id=ruleset, prefix="param")
    not_applicable = get_ruleset(ruleset).not_applicable
    assert set(form.fields) == set(PARAM_KINDS) - not_applicable
    # a dash parameter posted anyway is no field, so no change: the file refuses it (test_dash_parameters_*)
    bound = ParamsForm({f"param-{name}": "1" for name in not_applicable}, ruleset_id=ruleset, prefix="param")
    assert bound.is_valid() and bound.overrides == {}
    chain = form.fields["tiebreaks"].initial
    own = list(get_ruleset(ruleset)().tiebreak_chain(0, 0))
    assert chain == ([] if ruleset == "zvezdy" else own)  # zvezdy's chain follows the sides' wins: left empty


def test_choosing_the_regulations_own_chain_again_is_no_change() -> None:
    own = list(get_ruleset("fiim")().tiebreak_chain(0, 0))
    data = {f"param-tiebreaks_{i}": metric for i, metric in enumerate(own)}
    form = ParamsForm(data, ruleset_id="fiim", prefix="param")
    assert form.is_valid() and form.overrides == {}
    data = {"param-tiebreaks_0": "extra_total", "param-tiebreaks_1": "", "param-tiebreaks_2": "wins"}
    form = ParamsForm(data, ruleset_id="fiim", prefix="param")
    assert form.is_valid() and form.overrides == {"tiebreaks": ["extra_total", "wins"]}  # empty slots skipped


def test_an_optional_limit_emptied_is_no_limit_and_a_field_left_out_keeps_its_value() -> None:
    form = ParamsForm({"param-ineligible_after_absences": ""}, ruleset_id="fiim", prefix="param")
    assert form.is_valid() and form.overrides == {"ineligible_after_absences": None}
    form = ParamsForm({"param-bye_points": "1,5"}, ruleset_id="fiim", prefix="param")
    assert form.is_valid() and form.overrides == {"bye_points": 1.5}
    form = ParamsForm({"param-bye_points": "1/3"}, ruleset_id="fiim", prefix="param")
    assert form.is_valid() and form.overrides == {"bye_points": "1/3"}  # exact, as the file keeps it


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_russian_decimal_comma_in_a_list_is_a_half_never_a_five(ruleset: str) -> None:
    """«[0, 0,5]» read as JSON was [0, 0, 5]: a 5 allowed and the half not. The comma between the digits is decimal
    where the list's values are separated by a comma and a space, and «[0,5]» alone is refused as ambiguous."""
    from tournaments.forms.params import typed_json

    for typed, meant in (("[0, 0,5]", [0, 0.5]), ("[0, 0,25, 0,5]", [0, 0.25, 0.5]), ("[0,0.5]", [0, 0.5]),
                         ("[1,2,3]", [1, 2, 3]), ('{"red": 0,5}', {"red": 0.5})):
        assert typed_json(typed) == meant, typed
    name = "best_move_civilian"  # a structured parameter of every regulation
    form = ParamsForm({f"param-{name}": '{"2": 0,5, "3": 1}'}, ruleset_id=ruleset, prefix="param")
    assert form.is_valid(), form.errors
    assert form.overrides[name] == {"2": 0.5, "3": 1}
    if ruleset != "tomsk":  # tomsk's extra points are no list of values (a dash)
        form = ParamsForm({"param-extra_values_loser": "[0, 0,25]"}, ruleset_id=ruleset, prefix="param")
        assert form.is_valid() and form.overrides["extra_values_loser"] == [0, 0.25], form.errors
    form = ParamsForm({f"param-{name}": "[0,5]"}, ruleset_id=ruleset, prefix="param")
    assert not form.is_valid() and "[0, 5]" in str(form.errors[name]) and name not in form.overrides

def test_dash_parameters_in_a_file_are_refused_in_the_organizers_language(client: Client, organizer: Any) -> None:
    data = json.loads(example_text("fiim-example.json"))
    data["params"] = {"day_points": 1}
    client.force_login(organizer)
    response = client.post("/import/", {"file": _upload(data), "slug": "with-dash"})
    assert response.status_code == 400
    assert "params.day_points: не применяется в регламенте ФИИМ" in response.content.decode()
    assert not Tournament.objects.filter(slug="with-dash").exists()


def _upload(data: dict[str, Any]) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("cup.json", json.dumps(data).encode(), content_type="application/json")


def test_the_upgrade_removes_parameters_that_do_not_apply_and_records_it(client: Client, organizer: Any,
                                                                         make_tournament: Any) -> None:
    fiim = make_tournament("fiim", slug="old-fiim")
    tomsk = make_tournament("tomsk", slug="old-tomsk")
    Tournament.objects.filter(pk=fiim.pk).update(params={"day_points": 1, "sp_max": 2, "win_points": 1})
    Tournament.objects.filter(pk=tomsk.pk).update(params={"extra_values_winner": [0, 1], "day_points": 1})
    import_module("tournaments.migrations.0017_strip_dash_params").strip(apps, None)
    fiim.refresh_from_db()
    tomsk.refresh_from_db()
    assert fiim.params == {"win_points": 1} and tomsk.params == {"day_points": 1}
    record = ParamChange.objects.get(tournament=fiim)
    assert record.changes == [["day_points", 1, None], ["sp_max", 2, None]] and record.changed_by is None
    client.force_login(organizer)
    html = client.get("/t/old-fiim/parameters/").content.decode()
    assert "не применяется в регламенте" in html and client.get("/p/old-fiim/rules/").status_code == 200


@pytest.mark.parametrize("user", ["anonymous", "stranger"])
def test_only_the_organizers_see_or_change_it(client: Client, stranger: Any, make_tournament: Any,
                                              user: str) -> None:
    tournament = make_tournament("fiim", slug="open")
    if user == "stranger":
        client.force_login(stranger)
    refused = 403 if user == "stranger" else 302
    assert client.get("/t/open/parameters/").status_code == refused
    assert client.post("/t/open/parameters/", {"seen": "{}", "param-win_points": "9"}).status_code == refused
    tournament.refresh_from_db()
    assert tournament.params is None


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_reason_over_its_limit_is_refused_never_cut(client: Client, organizer: Any, make_tournament: Any,
                                                      ruleset: str) -> None:
    """The reason was cut to 300 characters without a word: now the page says so under the field, keeps the text,
    and saves nothing; 300 characters are kept whole."""
    tournament = make_tournament(ruleset, slug="open")
    client.force_login(organizer)
    long = "Ж" * 280 + " по просьбе ГСК"  # 295
    response = client.post("/t/open/parameters/", form_data(tournament, client, reason=long + "!" * 6),
                           HTTP_ACCEPT_LANGUAGE="ru")
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="reason-error">Не больше 300 знаков, а в этом тексте 301' in page
    assert '<a href="#id-reason">Причина</a>: Не больше 300' in page  # and at the top
    assert f'value="{long}!!!!!!"' in page and not ParamChange.objects.exists()
    assert 'maxlength="300"' in page  # what the browser's counter reads
    field = next(name for name in form_data(tournament, client) if name.startswith("param-"))
    data = form_data(tournament, client, reason=long + "!" * 5)
    data[field] = "7" if data[field] not in ("7",) else "8"
    assert client.post("/t/open/parameters/", data).status_code == 302
    assert ParamChange.objects.get(tournament=tournament).reason == long + "!" * 5


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_structured_values_show_the_readers_decimal_comma_and_read_back_the_same(
        client: Client, organizer: Any, make_tournament: Any, ruleset: str) -> None:
    """The page says numbers are written 0,5: its lists and tables of numbers show them so (``[0, 0,5]``), and the
    page saved as shown changes nothing."""
    tournament = make_tournament(ruleset, slug="open")
    client.force_login(organizer)
    html = client.get("/t/open/parameters/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    structured = re.findall(r'<input type="text" name="param-\w+" value="([\[{][^"]*)"', html)
    assert structured and not any(re.search(r"\d\.\d", unescape(v)) for v in structured), structured
    if ruleset == "fiim":
        assert 'name="param-extra_values_loser" value="[0, 0,5]"' in html
    response = client.post("/t/open/parameters/", form_data(tournament, client), follow=True)
    assert "Ничего не изменилось" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.params is None and not ParamChange.objects.exists()
