"""The rating platforms' documents in the app (docs/formats.md): the organizer's downloads, the public API's
exports of a final, public tournament, and a platform's document read into our tournament file on the import
page. The conversions themselves are ``scoring.formats``'; here only which tournament model they see."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _lazy

from scoring import model as m
from scoring.filejson import dumps
from scoring.formats import PLATFORMS, Exported, Imported, Platform
from tournaments.filenames import safe_filename
from tournaments.models import Tournament

from .files import at_one_moment
from .reading import to_model

# The import page's choice: our own file, or one of the platforms' documents.
OUR_FILE = "file"


@dataclass(frozen=True)
class Download:
    """One platform's document of the tournament, as the exports page offers it."""

    platform: Platform
    exported: Exported

    @property
    def lost(self) -> tuple[list[Said], int]:
        return compact(self.exported.lost)


def model_of(tournament: Tournament) -> m.Tournament:
    """The tournament as of one moment, as the file's export reads it."""
    return at_one_moment(lambda: to_model(tournament))


def export(tournament: Tournament, platform: Platform) -> Exported:
    return platform.export(model_of(tournament))


def downloads(tournament: Tournament) -> list[Download]:
    """Every platform's document of the tournament, from one model."""
    model = model_of(tournament)
    return [Download(PLATFORMS[name], PLATFORMS[name].export(model)) for name in sorted(PLATFORMS)]


def download_name(tournament: Tournament, platform: Platform) -> str:
    return safe_filename(tournament.slug, f"{platform.name}.{platform.extension}")


def platform_choices() -> list[tuple[str, str]]:
    """The import page's formats: ours first, then each platform by the name people know it by."""
    return [(OUR_FILE, str(_lazy("Tournament file (mafia-tournament/1, JSON)"))),
            *((name, PLATFORMS[name].title) for name in sorted(PLATFORMS))]


@dataclass(frozen=True)
class Said:
    """Lines of a converter that differ only in their numbers (a player's, a table's, a position's), said once:
    the first of them and how many there are."""

    line: str
    count: int

    @property
    def others(self) -> int:
        return self.count - 1


def compact(lines: tuple[str, ...], most: int = 30) -> tuple[list[Said], int]:
    """The converter's lines as a person reads them: those alike (the same but for numbers: 1,000 players' "nickname
    not held") once with their count, at most ``most`` of them; and how many kinds more were not shown."""
    groups: dict[str, Said] = {}
    for line in lines:
        key = re.sub(r"\d+", "#", line)
        found = groups.get(key)
        groups[key] = Said(line, 1) if found is None else Said(found.line, found.count + 1)
    said = list(groups.values())
    return said[:most], max(0, len(said) - most)


def read_document(text: str, name: str, ruleset: str | None) -> tuple[str, tuple[str, ...]]:
    """A platform's document as our tournament file's text, and what of it our model does not hold.
    ``scoring.formats.FormatError`` names the problems of a document that cannot be read."""
    imported: Imported = PLATFORMS[name].read(text, ruleset=ruleset or None)
    return dumps(imported.tournament), imported.dropped
