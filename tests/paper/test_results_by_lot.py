"""The whole tournament's table (the results CSV's first block, the XLSX's first sheet, the PDF's page 1) marks
the places a lot decided, as each stage's table does: it lost the mark (a tomsk final's tie at the winners' cut
drawn by lot was "by lot" on the final's page and sheet only). All four regulations."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from exchange.reading import to_model
from scoring.lots import decided_by_lot
from scoring.places import final_places
from tournaments.models import Stage

from .conftest import csv_of, first_sheet, pdf_body, pdf_pages, russian, standings_of

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]

pytestmark = pytest.mark.django_db


def tie_drawn(tournament: Any) -> str:
    """Draws lots (reversing the order) for a tied group of the latest stage that has one, with that stage's own
    lots cleared first: the lot then decides places of players that stage places. Returns the stage's id."""
    placed_by = {p.player: p.stage for p in final_places(to_model(tournament), standings_of(tournament).__getitem__)}
    for stage in tournament.stages.order_by("-order"):
        stage.lots = None
        stage.save()
        rows = standings_of(tournament)[stage.ext_id].rows
        groups: dict[int, list[str]] = {}
        for row in rows:
            if row.rank is not None and placed_by.get(row.player) == stage.ext_id:
                groups.setdefault(row.rank, []).append(row.player)
        tied = next((group for group in groups.values() if len(group) > 1), None)
        if tied is not None:
            stage.lots = tied[::-1]
            stage.save()
            return str(stage.ext_id)
        Stage.objects.filter(pk=stage.pk).update(lots=None)
    raise AssertionError("no tie in any stage")


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_overall_table_marks_the_places_a_lot_decided(client: Any, import_file: Any, generated: Any,
                                                         ruleset: str) -> None:
    if ruleset == "zvezdy":  # its example has no tie its chain leaves (head-to-head breaks them): a generated one
        tournament = generated("zvezdy-l", players=20, rounds=2, stages=2, ruleset=ruleset, standings_hidden=False)
    else:
        tournament = import_file(f"{ruleset}-example.json", f"{ruleset}-l", standings_hidden=False)
    tie_drawn(tournament)
    standings = standings_of(tournament)
    places = final_places(to_model(tournament), standings.__getitem__)
    expected = {p.player for p in places if p.player in decided_by_lot(standings[p.stage])}
    assert expected
    header, *rows = csv_of(russian(client), tournament.slug)
    rows = rows[:rows.index([])]
    column = header.index("Место по жребию")
    assert {row[2] for row in rows if row[column] == "по жребию"} == expected
    assert {row[column] for row in rows} == {"по жребию", ""}
    sheet = first_sheet(client, tournament.slug)
    column = sheet[0].index("Место по жребию")
    assert {row[2] for row in sheet[1:] if row[column] == "по жребию"} == expected
    first = pdf_pages(pdf_body(client.get(reverse("paper:results_pdf", args=[tournament.slug]))))[0]
    assert "по жребию" in first  # page 1: the overall table


def test_the_tomsk_final_tie_at_the_winners_cut_by_lot_in_the_overall_table(client: Any, import_file: Any) -> None:
    """The organizer's case: in the tomsk final the players tied at the winners' cut, the lots drew their order;
    the final's table marked them, the overall table did not."""
    tournament = import_file("tomsk-example.json", "tomsk-cut", standings_hidden=False)
    final = tournament.stages.order_by("order").last()
    header, *rows = csv_of(russian(client), tournament.slug)
    by_lot = decided_by_lot(standings_of(tournament)[final.ext_id])
    assert final.lots and by_lot  # the example's final: a lot decided places
    column = header.index("Место по жребию")
    marked = {row[2] for row in rows[:rows.index([])] if row[column] == "по жребию"}
    assert by_lot <= marked
