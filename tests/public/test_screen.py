"""The venue screen: its slides for every ruleset, hidden standings honoured, the organizer's
announcements and timer, refusals named, and its cost."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from public.models import VenueScreen

pytestmark = pytest.mark.django_db

RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def screen(slug: str, language: str = "ru") -> str:
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/p/{slug}/screen/").content.decode()


def organizer_client(user: Any) -> Client:
    web = Client(HTTP_ACCEPT_LANGUAGE="ru")
    web.force_login(user)
    return web


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_ruleset_shows_seating_and_standings_unless_hidden(import_file: Any, ruleset: str) -> None:
    t = import_file(f"{ruleset}-example.json", f"screen-{ruleset}", standings_hidden=False)
    page = screen(t.slug)
    kinds = re.findall(r'data-key="(\w+)-\d+"', page)
    assert "tables" in kinds and "alphabetical" in kinds and "standings" in kinds, kinds
    assert any(p.player.full_name in page for p in t.participants.select_related("player"))
    assert "venue-screen.js" in page and 'data-hx-trigger="every 5s"' in page
    t.standings_hidden = True
    t.save()
    hidden = screen(t.slug)
    assert "standings" not in re.findall(r'data-key="(\w+)-\d+"', hidden)
    assert "tables" in re.findall(r'data-key="(\w+)-\d+"', hidden)


def test_a_tournament_without_a_round_says_so(tournament: Any) -> None:
    assert "как только будет опубликован тур" in screen(tournament.slug)


def test_announcements_and_timer_from_the_organizer(fiim: Any, organizer: Any, stranger: Any) -> None:
    web = organizer_client(organizer)
    assert "Экран в зале" in web.get(f"/p/{fiim.slug}/screen/control/").content.decode()
    before = screen(fiim.slug)
    answer = web.post(f"/p/{fiim.slug}/screen/control/", {
        "action": "announcements", "announcements": "Перерыв на обед до 14:00.\n\nФинал в 16:00 в большом зале.",
        "seconds_per_slide": "20"})
    assert answer.status_code == 302
    after = screen(fiim.slug)
    assert after != before  # the version was bumped: the cached fragment is rendered again
    assert after.count('data-key="announcement-1"') == 2 and "Финал в 16:00" in after
    assert 'data-seconds="20"' in after
    web.post(f"/p/{fiim.slug}/screen/control/", {"action": "start", "minutes": "7,5", "label": "До 5-го тура"})
    running = screen(fiim.slug)
    assert 'data-timer-label="До 5-го тура"' in running and re.search(r'data-timer-ends="20\d\d-', running)
    web.post(f"/p/{fiim.slug}/screen/control/", {"action": "pause"})
    left = VenueScreen.objects.get(tournament=fiim).timer_left
    assert left is not None and 440 <= left <= 450
    assert f'data-timer-left="{left}"' in screen(fiim.slug)
    web.post(f"/p/{fiim.slug}/screen/control/", {"action": "resume"})
    assert VenueScreen.objects.get(tournament=fiim).timer_ends_at is not None
    web.post(f"/p/{fiim.slug}/screen/control/", {"action": "stop"})
    assert 'data-timer-ends=""' in screen(fiim.slug)


def test_refusals_name_the_setting(fiim: Any, organizer: Any) -> None:
    web = organizer_client(organizer)
    slow = web.post(f"/p/{fiim.slug}/screen/control/", {"action": "announcements", "announcements": "x",
                                                        "seconds_per_slide": "500"})
    assert slow.status_code == 400 and "от 5 до 120 секунд" in slow.content.decode()
    assert not VenueScreen.objects.filter(tournament=fiim).exists()  # nothing half-saved
    bad = web.post(f"/p/{fiim.slug}/screen/control/", {"action": "start", "minutes": "десять"})
    assert bad.status_code == 400 and "минуты таймера числом" in bad.content.decode()
    paused = web.post(f"/p/{fiim.slug}/screen/control/", {"action": "resume"})
    assert paused.status_code == 400 and "Таймер не на паузе" in paused.content.decode()


def test_an_unchanged_poll_costs_one_query(fiim: Any, django_assert_max_num_queries: Any) -> None:
    """The screen's poll revalidates with the ETag (as the browser and the proxy do): unchanged, one query."""
    poll = Client(HTTP_ACCEPT_LANGUAGE="ru", HTTP_HX_REQUEST="true")
    screen(fiim.slug)
    first = poll.get(f"/p/{fiim.slug}/screen/")  # the fragment alone
    assert "venue-slide" in first.content.decode()
    with django_assert_max_num_queries(1):  # the tournament's version
        assert poll.get(f"/p/{fiim.slug}/screen/", HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
