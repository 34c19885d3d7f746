"""The public rules page's stages: the regulation's own (kostroma had a semifinal row it does not have: found walking
the pages as an organizer) and this tournament's (a tomsk tournament advancing 6 a table showed the regulation's 3)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.utils import translation

from scoring.rulesets import get_ruleset
from tests.public.test_rules_words import visible
from tournaments.labels import STAGE_KINDS
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


def table_rows(page: str, heading: str) -> list[str]:
    """The visible rows of the stages table under the heading with id ``heading``."""
    start = page.index(f'aria-labelledby="{heading}"')
    body = page[start:page.index("</table>", start)]
    return [visible(row).strip() for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)][1:]


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_regulations_stages_are_the_ones_it_has(client: Any, import_file: Any, ruleset: str) -> None:
    tournament = import_file(f"{ruleset}-example.json", ruleset)
    Stage.objects.filter(tournament=tournament).update(planned_rounds=99)  # unlike the regulation: both tables shown
    client.cookies["django_language"] = "ru"
    page = client.get(f"/p/{ruleset}/rules/").content.decode()
    kinds = get_ruleset(ruleset).stage_kinds
    with translation.override("ru"):
        assert [row.split()[0] for row in table_rows(page, "rules-stages-heading")] == [
            str(STAGE_KINDS[kind]) for kind in kinds]
    own = table_rows(page, "tournament-stages-heading")
    assert len(own) == tournament.stages.count() and all(" 99 " in row for row in own)
    assert 'id="stages-changed"' in page
    assert ("полуфинал" in page) == (ruleset != "kostroma")


def test_the_tournaments_own_stages_are_said_and_the_regulations_only_where_they_differ(
        client: Any, import_file: Any) -> None:
    tournament = import_file("kostroma-example.json", "kos")
    client.cookies["django_language"] = "ru"
    page = client.get("/p/kos/rules/").content.decode()
    # the example plays kostroma's programme: one table, the regulation's not repeated
    assert table_rows(page, "tournament-stages-heading") == [
        "Отборочный 4 сбалансированная (компьютерная выборка) лучшие 10 1 нет",
        "Финал 1 случайная — 1,5 нет"] and 'id="rules-stages-heading"' not in page
    Stage.objects.filter(tournament=tournament, ext_id="qualifying").update(
        advance_kind="per_game", advance_count=6, seating_plan=["random", "balanced"])
    Stage.objects.filter(tournament=tournament, ext_id="final").update(multiplier=2, reset=True)
    page = client.get("/p/kos/rules/").content.decode()
    assert table_rows(page, "tournament-stages-heading") == [
        "Отборочный 4 случайная, сбалансированная (компьютерная выборка) лучшие 6 каждого стола 1 нет",
        "Финал 1 случайная — 2 да"]
    assert table_rows(page, "rules-stages-heading")[0].startswith("отборочный 4") and 'id="stages-changed"' in page
