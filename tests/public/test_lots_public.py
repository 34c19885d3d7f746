"""The public standings and the exported results say "by lot" where a draw decided an order (every ruleset)."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from django.urls import reverse

from running.services.lots import draw_lots
from tests.running.test_lots import TIED, tied_file
from tournaments.models import Stage

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "zvezdy", "tomsk"])
def test_public_standings_and_results_mark_the_players_placed_by_lot(
        client: Any, import_file: Any, organizer: Any, ruleset: str,
        django_capture_on_commit_callbacks: Any) -> None:
    tournament = import_file(tied_file(ruleset), f"{ruleset}-lots", standings_hidden=False)
    stage = Stage.objects.select_related("tournament").get(tournament=tournament, ext_id="q")
    page = reverse("public:stage_standings", args=[tournament.slug, "q"])
    csv_url = reverse("paper:stage_csv", args=[tournament.slug, "q"])
    html = client.get(page).content.decode()
    assert "by-lot" not in html
    assert "Place by lot" not in client.get(csv_url).content.decode()
    with django_capture_on_commit_callbacks(execute=True):  # the draw's commit bumps the public version
        draw_lots(stage, list(TIED[ruleset]), organizer)
    html = client.get(page).content.decode()
    assert html.count('class="badge text-bg-info by-lot"') == len(TIED[ruleset])
    assert 'id="by-lot-note"' in html
    # The badge sits under the player's name, not beside the rank: on a phone a wide rank column pushed the
    # tie-break columns off the screen.
    assert not re.search(r'<td class="text-end text-nowrap">\d+\s*<span class="badge text-bg-info by-lot"', html)
    rows = list(csv.reader(io.StringIO(client.get(csv_url).content.decode("utf-8")[1:])))
    column = rows[0].index("Place by lot")
    marked = {line[2] for line in rows[1:] if line[column]}
    assert marked == set(TIED[ruleset])
    printed = client.get(reverse("paper:results", args=[tournament.slug])).content.decode()
    assert "Place by lot" in printed or "Место по жребию" in printed
