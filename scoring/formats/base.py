"""What every platform converter is: a registered ``Platform`` that exports our tournament into the platform's
document and reads the platform's document into our tournament (docs/formats.md).

Converters are pure: text in, text or ``Tournament`` out, no Django, no network. What a format cannot hold is
said in ``Exported.lost``; what a document holds beyond our model, in ``Imported.dropped`` (one English line
each, naming the thing and where). A document that is not the platform's, or is broken, raises ``FormatError``
naming the place of each problem; nothing is half-read.
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar, TypeVar

from ..errors import ScoringError
from ..model import Player, Tournament


class FormatError(ScoringError):
    """The document cannot be read: one line per problem, each naming where (``players[3].id: missing``)."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems) or ("the document cannot be read",)
        super().__init__("\n".join(self.problems))

    def __str__(self) -> str:
        return "\n".join(self.problems)


@dataclass(frozen=True)
class Exported:
    """The platform's document (text) and what of our tournament it could not hold."""

    document: str
    lost: tuple[str, ...] = ()


@dataclass(frozen=True)
class Imported:
    """Our tournament read from a platform's document and what of the document our model does not hold."""

    tournament: Tournament
    dropped: tuple[str, ...] = ()


class Platform(ABC):
    """One platform's format. ``name`` is the command line's ``--from``/``--to`` value; ``source`` names the
    public code that defines the format (repository, file, commit), as docs/formats.md does."""

    name: ClassVar[str]
    title: ClassVar[str]  # as people call the platform: "gomafia.pro"
    source: ClassVar[str]
    extension: ClassVar[str] = "json"
    media_type: ClassVar[str] = "application/json"
    default_ruleset: ClassVar[str] = "fiim"  # the ruleset of an imported tournament when the caller names none

    @abstractmethod
    def export(self, tournament: Tournament) -> Exported:
        """The platform's document for our whole tournament (a seating-only tournament gives the seating)."""

    @abstractmethod
    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        """Our tournament from the platform's document; ``FormatError`` when it is not one or is broken."""

    @abstractmethod
    def kept(self, tournament: Tournament) -> Tournament:
        """Our tournament reduced to what a round trip through this format keeps: ``read(export(t))`` equals
        ``kept(t)`` (tests/scoring/formats/test_round_trip.py), and ``export(t).lost`` names the difference."""


PLATFORMS: dict[str, Platform] = {}

P = TypeVar("P", bound=type[Platform])


def register(cls: P) -> P:
    """Class decorator: one instance per platform, under its ``name``."""
    if cls.name in PLATFORMS:
        raise ValueError(f"platform {cls.name!r} registered twice")
    PLATFORMS[cls.name] = cls()
    return cls


def get_platform(name: str) -> Platform:
    try:
        return PLATFORMS[name]
    except KeyError:
        raise FormatError([f"unknown format {name!r}: one of {', '.join(sorted(PLATFORMS))}"]) from None


def parse_json(text: str, platform: str) -> Any:
    """The document as JSON, or ``FormatError`` naming the line and column where it breaks."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise FormatError([f"not a {platform} document: invalid JSON at line {error.lineno}, "
                           f"column {error.colno} ({error.msg})"]) from None
    except RecursionError:
        raise FormatError([f"not a {platform} document: nested too deeply"]) from None


def namesakes_apart(t: Tournament, name_of: Callable[[Player], str], own_id: Callable[[str], bool],
                    field: str) -> tuple[Tournament, list[str]]:
    """``t`` with the players a platform would make one told apart, and a line of ``lost`` for each. A platform that
    knows a player by a name (gomafia's login, Polemica's username, mafiaratings' and iMafia's name) read two
    players of one name as one: their games and points merged in the rating. Each of them gets the player's id
    added to that name, in ``field`` (``name``, or ``nickname`` where the platform writes the nickname first):
    «Алексеева Ольга (p013)». Players the platform knows by its own id (``own_id``) keep their names."""
    counted = Counter(name_of(p).casefold() for p in t.players if not own_id(p.id))
    players, lines = [], []
    for player in t.players:
        name = name_of(player)
        if own_id(player.id) or counted[name.casefold()] < 2:
            players.append(player)
            continue
        apart = f"{name} ({player.id})"
        players.append(replace(player, name=apart) if field == "name" else replace(player, nickname=apart))
        lines.append(f"player {player.id}: written as {apart!r}, another player has the name {name!r}")
    return (replace(t, players=tuple(players)), lines) if lines else (t, [])
