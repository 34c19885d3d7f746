"""The public rules page explains each parameter in words (tournaments/param_words.py), in English and
Russian, for the four regulations' defaults and for a FIIM-style rated tournament; no raw JSON reaches the page, and
the first-night compensation (Ci) is worked for the tournament's stages."""

from __future__ import annotations

import html as html_lib
import json
import re
from fractions import Fraction
from typing import Any

import pytest
from django.utils import translation

from scoring.numbers import round_half_up
from scoring.params import PARAM_NAMES
from scoring.rulesets import get_ruleset
from tests.helpers import example_text
from tournaments.models import Stage
from tournaments.param_words import StageRounds, describe
from tournaments.param_words.sentences import ci_example

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")
LANGUAGES = ("en", "ru")
# A FIIM-style rated tournament (docs/rules/parameters.md, "Options of rated tournaments").
RATED = {"win_points": 1, "ci_rate": 0.4, "tiebreaks": ["extra_total", "wins", "don_wins", "sheriff_wins"],
         "role_points": {"don": {"win": 0.5, "loss": -0.5}}, "loss_points": 0, "rank_by": "average", "min_games": 3}
RATED_CHANGED = {"win_points", "ci_rate", "tiebreaks", "role_points", "rank_by", "min_games"}  # loss_points 0 = default
RAW = ("{", "}", "[", "]", '"', "null", "None", "True", "False", ".000000", "%(", "%s")


def applicable(ruleset: str) -> list[str]:
    return [name for name in PARAM_NAMES if name not in get_ruleset(ruleset).not_applicable]


def assert_plain(text: str, language: str) -> None:
    """No JSON, no Python value, no unformatted placeholder; Russian is Russian and writes decimals with a comma."""
    for raw in RAW:
        assert raw not in text, (raw, text)
    if language == "ru":
        assert re.search("[а-яё]", text, re.I), text
        assert not re.search(r"\d\.\d", text), text


# --- the words alone (no database) ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_parameter_that_applies_gets_a_plain_sentence(ruleset: str, language: str) -> None:
    with translation.override(language):
        words = describe(get_ruleset(ruleset)())
        assert [w.name for w in words] == applicable(ruleset)
        for w in words:
            assert w.text.endswith(".") and not w.changed and not w.default, w
            assert_plain(w.label + " " + w.text, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_rated_overrides_are_marked_changed_with_the_regulations_words(language: str) -> None:
    with translation.override(language):
        words = {w.name: w for w in describe(get_ruleset("fiim").with_overrides(RATED))}
    assert {name for name, w in words.items() if w.changed} == RATED_CHANGED
    for w in words.values():
        assert_plain(" ".join((w.text, w.default, *w.details)), language)
        assert bool(w.default) == w.changed and w.default != w.text
    if language == "en":
        assert words["win_points"].text == "A win gives each player of the winning side 1 point."
        assert words["win_points"].default == "A win gives each player of the winning side 2 points."
        assert words["tiebreaks"].text == ("Ties are broken by extra and best-move points, then wins, then wins as "
                                           "don, then wins as sheriff, then lots.")
        assert words["role_points"].text == "On top of the result, a don gets +0.5 for a win and −0.5 for a loss."
        assert "points per game" in words["rank_by"].text
        assert words["min_games"].text.startswith("A player with fewer than 3 games is ranked after everyone else")
        assert words["loss_points"].text == "A loss gives no points."
    else:
        assert words["win_points"].text == "Победа приносит каждому игроку победившей стороны 1 балл."
        assert words["role_points"].text == "Сверх результата дон получает +0,5 за победу и −0,5 за поражение."
        assert words["tiebreaks"].text.endswith("затем победы шерифом, затем жребий.")
        assert "меньше 3 игр" in words["min_games"].text


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Qualifying, 12 rounds, B = 5: a red player killed first in 2 games of the stage gets 0.16 in each of "
           "them the red side lost (0.4 × 2 / 5)."),
    ("ru", "Отборочный, 12 туров, B = 5: красный игрок, убитый первым в 2 играх этапа, получает 0,16 в каждой из "
           "них, проигранной красными (0,4 × 2 / 5)."),
])
def test_ci_is_worked_for_a_stage_of_twelve_rounds(language: str, expected: str) -> None:
    # ci_rate 0.4, ci_share 0.4, N = 12 rounds: B = max(1, round_half_up(0.4 × 12 = 4.8)) = 5; a player killed
    # first in K = 2 games: Ci = min(ci_cap = ci_rate = 0.4, 0.4 × 2 / 5 = 0.16) = 0.16 in each lost one.
    params = get_ruleset("fiim").with_overrides(RATED).params
    with translation.override(language):
        name = "Отборочный" if language == "ru" else "qualifying"
        assert ci_example(params, StageRounds(name, 12)) == expected


def test_ci_examples_show_the_cap_the_half_up_rounding_and_a_one_round_stage() -> None:
    ruleset = get_ruleset("fiim")
    with translation.override("en"):
        # 3 rounds × 0.4 = 1.2 → B = 1; 0.8 × 2 / 1 = 1.6, capped at 0.2
        capped = ruleset.with_overrides({"ci_rate": 0.8, "ci_cap": 0.2}).params
        assert "B = 1" in ci_example(capped, StageRounds("final", 3))
        assert "gets 0.2 in each" in ci_example(capped, StageRounds("final", 3))
        assert "(0.8 × 2 / 1 = 1.6, at most 0.2)" in ci_example(capped, StageRounds("final", 3))
        # 5 rounds × 0.5 = 2.5 → B = 3 (half up); 0.3 × 2 / 3 = 0.2
        half = ruleset.with_overrides({"ci_rate": 0.3, "ci_share": 0.5}).params
        assert "5 rounds, B = 3" in ci_example(half, StageRounds("semifinal", 5))
        assert "gets 0.2 in each" in ci_example(half, StageRounds("semifinal", 5))
        # one round: K cannot be more than 1; 0.4 × 1 / max(1, round(0.4)) = 0.4
        one = ruleset.with_overrides({"ci_rate": 0.4}).params
        assert ci_example(one, StageRounds("final", 1)) == (
            "Final, 1 round, B = 1: a red player killed first in 1 game of the stage gets 0.4 in it if the red "
            "side lost (0.4 × 1 / 1).")
    assert [round_half_up(Fraction(x, 10)) for x in (44, 45, 48, 25, 0, 4)] == [4, 5, 5, 3, 0, 0]
    assert one.ci_divisor(12) == 5 and one.ci_divisor(1) == 1 and one.ci_divisor(0) == 1


def test_without_stages_the_regulations_formats_are_worked() -> None:
    with translation.override("en"):
        words = {w.name: w for w in describe(get_ruleset("fiim").with_overrides({"ci_rate": 0.4}))}
    # fiim proposes 7, 3 and 4 rounds: B = round(2.8) = 3, round(1.2) = 1, round(1.6) = 2
    assert [d.split(":")[0] for d in words["ci_rate"].details] == [
        "Qualifying, 7 rounds, B = 3", "Semifinal, 3 rounds, B = 1", "Final, 4 rounds, B = 2"]


def test_lists_ranges_and_no_limits_in_words() -> None:
    ruleset = get_ruleset("kostroma").with_overrides({
        "extra_values_winner": {"min": -2, "max": 2, "step": 0.5}, "extra_values_loser": [],
        "extra_total_max": None, "max_byes": 2, "win_points": {"red": 3, "black": 4.5}})
    with translation.override("en"):
        words = {w.name: w.text for w in describe(ruleset)}
    assert words["extra_values_winner"].endswith("from −2 to 2 in steps of 0.5.")
    assert words["extra_values_loser"].endswith("these extra points: none.")
    assert words["extra_total_max"] == "The extra points of one game have no limit in total."
    assert words["max_byes"] == "A player gets at most 2 byes in the tournament."
    assert words["win_points"] == "A win gives each player of the winning side 3 points as red, 4.5 points as black."
    with translation.override("ru"):
        words = {w.name: w.text for w in describe(ruleset)}
    assert words["extra_values_winner"].endswith("от −2 до 2 с шагом 0,5.")
    assert words["win_points"].endswith("3 балла за красных; 4,5 балла за чёрных.")
    assert words["extra_values_winner"] != words["extra_values_loser"]


# --- the page ---------------------------------------------------------------------------------------------


def params_table(client: Any, slug: str, language: str) -> str:
    client.cookies["django_language"] = language
    page = client.get(f"/p/{slug}/rules/").content.decode()
    start = page.index(">", page.index('id="params"')) + 1
    return page[start:page.index("</table>", start)]


def visible(fragment: str) -> str:
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", fragment)).split())


def rows(table: str) -> dict[str, str]:
    """Each parameter's row by its code name: the row's opening tag and content."""
    return dict(re.findall(r'<tr id="param-(\w+)"(.*?)</tr>', table, flags=re.S))


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_rules_page_says_each_default_in_words(client: Any, import_file: Any, ruleset: str,
                                                   language: str) -> None:
    import_file(f"{ruleset}-example.json", f"{ruleset}-words")
    table = params_table(client, f"{ruleset}-words", language)
    by_name = rows(table)
    assert list(by_name) == applicable(ruleset)
    for name, row in by_name.items():
        assert "<code" not in row and name not in row  # named by its label, never by its id
        assert "table-warning" not in row.split(">")[0]
    assert_plain(visible(table), language)


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_rated_tournament_page_works_ci_for_its_stages(client: Any, import_file: Any, language: str) -> None:
    data = json.loads(example_text("fiim-example.json"))
    data["params"] = RATED
    tournament = import_file(data, "rated")
    Stage.objects.filter(tournament=tournament, ext_id="qualifying").update(planned_rounds=12)
    table = params_table(client, "rated", language)
    by_name = rows(table)
    assert {name for name, row in by_name.items() if "table-warning" in row.split(">")[0]} == RATED_CHANGED
    ci = visible(by_name["ci_rate"])
    comma = "," if language == "ru" else "."
    assert "B = 5" in ci and f"0{comma}16" in ci and f"(0{comma}4 × 2 / 5)" in ci  # 12 rounds, see above
    assert "12 туров" in ci if language == "ru" else "12 rounds" in ci
    # the semifinal's 3 rounds of the file: B = max(1, round(1.2)) = 1, K = 2: 0.8, capped at the rate 0.4
    assert f"0{comma}4 × 2 / 1 = 0{comma}8" in ci
    assert_plain(visible(table).replace("_", " "), language)


@pytest.mark.django_db
def test_how_ties_are_broken_follows_a_tournaments_own_chain(client: Any, import_file: Any) -> None:
    data = json.loads(example_text("zvezdy-example.json"))
    data["params"] = {"tiebreaks": ["wins", "best"]}
    import_file(data, "stars-chain")
    page = visible(client.get("/p/stars-chain/rules/").content.decode())
    line = page[page.index("How ties are broken:"):page.index("This tournament's stages")]
    assert line.strip() == "How ties are broken: wins, times named best"


def test_the_standings_say_the_tournaments_own_chain_not_the_regulations(client: Any, import_file: Any) -> None:
    """Found walking the pages: a zvezdy tournament with its own chain showed zvezdy's text above its table."""
    data = json.loads(example_text("zvezdy-example.json"))
    data["params"] = {"tiebreaks": ["extra_total", "ci", "losses"]}
    import_file(data, "zv-own", standings_hidden=False)
    client.cookies["django_language"] = "ru"
    html = client.get("/p/zv-own/standings/qualifying/").content.decode()
    line = html.split('id="how-ties"', 1)[1].split("</p>", 1)[0]
    assert "при равных баллах — доп. баллы и лучший ход, компенсация за первую ночь (ci), поражения; затем жребий" \
        in line.lower()
    assert "личными встречами" not in line
    data["params"] = {"tiebreaks": ["wins"], "rank_by": "average"}
    import_file(data, "zv-average", standings_hidden=False)
    page = client.get("/p/zv-average/standings/qualifying/").content.decode()
    line = page.split('id="how-ties"', 1)[1]
    assert "при равном среднем — победы; затем жребий" in line.split("</p>", 1)[0]
