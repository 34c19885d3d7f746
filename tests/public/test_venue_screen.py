"""The venue screen's page on the projector: its slides for every ruleset, hidden standings honoured, and its cost
(the organizer's side: tests/venue_screen)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def screen(slug: str, language: str = "ru") -> str:
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/p/{slug}/screen/").content.decode()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_shows_seating_and_standings_unless_hidden(import_file: Any, ruleset: str) -> None:
    t = import_file(f"{ruleset}-example.json", f"screen-{ruleset}", standings_hidden=False)
    page = screen(t.slug)
    kinds = re.findall(r'data-key="(\w+)-\d+"', page)
    assert "tables" in kinds and "alphabetical" in kinds and "standings" in kinds, kinds
    assert any(p.player.full_name in page for p in t.participants.select_related("player"))
    assert "venue-screen.js" in page and 'data-hx-trigger="every 5s"' in page
    # namesakes on the alphabetical slides are told apart by their numbers (two «Алексеева Ольга» were not), and a
    # slide's page is not read as the round's («тур 4 1/3»)
    names = re.findall(r'<li class="venue-line"><span class="venue-name">[^<]+</span>( <span[^>]*>№\d+</span>)?',
                       page)
    assert names and all(names), names
    pages = re.findall(r'venue-slide-page">([^<]*)</span>', page)
    assert all(re.fullmatch(r"· \d+ из \d+", said) for said in pages) and (pages or ruleset != "fiim"), pages
    t.standings_hidden = True
    t.save()
    hidden = screen(t.slug)
    assert "standings" not in re.findall(r'data-key="(\w+)-\d+"', hidden)
    assert "tables" in re.findall(r'data-key="(\w+)-\d+"', hidden)


def test_a_tournament_without_a_round_says_so(tournament: Any) -> None:
    assert "как только будет опубликован тур" in screen(tournament.slug)


def test_an_unchanged_poll_costs_one_query(fiim: Any, django_assert_max_num_queries: Any) -> None:
    """The screen's poll revalidates with the ETag (as the browser and the proxy do): unchanged, one query."""
    poll = Client(HTTP_ACCEPT_LANGUAGE="ru", HTTP_HX_REQUEST="true")
    screen(fiim.slug)
    first = poll.get(f"/p/{fiim.slug}/screen/")  # the fragment alone
    assert "venue-slide" in first.content.decode()
    with django_assert_max_num_queries(1):  # the tournament's version
        assert poll.get(f"/p/{fiim.slug}/screen/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
