"""A tournament's address from its Russian name: Django's ``slugify`` drops every Cyrillic letter, so «Кубок
Костромы» gave an empty short name and the organizer had to invent one. The letters are written in Latin as Russian
passports and road signs write them (the ICAO table), then slugified."""

from __future__ import annotations

from django.utils.text import slugify

LATIN = dict(zip(
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p", "r", "s", "t", "u",
     "f", "kh", "ts", "ch", "sh", "shch", "ie", "y", "", "e", "iu", "ia"], strict=True))


def latin_slug(text: str) -> str:
    """«Кубок Костромы 2025» → ``kubok-kostromy-2025``; other scripts as ``slugify`` leaves them."""
    return slugify("".join(LATIN.get(letter, letter) for letter in text.lower()))
