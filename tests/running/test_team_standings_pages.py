"""The team competition (tomsk 4.5) on the organizer's and the public standings, in the exports and the API."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from scoring.standings import compute_standings
from tests.site.page_matrix_world import tables_of, visible_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def tomsk(import_file: Any, client: Any, organizer: Any) -> Any:
    client.force_login(organizer)
    client.cookies["django_language"] = "en"  # the new strings' Russian is in ru-teams.json until the merge
    return import_file("tomsk-example.json", "tomsk-teams")


def organizer_page(client: Any, t: Any, stage: str) -> str:
    return str(client.get(reverse("running:standings", kwargs={"slug": t.slug, "stage": stage})).content.decode())


def test_organizer_page_marks_the_two_teams_of_the_qualifying_and_the_cut(client: Any, tomsk: Any) -> None:
    from exchange.reading import to_model

    truth = compute_standings(to_model(tomsk), "qualifying")
    # The example's 2nd and 3rd teams tie on points with nothing to break it: both go on with the first.
    assert truth.team_cut == 2 and len(truth.team_advance) == 3
    html = organizer_page(client, tomsk, "qualifying")
    rows = tables_of(html)["team-standings"][1:]
    assert [row[0] for row in rows] == ["1", "2", "2", "4", "5", "6"]
    assert html.count("team-advances") == 3 and html.count("team-cut-line") == 1
    assert "2 teams go on in the team competition" in visible_text(html)
    assert 'id="champion-team"' not in html


def test_the_semifinal_shows_the_teams_out_of_the_competition(client: Any, tomsk: Any) -> None:
    html = organizer_page(client, tomsk, "semifinal")
    assert html.count("team-advances") == 1
    assert visible_text(html).count("out of the team competition") == 3  # the 3 teams the qualifying left out


def test_the_final_names_the_champion_team_everywhere(client: Any, tomsk: Any, api: Any) -> None:
    from exchange.reading import to_model

    model = to_model(tomsk)
    (champion,) = compute_standings(model, "semifinal").team_advance
    name = next(t.name for t in model.teams or () if t.id == champion)
    assert compute_standings(model, "final").champion_teams == (champion,)
    organizer_final = visible_text(organizer_page(client, tomsk, "final"))
    assert f"Champion team: {name}" in organizer_final
    # As on the public page: the 5 teams the earlier stages left out are marked in the final too.
    assert organizer_final.count("out of the team competition") == 5
    public = client.get(reverse("public:stage_standings", kwargs={"slug": tomsk.slug, "stage": "final"}))
    assert f"Champion team: {name}" in visible_text(public.content.decode())
    printed = visible_text(client.get(reverse("paper:results", args=[tomsk.slug])).content.decode())
    assert f"Champion team: {name}" in printed and "Teams · " in printed
    book = load_workbook(io.BytesIO(client.get(reverse("paper:results_xlsx", args=[tomsk.slug])).content))
    titles = [sheet.title for sheet in book.worksheets]
    assert "Awards" in titles  # the final has a result: the awards sheet follows the stages' sheets
    assert [title.startswith("Teams") for title in titles if title != "Awards"] == [False] * 4 + [True] * 3
    final_sheet = [[c for c in row if c is not None] for row in book.worksheets[0].iter_rows(values_only=True)]
    assert ["Champion team", name] in final_sheet
    answer = api().get(reverse("api:standings", args=[tomsk.slug]), {"stage": "final"}).json()
    assert answer["champion_teams"] == [champion]
    answer = api().get(reverse("api:standings", args=[tomsk.slug]), {"stage": "qualifying"}).json()
    assert answer["team_cut"] == 2 and len(answer["team_advance"]) == 3  # a tie at the cut


def test_a_ruleset_without_a_team_competition_shows_only_the_team_table(client: Any, import_file: Any,
                                                                        organizer: Any) -> None:
    import json

    from tests.helpers import example_text

    data = json.loads(example_text("fiim-example.json"))
    data["teams"] = [{"id": "a", "name": "Альфа"}, {"id": "b", "name": "Бета"}]
    for index, player in enumerate(data["players"]):
        player["team"] = "a" if index % 2 else "b"
    t = import_file(data, "fiim-teams")
    client.force_login(organizer)
    stage = t.stages.order_by("order").first()
    html = organizer_page(client, t, stage.ext_id)
    assert len(tables_of(html)["team-standings"]) == 3
    assert "team-advances" not in html and 'id="team-cut"' not in html and "champion-team" not in html
