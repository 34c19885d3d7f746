"""mafiaratings' codes and keys (roles, winners, deaths, bonuses, what a game and a player hold) and its ids and
numbers: a player's id from a name, numbers as the platform writes and reads them, a log's order.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from ...model import ZERO, LogEvent, Role, Side

NAME = "mafiaratings"
SOURCE = ("github.com/szotin/mafiaratings @ 0ab7207bdb17fadb92243f119dc356a95c99edad: include/game.php "
          "(Game::api_help, feature letters), api/get/games.php (the games list), js/src/game.js (the client "
          "that writes a game)")

SEATS = tuple(range(1, 11))  # "Array size is always 10": a player's index + 1 is their seat
ROLE_CODES = {Role.CIVILIAN: "civ", Role.SHERIFF: "sheriff", Role.MAFIA: "maf", Role.DON: "don"}
CODE_ROLES = {code: role for role, code in ROLE_CODES.items()}
WINNER_CODES = {Side.RED: "civ", Side.BLACK: "maf"}
CODE_WINNERS = {code: side for side, code in WINNER_CODES.items()}
# The answer's envelope (include/api.php) and the keys a game and a player may carry (include/game.php,
# js/src/game.js, api/ops/game.php, api/ops/imafia.php).
ENVELOPE_KEYS = frozenset({"games", "count", "version", "logged_in", "message", "error"})
GAME_KEYS = frozenset({"id", "version", "features", "clubId", "eventId", "tournamentId", "tableNum", "gameNum",
                       "language", "rules", "rating", "startTime", "endTime", "timezone", "winner", "moderator",
                       "players", "comment", "time", "streaming", "hideRoles", "obsScene"})
PLAYER_KEYS = frozenset({"id", "name", "role", "arranged", "death", "warnings", "techFouls", "don", "sheriff",
                         "bonus", "legacy", "comment", "voting", "nominating", "shooting", "record"})
REMOVALS = ("warnings", "techFouls", "kickOut", "teamKickOut", "giveUp")
DEATH_TYPES = ("day", "night", *REMOVALS)
NIGHT_TIMES = frozenset({"start", "arrangement", "relaxed sitting", "night start", "shooting", "don", "sheriff",
                         "night end"})
BONUS_TITLES = ("bestPlayer", "bestMove", "worstMove")
FEATURE_ORDER = "agsdutclihvknwro"  # Game::feature_flags_to_leters
# Our log's order within a phase: the kinds the import writes, then the seat (nominations and votes as written).
KIND_RANK = {"nominated": 0, "votes": 1, "voted_out": 2, "removed": 3, "killed": 4, "don_check": 5,
             "sheriff_check": 6, "heal": 7}


def where(stage: str, round_number: int, table: int) -> str:
    return f"stage {stage}, round {round_number}, table {table}"


def name_id(prefix: str, name: str) -> str:
    """A stable id for a player the document names but gives no id: the platform and a hash of the name."""
    return f"{prefix}-name-{hashlib.sha1(name.encode('utf-8')).hexdigest()[:12]}"


def platform_number(player_id: str, prefix: str) -> int | None:
    """The platform's own user id inside one of our ids that came from it (``mafiaratings-25`` → 25)."""
    head = f"{prefix}-"
    tail = player_id[len(head):]
    if player_id.startswith(head) and tail.isdigit() and not tail.startswith("0"):
        return int(tail)
    return None


def json_number(value: Fraction) -> int | float:
    """Points as the platform's JSON number: whole points as integers, others as the nearest float."""
    return int(value) if value.denominator == 1 else float(value)


def through_json(value: Fraction) -> Fraction:
    """What ``value`` reads back as after ``json_number``."""
    return Fraction(repr(json_number(value))) if value.denominator != 1 else value


def read_number(value: Any, at: str, problems: list[str]) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        problems.append(f"{at}: {value!r} is not a number")
        return ZERO
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def in_order(events: Iterable[LogEvent]) -> tuple[LogEvent, ...]:
    """The log in one order for reading and for ``kept``: by phase, kind, then seat (nominations and votes keep
    the order they were written in)."""
    indexed = list(enumerate(events))

    def key(item: tuple[int, LogEvent]) -> tuple[int, int, int]:
        index, event = item
        tie = index if event.kind in ("nominated", "votes") else (event.seat or 0)
        return (event.phase, KIND_RANK.get(event.kind, 9), tie)

    return tuple(event for _, event in sorted(indexed, key=key))
