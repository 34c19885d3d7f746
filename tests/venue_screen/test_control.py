"""The hall screen's organizer page: the announcements and the timer reach the projector's page, refusals name
the setting and save nothing, each action through its handler; and the screen's rows kept through the move of its
model from ``public`` (the same table)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.public.conftest import fresh_cache
from venue_screen.models import VenueScreen

pytestmark = pytest.mark.django_db
__all__ = ["fresh_cache"]  # the public pages' own cache, for the projector's page read here


def screen(slug: str, language: str = "ru") -> str:
    return Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/p/{slug}/screen/").content.decode()


def organizer_client(user: Any) -> Client:
    web = Client(HTTP_ACCEPT_LANGUAGE="ru")
    web.force_login(user)
    return web


def test_announcements_and_timer_from_the_organizer(fiim: Any, organizer: Any, stranger: Any,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    web = organizer_client(organizer)
    assert "Экран в зале" in web.get(f"/p/{fiim.slug}/screen/control/").content.decode()

    def post(data: dict[str, str]) -> Any:
        with django_capture_on_commit_callbacks(execute=True):  # the request's commit moves the results version
            return web.post(f"/p/{fiim.slug}/screen/control/", data)

    before = screen(fiim.slug)
    answer = post({
        "action": "announcements", "announcements": "Перерыв на обед до 14:00.\n\nФинал в 16:00 в большом зале.",
        "seconds_per_slide": "20"})
    assert answer.status_code == 302
    after = screen(fiim.slug)
    assert after != before  # the version was bumped: the cached fragment is rendered again
    assert after.count('data-key="announcement-1"') == 2 and "Финал в 16:00" in after
    assert 'data-seconds="20"' in after
    assert post({"action": "start", "minutes": "7,5", "label": "До 5-го тура"}).status_code == 302
    running = screen(fiim.slug)
    assert 'data-timer-label="До 5-го тура"' in running and re.search(r'data-timer-ends="20\d\d-', running)
    assert post({"action": "pause"}).status_code == 302
    left = VenueScreen.objects.get(tournament=fiim).timer_left
    assert left is not None and 440 <= left <= 450
    assert f'data-timer-left="{left}"' in screen(fiim.slug)
    assert post({"action": "resume"}).status_code == 302
    assert VenueScreen.objects.get(tournament=fiim).timer_ends_at is not None
    assert post({"action": "stop"}).status_code == 302
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


def test_an_unknown_action_is_refused_and_changes_nothing(fiim: Any, organizer: Any) -> None:
    web = organizer_client(organizer)
    for action in ("", "explode", "ANNOUNCEMENTS"):
        assert web.post(f"/p/{fiim.slug}/screen/control/", {"action": action}).status_code == 400
    assert not VenueScreen.objects.filter(tournament=fiim).exists()


def test_only_the_organizer_sets_the_screen(fiim: Any, stranger: Any) -> None:
    web = organizer_client(stranger)
    assert web.post(f"/p/{fiim.slug}/screen/control/", {"action": "stop"}).status_code == 403
    assert not VenueScreen.objects.filter(tournament=fiim).exists()
