"""The results CSV says what the PDF and the XLSX say: the winners and the champion team (where the regulation
has teams) below the rows, under the title (the title was the file's last line, alone, and no winner was named).
Each regulation's example, in Russian, as the organizer read it."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import csv_of, first_sheet, russian, standings_of

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_results_csv_names_the_winners_and_the_champion_team(client: Any, import_file: Any,
                                                                  ruleset: str) -> None:
    tournament = import_file(f"{ruleset}-example.json", f"{ruleset}-w", standings_hidden=False)
    rows = csv_of(russian(client), tournament.slug)
    sheet = first_sheet(client, tournament.slug)
    final = standings_of(tournament)[tournament.stages.order_by("order").last().ext_id]
    names = {row.player: row.name for row in final.rows}
    winners = ", ".join(names[pid] for pid in final.winners or ())
    assert winners  # every example's final is over: someone won
    assert ["Победители", winners] in rows and ["Победители", winners] in [row[:2] for row in sheet]
    champion = [row[:2] for row in sheet if row[:1] == ["Команда-чемпион"]]
    assert bool(champion) is (ruleset == "tomsk")  # only tomsk has the team competition
    assert [row for row in rows if row[:1] == ["Команда-чемпион"]] == champion
    title = rows.index(["Итоговые результаты"])
    assert rows[title - 1] == [] and rows[title + 1][0] == "Победители"  # the title heads the winners
    assert rows[-1] != ["Итоговые результаты"] and len(rows[0]) > 1  # no orphan title; the header first
