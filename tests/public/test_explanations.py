""""Why am I ranked here?" and "What do I need?" on the public pages: every ruleset, the same answers as
``python -m scoring explain`` and ``needs`` (no second computation), lots with who drew them, nothing while the
standings are hidden."""

from __future__ import annotations

import copy
import html
import itertools
import re
from typing import Any

import pytest
from django.test import Client

from public.snapshot import Snapshot
from scoring.explain import explain_standings
from scoring.needs import needs
from tests.running.test_lots import TIED, tied_file
from tournaments.models import LotDraw, Stage

pytestmark = pytest.mark.django_db

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def text_of(url: str) -> str:
    body = Client(HTTP_ACCEPT_LANGUAGE="ru").get(url).content.decode()
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def why_of(t: Any, player: str, stage: str) -> str:
    """The "Why am I ranked here?" section as the player's page loads it when opened (htmx), after checking that the
    page has the section and loads it from there."""
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/players/{player}/").content.decode()
    section = page.split(f'id="why-{stage}"')[1].split("</details>")[0]
    url = f"/p/{t.slug}/players/{player}/why/{stage}/"
    assert f'data-hx-get="{url}"' in page and "Почему у меня это место в таблице?" in section
    assert f'href="{url}"' in section
    return Client(HTTP_ACCEPT_LANGUAGE="ru").get(url, HTTP_HX_REQUEST="true").content.decode()


def words(fragment: str) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", fragment)))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_why_follows_the_explanation_of_scoring(import_file: Any, ruleset: str) -> None:
    t = import_file(f"{ruleset}-example.json", f"why-{ruleset}", standings_hidden=False)
    snapshot = Snapshot(t)
    stage = snapshot.stages[0]
    standings = snapshot.standings(stage.ext_id)
    player = next(row.player for row in standings.rows[1:] if row.rank is not None)
    answer = explain_standings(snapshot.model, standings, player)
    why = why_of(t, player, stage.ext_id)
    entries = why.count("<li")
    assert entries == len(answer["against"]) > 0  # type: ignore[arg-type]
    for entry in answer["against"]:  # type: ignore[attr-defined]
        assert snapshot.name(entry["player"]) in html.unescape(why)
    assert why.count("(решает)") == sum(1 for e in answer["against"]  # type: ignore[attr-defined]
                                         if any(s.get("decides") for s in e["steps"]))


def test_lots_say_who_drew_them(import_file: Any, organizer: Any) -> None:
    data = copy.deepcopy(tied_file("fiim"))
    data["stages"][0]["lots"] = list(TIED["fiim"])
    t = import_file(data, "why-lots", standings_hidden=False)
    stage = Stage.objects.get(tournament=t, ext_id="q")
    LotDraw.objects.create(stage=stage, players=list(TIED["fiim"]), method="physical", drawn_by_name="Главный судья",
                           drawn_at="2025-05-01T15:40:00+00:00")
    text = words(why_of(t, TIED["fiim"][1], "q"))
    assert "одинаково на каждом шаге: решил жребий" in text
    assert "жребий тянули в зале; кто записал: Главный судья" in text


def open_stage(import_file: Any, ruleset: str, planned: int) -> tuple[Any, Stage]:
    from scoring import fileio
    from scoring.generate import generate

    data = fileio.dump(generate(ruleset, players=20 if ruleset != "tomsk" else 24, rounds=2, seed=3, stages=2))
    data["tournament"] = {"name": f"Нужно {ruleset}", "standings_hidden": False}
    t = import_file(data, f"need-{ruleset}")
    stage = Stage.objects.get(tournament=t, order=min(s.order for s in t.stages.all()))
    stage.planned_rounds = planned
    stage.save()
    return t, stage


@pytest.mark.parametrize("ruleset", RULESETS)
def test_needs_are_scorings_for_the_rounds_left(import_file: Any, ruleset: str) -> None:
    t, stage = open_stage(import_file, ruleset, planned=3)
    snapshot = Snapshot(t)
    try:
        answer = needs(snapshot.model, stage.ext_id, "advance", 1)
    except Exception:
        answer = needs(snapshot.model, stage.ext_id, "win", 1)
    statuses = {e["player"]: e["status"] for e in answer["players"]}  # type: ignore[index]
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/standings/{stage.ext_id}/").content.decode()
    shown = dict(re.findall(r'href="/p/[^/]+/players/([^/]+)/">.*?class="need need-(\w+)"', page))
    for player, status in shown.items():
        assert statuses[player] == status, (player, status)
    if any(s != "open" for s in statuses.values()):
        assert any(s != "open" for s in shown.values())
    someone = next(iter(statuses))
    text = text_of(f"/p/{t.slug}/players/{someone}/")
    assert "Что мне нужно?" in text


def test_nothing_while_hidden_or_over(import_file: Any, django_capture_on_commit_callbacks: Any) -> None:
    t, stage = open_stage(import_file, "fiim", planned=3)
    t.standings_hidden = True
    t.save()
    player = t.participants.first().ext_id
    assert "Что мне нужно?" not in text_of(f"/p/{t.slug}/players/{player}/")
    assert "Почему у меня это место в таблице?" not in text_of(f"/p/{t.slug}/players/{player}/")
    t.standings_hidden = False
    t.save()
    with django_capture_on_commit_callbacks(execute=True):  # the results version follows, as in production
        stage.planned_rounds = stage.rounds.count()  # all played: the stage is over, the standings say the rest
        stage.save()
    assert "Что мне нужно?" not in text_of(f"/p/{t.slug}/players/{player}/")


def test_need_numbers_follow_each_readers_language(import_file: Any) -> None:
    """The answers are kept once for every reader: a Russian reader first must not leave "0,5" to the English."""
    from django.core.cache import cache

    from public.explanations import needs_of
    from scoring import fileio
    from scoring.generate import generate

    data = fileio.dump(generate("fiim", players=30, rounds=3, seed=5))  # halves among the figures
    data["tournament"] = {"name": "Нужно", "standings_hidden": False}
    t = import_file(data, "need-format")
    stage = Stage.objects.get(tournament=t)
    stage.planned_rounds, stage.advance_kind, stage.advance_count = 4, "top", 10
    stage.save()
    answers = needs_of(Snapshot(t), stage)
    assert answers
    player = next(p for p, n in answers.items()
                  if any(v and not v.lstrip("-−").isdigit() for v in (n.to_clinch, n.to_keep_chance)))
    cache.clear()  # a Russian reader comes first
    url = f"/p/{t.slug}/players/{player}/"
    assert "Что мне нужно?" in text_of(url)
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get(url).content.decode()
    need_line = english.split(f'id="need-{stage.ext_id}"')[1].split("</p>")[0]
    assert re.search(r"\d\.\d", need_line) and not re.search(r"\d,\d", need_line), need_line


def test_need_words_say_more_than_and_read_losses_as_losses() -> None:
    """Gaining exactly ``to_clinch`` is not enough (a tie may go against): "more than"; a negative figure is a loss,
    not "fewer than −0,5 more"."""
    from django.utils import translation

    from public.explanations import Need

    with translation.override("ru"):
        sure = Need("open", "advance", "1/2", None)
        assert sure.badge == "хватит набрать больше +0,5"
        assert "набрать за оставшиеся игры в сумме баллов больше 0,5 — и выход в следующий этап обеспечен" in sure.words
        assert "потерять за оставшиеся игры в сумме баллов меньше 1 — и победа всё равно обеспечена" in Need(
            "open", "win", "-1", None).words
        assert Need("open", "advance", "-1", None).badge == "хватит набрать больше −1"
        assert "набрать за оставшиеся игры в сумме баллов меньше 2 — и шансов не останется" in Need(
            "open", "advance", None, "2").words
        assert "потерять за оставшиеся игры в сумме баллов больше 0,5 — и шансов не останется" in Need(
            "open", "advance", None, "-1/2").words
        assert "потерять за оставшиеся игры хоть сколько-нибудь баллов" in Need("open", "advance", None, "0").words
        assert "−" not in Need("open", "advance", "-1", "-3").words  # losses in words, no minus signs
    with translation.override("en"):  # no "1 more points": the figure without a noun to agree with
        assert Need("open", "advance", None, "1").words == "not decided yet: gaining less than 1 leaves no chance"
        assert Need("open", "win", "1/2", None).words == ("not decided yet: gaining more than 0.5 makes you a winner, "
                                                          "whatever the others do")


def test_standings_explain_the_badges(import_file: Any) -> None:
    """A badge's title cannot be read on a phone: the badges are said in words under the table."""
    t, stage = open_stage(import_file, "fiim", planned=3)
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/standings/{stage.ext_id}/").content.decode()
    assert 'class="need need-' in page
    note = html.unescape(page.split('id="needs-note">')[1].split("</p>")[0])
    assert note.startswith("Осталось 2 тура.")
    shown = set(re.findall(r'class="need need-(\w+)"', page))
    for status, badge in (("clinched", "«проходит»"), ("eliminated", "«вне борьбы»"), ("open", "«хватит набрать")):
        assert (badge in note) == (status in shown), (status, shown, note)  # only the badges the table shows


def test_the_badges_of_a_final_speak_of_winning() -> None:
    from django.utils import translation

    from public.explanations import needs_legend

    with translation.override("ru"):
        assert needs_legend("win", 1, {"eliminated"}) == "Остался 1 тур. «вне борьбы» — победить уже нельзя."
        assert needs_legend("advance", 5, {"open"}) == ("Осталось 5 туров. «хватит набрать больше +N» — набрав в "
                                                        "оставшихся играх больше N, игрок выходит в следующий этап "
                                                        "при любых результатах других.")


def test_a_shared_rank_is_not_called_a_drawing_of_lots(import_file: Any) -> None:
    t = import_file("tomsk-example.json", "why-shared", standings_hidden=False)
    snapshot = Snapshot(t)
    stage = snapshot.stages[0]
    rows = snapshot.standings(stage.ext_id).rows
    first, second = next((a, b) for a, b in itertools.pairwise(rows) if a.rank == b.rank is not None)
    why = words(why_of(t, first.player, stage.ext_id))
    assert f"На том же месте: {snapshot.name(second.player)} (место {second.rank})" in why
    assert "одинаково на каждом шаге, жребий не бросали: место общее" in why
    assert "решил жребий" not in why


def test_the_average_is_in_points_like_everywhere() -> None:
    from django.utils import translation

    from public.explanations import step_label

    with translation.override("ru"):
        assert step_label("average") == "баллы за игру"


def test_a_disqualified_player_is_told_in_words_and_gets_no_badge(import_file: Any, organizer: Any) -> None:
    from tournaments.services.disqualification import disqualify

    t, stage = open_stage(import_file, "kostroma", planned=3)
    player = t.participants.order_by("ext_id").first()
    disqualify(player, organizer, "неспортивное поведение")
    why = words(why_of(t, player.ext_id, stage.ext_id))
    assert "вы дисквалифицированы, этот игрок — нет (решает)" in why
    assert "да против нет" not in why
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/standings/{stage.ext_id}/").content.decode()
    row = page.split(f'/players/{player.ext_id}/"')[1].split("</tr>")[0]
    assert "disqualified" in row and 'class="need ' not in row  # "out of reach" beside "disqualified" says nothing


def test_the_poll_leaves_an_open_why_open(import_file: Any) -> None:
    """The player's page polls every 20 s and would swap "Why am I ranked here?" shut under its reader: the block
    pauses while a <details> in it is open (static/js/site.js, data-poll-paused-while-open)."""
    t, stage = open_stage(import_file, "fiim", planned=3)
    player = t.participants.order_by("ext_id").first().ext_id
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/players/{player}/").content.decode()
    live = re.search(r'<div id="live"[^>]*>', page)
    assert live and "data-hx-trigger" in live.group(0) and "data-poll-paused-while-open" in live.group(0)
    assert f'id="why-{stage.ext_id}"' in page


def test_a_players_page_needs_no_standings_of_its_own_and_the_section_works_without_scripts(import_file: Any) -> None:
    """The page carries the section's link; the comparisons come when it is opened. So a player's page, once the
    version's totals are computed in this process (``model_cache.derived``), computes no standings, and a browser
    without scripts follows the link to a page."""
    from unittest import mock

    from public import snapshot as snapshots

    t = import_file("fiim-example.json", "why-lazy", standings_hidden=False)
    snapshot = Snapshot(t)
    stage = snapshot.stages[0].ext_id
    rows = [row.player for row in snapshot.standings(stage).rows]
    client = Client(HTTP_ACCEPT_LANGUAGE="ru")
    assert client.get(f"/p/{t.slug}/players/{rows[0]}/").status_code == 200  # the version's totals kept
    with mock.patch.object(snapshots, "compute_standings", side_effect=AssertionError("standings computed")):
        page = client.get(f"/p/{t.slug}/players/{rows[1]}/").content.decode()
    assert f'/p/{t.slug}/players/{rows[1]}/why/{stage}/' in page
    whole = client.get(f"/p/{t.slug}/players/{rows[1]}/why/{stage}/")  # no HX-Request: a page of its own
    assert whole.status_code == 200 and "<!doctype html>" in whole.content.decode()
    assert words(whole.content.decode()).count("(решает)") >= 1
    # opened on its own it says whose comparisons these are and leads back (it had no heading nor a way back)
    name = snapshot.players[rows[1]].name
    assert f"{name}: почему это место в таблице" in words(whole.content.decode())
    assert f'href="/p/{t.slug}/players/{rows[1]}/"' in whole.content.decode()


def test_the_section_says_why_there_is_nothing_while_the_standings_are_hidden(import_file: Any) -> None:
    t = import_file("kostroma-example.json", "why-hidden", standings_hidden=True)
    stage = Snapshot(t).stages[0].ext_id
    player = t.participants.order_by("ext_id").first().ext_id
    page = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/players/{player}/").content.decode()
    assert 'class="mb-2 player-why"' not in page
    answer = Client(HTTP_ACCEPT_LANGUAGE="ru").get(f"/p/{t.slug}/players/{player}/why/{stage}/",
                                                   HTTP_HX_REQUEST="true")
    assert answer.status_code == 200 and "Нечего объяснять" in words(answer.content.decode())
    assert Client().get(f"/p/{t.slug}/players/nobody/why/{stage}/").status_code == 404
    assert Client().get(f"/p/{t.slug}/players/{player}/why/no-stage/").status_code == 404


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_rank_is_said_apart_from_the_seat(import_file: Any, ruleset: str) -> None:
    """«Стол 1, место 5» and «Место 11 · баллов: 1» on one page: the rank is «место в таблице» (found walking as a
    player)."""
    t = import_file(f"{ruleset}-example.json", f"rank-{ruleset}", standings_hidden=False)
    player = t.participants.order_by("ext_id").first().ext_id
    text = text_of(f"/p/{t.slug}/players/{player}/")
    assert "Место в таблице: " in text and "Почему у меня это место в таблице?" in text
