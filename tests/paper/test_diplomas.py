"""Diplomas and certificates (docs/rules/awards.md): winners, award recipients and finalists, the organizer's
title and signature line, Russian and English, the PDF; hidden standings: organizers only; all four rulesets."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from exchange.reading import to_model
from scoring.standings import compute_standings
from tournaments.models import Stage
from tournaments.services import awards as service

from .conftest import pdf_body, pdf_pages

pytestmark = pytest.mark.django_db
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def ready(generated: Any, organizer: Any, ruleset: str, *, over: bool = True) -> Any:
    t = generated(f"dip-{ruleset}", players=24, rounds=2, stages=2, ruleset=ruleset, standings_hidden=False)
    prize = service.add_award(t, organizer, "Audience prize")
    service.choose_recipient(t, organizer, "p0005", "the hall's vote", pk=prize.pk)
    service.save_diplomas(t, organizer, "Open Cup 2025", "I. Petrov", "Chief judge")
    last = Stage.objects.filter(tournament=t).order_by("order").last()
    assert last is not None
    if over:
        last.closed = True
    else:
        last.planned_rounds = 5
    last.save()
    return t


def sheets(html: str) -> list[str]:
    return html.split('<section class="sheet">')[1:]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_one_diploma_per_winner_recipient_and_finalist(client: Any, organizer: Any, generated: Any,
                                                      ruleset: str) -> None:
    t = ready(generated, organizer, ruleset)
    html = client.get(reverse("paper:diplomas", args=[t.slug]) + "?lang=en").content.decode()
    model = to_model(t)
    final = compute_standings(model, model.stages[-1].id)
    pages = sheets(html)
    winners = [p for p in pages if 'class="diploma winner"' in p or 'class="diploma place"' in p]
    if ruleset in ("tomsk", "kostroma"):  # the side that won the last game
        assert len(winners) == len(final.winners or ()) and all("Winner of the tournament" in p for p in winners)
    else:  # prize places 1-3 of the final results
        assert "1st place" in winners[0] and len(winners) >= 3
    awards = [p for p in pages if 'class="diploma award"' in p]
    assert any("Audience prize" in p and "Player 5" in p for p in awards)
    finalists = [p for p in pages if 'class="diploma participant"' in p]
    assert len(finalists) == len(final.rows) and all("Certificate of participation" in p for p in finalists)
    assert all("Open Cup 2025" in p and "I. Petrov" in p and "Chief judge" in p for p in pages)


def test_russian_and_english_from_one_template(client: Any, organizer: Any, generated: Any) -> None:
    from django.utils import translation

    t = ready(generated, organizer, "fiim")
    url = reverse("paper:diplomas", args=[t.slug])
    english = client.get(url + "?lang=en").content.decode()
    russian = client.get(url + "?lang=ru").content.decode()
    with translation.override("ru"):
        certificate = translation.gettext("Certificate of participation")
    assert "Certificate of participation" in english and certificate in russian and 'lang="ru"' in russian
    assert client.get(url + "?lang=de").status_code == 404


def test_before_the_final_is_over_only_certificates(client: Any, organizer: Any, generated: Any) -> None:
    t = ready(generated, organizer, "zvezdy", over=False)
    html = client.get(reverse("paper:diplomas", args=[t.slug]) + "?lang=en").content.decode()
    assert 'id="not-final"' in html
    pages = sheets(html)
    assert pages and all('class="diploma participant"' in p for p in pages)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_mid_tournament_nobody_is_a_finalist_and_the_pdf_says_nothing_is_final(client: Any, organizer: Any,
                                                                               generated: Any, ruleset: str) -> None:
    # with the qualifying under way, diplomas.pdf printed "finalist of the tournament" for its players
    t = ready(generated, organizer, ruleset, over=False)
    last = Stage.objects.filter(tournament=t).order_by("order").last()
    assert last is not None
    last.rounds.all().delete()
    last.entries.all().delete()
    last.players_listed = False
    last.save()
    html = client.get(reverse("paper:diplomas", args=[t.slug]) + "?lang=en").content.decode()
    assert 'id="not-final"' in html and "The final is not over: nothing here is final." in html
    assert sheets(html) == [] and "finalist of the tournament" not in html
    text = "\n".join(pdf_pages(pdf_body(client.get(reverse("paper:diplomas_pdf", args=[t.slug]) + "?lang=en"))))
    assert "The final is not over" in text and "finalist of" not in text.lower()


def test_the_pdf(client: Any, organizer: Any, generated: Any) -> None:
    t = ready(generated, organizer, "kostroma")
    pages = pdf_pages(pdf_body(client.get(reverse("paper:diplomas_pdf", args=[t.slug]) + "?lang=en")))
    assert any("Audience prize" in p and "Player 5" in p for p in pages)
    assert sum("PARTICIPATION" in p.upper() for p in pages) >= 1  # printed in capitals
    html = client.get(reverse("paper:diplomas", args=[t.slug]) + "?lang=en").content.decode()
    assert len(pages) == len(sheets(html))  # one page each


def test_hidden_only_organizers(client: Any, organizer: Any, stranger: Any, generated: Any) -> None:
    t = ready(generated, organizer, "fiim")
    t.standings_hidden = True
    t.save()
    client.force_login(stranger)
    assert client.get(reverse("paper:diplomas", args=[t.slug])).status_code == 403
    assert client.get(reverse("paper:diplomas_pdf", args=[t.slug])).status_code == 403
    client.force_login(organizer)
    assert client.get(reverse("paper:diplomas", args=[t.slug])).status_code == 200


def test_diploma_settings_refuse_long_text(organizer: Any, generated: Any) -> None:
    from tournaments.models import Diplomas
    from tournaments.services.awards import AwardError

    t = generated("dip-long", players=20, rounds=1)
    with pytest.raises(AwardError):
        service.save_diplomas(t, organizer, "x" * 201, "", "")
    assert not Diplomas.objects.filter(tournament=t).exists()
