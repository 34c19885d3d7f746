"""Awards and the results title in the documents, the public standings and the API (docs/rules/awards.md):
"standings after round N" until the final is over, then "final results" with the awards; all four rulesets."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Stage
from tournaments.services import awards as service

from .conftest import pdf_body, pdf_pages

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def with_awards(generated: Any, organizer: Any, ruleset: str) -> Any:
    t = generated(f"doc-{ruleset}", players=24, rounds=2, stages=2, ruleset=ruleset, standings_hidden=False)
    service.set_given(t, organizer, "best_player", True)
    prize = service.add_award(t, organizer, "Audience prize")
    service.choose_recipient(t, organizer, "p0005", "the hall's vote", pk=prize.pk)
    return t


def close_final(t: Any) -> None:
    last = Stage.objects.filter(tournament=t).order_by("order").last()
    assert last is not None
    last.closed = True
    last.save()


def csv_rows(client: Any, t: Any) -> list[list[str]]:
    text = client.get(reverse("paper:results_csv", args=[t.slug])).content.decode("utf-8")
    return list(csv.reader(io.StringIO(text[1:])))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_before_the_final_is_over_no_awards_and_standings_after_round_n(client: Any, organizer: Any,
                                                                        generated: Any, ruleset: str) -> None:
    t = with_awards(generated, organizer, ruleset)
    Stage.objects.filter(tournament=t, ext_id="s2").update(planned_rounds=5)  # the final is still on
    rows = csv_rows(client, t)
    assert rows[0][0] == "Place" and rows[-1] == ["Standings after round 2"]  # the header first, the title below
    assert ["Award", "Recipient", "Note"] not in rows
    book = load_workbook(io.BytesIO(client.get(reverse("paper:results_xlsx", args=[t.slug])).content))
    assert book.sheetnames[0] == "Standings after round 2" and "Awards" not in book.sheetnames
    html = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert "Standings after round 2" in html and 'id="awards"' not in html


@pytest.mark.parametrize("ruleset", RULESETS)
def test_once_over_final_results_with_the_awards(client: Any, organizer: Any, generated: Any, ruleset: str) -> None:
    t = with_awards(generated, organizer, ruleset)
    close_final(t)
    rows = csv_rows(client, t)
    title = rows.index([]) + 1  # below the rows: the title heading the winners, then the awards
    assert rows[0][0] == "Place" and rows[title] == ["Final results"] and rows[title + 1][0] == "Winners"
    block = rows[rows.index(["Award", "Recipient", "Note"]) + 1:]
    titles = [line[0] for line in block]
    assert titles[:1] == ["Best player of the tournament"] and "Audience prize" in titles
    prize = block[titles.index("Audience prize")]
    assert prize[1] == "Player 5" and "the hall's vote" in prize[2]
    book = load_workbook(io.BytesIO(client.get(reverse("paper:results_xlsx", args=[t.slug])).content))
    assert book.sheetnames[:2] == ["Final results", "Awards"]
    assert ["Audience prize", "Player 5"] in [[c.value for c in r[:2]] for r in book["Awards"].iter_rows()]
    html = client.get(reverse("public:standings", args=[t.slug])).content.decode()
    assert "Final results" in html and 'id="awards"' in html and "Audience prize" in html
    assert reverse("public:player", args=[t.slug, "p0005"]) in html
    api = client.get(reverse("api:awards", args=[t.slug])).json()
    assert api["final"] is True and [a["title"] for a in api["awards"]][-1] == "Audience prize"
    assert api["awards"][-1]["players"] == ["p0005"] and api["awards"][-1]["by_hand"] is True


def test_the_printable_results_and_pdf_list_the_awards(client: Any, organizer: Any, generated: Any) -> None:
    t = with_awards(generated, organizer, "fiim")
    close_final(t)
    page = client.get(reverse("paper:results", args=[t.slug])).content.decode()
    assert 'class="awards"' in page and "Audience prize" in page
    first = pdf_pages(pdf_body(client.get(reverse("paper:results_pdf", args=[t.slug]))))[0]
    assert "Final results" in first and "Audience prize" in first and "Player 5" in first


def test_hidden_awards_only_for_organizers(client: Any, organizer: Any, stranger: Any, generated: Any) -> None:
    t = with_awards(generated, organizer, "zvezdy")
    t.standings_hidden = True
    t.save()
    client.force_login(stranger)
    assert client.get(reverse("api:awards", args=[t.slug])).status_code == 403
    client.force_login(organizer)
    assert client.get(reverse("api:awards", args=[t.slug])).status_code == 200


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_results_title_follows_the_tournament(make_tournament: Any, generated: Any, ruleset: str) -> None:
    from django.utils import translation

    from public.snapshot import Snapshot

    empty = make_tournament(ruleset, slug=f"empty-{ruleset}")
    Stage.objects.create(tournament=empty, ext_id="q", kind="qualifying", order=1)
    one_stage = generated(f"one-{ruleset}", players=24, rounds=3, ruleset=ruleset)
    with translation.override("en"):
        assert Snapshot(empty).results_title() == "Standings"
        assert Snapshot(one_stage).results_title() == "Standings after round 3"  # no final: never "final"
        Stage.objects.filter(tournament=one_stage).update(closed=True)
        one_stage.refresh_from_db()
        assert Snapshot(one_stage).results_title() == "Final results"  # the organizer closed the last stage
