"""The public seating page shows the stage's seating figures so far: the same numbers
as the organizer's round page (computed there from the seat rows, here by ``scoring`` from the
published model), published rounds only, shown in hidden-standings mode too (they are not results)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from running.services.figures import round_figures
from tournaments.models import Round, RoundState

pytestmark = pytest.mark.django_db


def shown(html: str) -> dict[str, str]:
    return dict(re.findall(r'id="fig-(\w+)">([^<]*)<', html))


def organizer_figures(stage: str, number: int) -> dict[str, str]:
    f = round_figures(Round.objects.get(stage__ext_id=stage, number=number))
    r = f.report
    return {"pairs": str(r["pairs_met_twice_or_more"]), "max": str(r["max_meetings"]), "q": str(r["q"]),
            "bound": str(r["lower_bound"]), "shape": str(f.shape_bound), "seats": str(r["same_seat_repeats"]),
            "early": f"{f.early['min']}–{f.early['max']}"}


@pytest.mark.parametrize("number", [1, 3, 5])
def test_figures_agree_with_the_organizers_page(client: Any, generated: Any, number: int) -> None:
    generated("fig", players=40, rounds=5, standings_hidden=False)
    html = client.get(f"/p/fig/seating/s1/{number}/").content.decode()
    figures = html[html.index('id="seating-figures"'):]
    assert f"Figures over {number} round" in figures
    assert shown(figures) == organizer_figures("s1", number)
    if number == 5:  # 40 players over 5 random rounds at 4 tables of 10: repeats are certain
        assert int(shown(figures)["pairs"]) > 0 and int(shown(figures)["shape"]) > 0


def test_figures_count_published_rounds_only(client: Any, generated: Any) -> None:
    generated("fig", players=40, rounds=4, standings_hidden=False)
    Round.objects.filter(stage__ext_id="s1", number=4).update(state=RoundState.DRAFT)
    html = client.get("/p/fig/seating/").content.decode()
    assert "Figures over 3 rounds of the stage" in html
    assert shown(html) == organizer_figures("s1", 3)


def test_figures_are_shown_while_standings_are_hidden(client: Any, generated: Any) -> None:
    generated("fig", players=40, rounds=3, standings_hidden=True)
    html = client.get("/p/fig/seating/s1/3/").content.decode()
    assert 'id="seating-figures"' in html and shown(html) == organizer_figures("s1", 3)


def test_teammates_together_where_there_are_teams(client: Any, import_file: Any) -> None:
    import_file("tomsk-example.json", "tomsk-open", standings_hidden=False)
    round_ = Round.objects.filter(stage__tournament__slug="tomsk-open", state=RoundState.PUBLISHED).last()
    assert round_ is not None
    html = client.get(f"/p/tomsk-open/seating/{round_.stage.ext_id}/{round_.number}/").content.decode()
    assert 'id="fig-team"' in html
    expected = round_figures(round_).report["teammates_together"]
    assert shown(html)["team"] == str(expected)


def test_figures_in_russian(client: Any, generated: Any) -> None:
    generated("fig", players=40, rounds=2, standings_hidden=False)
    client.cookies["django_language"] = "ru"
    html = client.get("/p/fig/seating/s1/2/").content.decode()
    assert "Показатели за 2 тура этапа" in html and "пар, встретившихся дважды и более" in html
