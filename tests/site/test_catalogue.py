"""The Russian catalogue is complete and compiled: every message of the code has a translation, none is
left fuzzy, and the committed .mo says what the .po says (a forgotten ``compilemessages`` shows here)."""

from __future__ import annotations

import gettext
from pathlib import Path
from typing import Any

import polib
import pytest
from django.urls import reverse

from tests.helpers import import_played

LOCALE = Path(__file__).resolve().parents[2] / "locale" / "ru" / "LC_MESSAGES"


def catalogue() -> polib.POFile:
    return polib.pofile(str(LOCALE / "django.po"))


def test_every_message_is_translated_and_none_is_fuzzy() -> None:
    entries = [e for e in catalogue() if not e.obsolete]
    assert len(entries) > 500  # the real catalogue, not an empty file
    untranslated = [e.msgid for e in entries if not e.translated()]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert not untranslated, f"untranslated (run make messages, then translate): {untranslated[:10]}"
    assert not fuzzy, f"fuzzy (check the translation, then drop the flag): {fuzzy[:10]}"


def test_the_compiled_catalogue_matches_the_source() -> None:
    with open(LOCALE / "django.mo", "rb") as compiled:
        mo = gettext.GNUTranslations(compiled)
    stale = []
    for entry in catalogue():
        if entry.obsolete or not entry.translated() or entry.msgid_plural:
            continue
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        if mo._catalog.get(key) != entry.msgstr:  # type: ignore[attr-defined]
            stale.append(entry.msgid)
    assert not stale, f"the .mo is older than the .po (run make messages): {stale[:10]}"


# Found by the browser journeys, the permission walk or the bad-input tests.
@pytest.mark.django_db
@pytest.mark.parametrize("page", ["player", "seating"])
def test_seat_column_in_russian_is_a_place_not_the_verb(client: Any, organizer: Any, page: str) -> None:
    """The public pages' "Seat" column shared its msgid with the organizer's "Seat" (the round) button, so
    Russian spectators read "Рассадить" (to seat) over the seat numbers."""
    slug = import_played(organizer, players=10, rounds=1).slug
    url = reverse("public:player", args=[slug, "p001"]) if page == "player" else reverse("public:seating", args=[slug])
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<th" in html and "Место" in html
    assert "Рассадить" not in html
