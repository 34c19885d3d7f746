"""The Russian catalogue is complete and compiled: every message of the code has a translation, none is
left fuzzy, and the committed .mo says what the .po says (a forgotten ``compilemessages`` shows here)."""

from __future__ import annotations

import gettext
from pathlib import Path

import polib

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
