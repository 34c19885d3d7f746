"""MWT's codes and keys (roles, results, leave types, a game's and a result's keys) and its ids and numbers: a
player's id from an MWT user or nickname, point values as MWT writes and reads them.
"""

from __future__ import annotations

import hashlib
import re
from fractions import Fraction

from ...model import Game, Penalty, Role, Side, Tournament
from ...validation import validate
from ..base import FormatError

NAME = "mwt"
TABLE = 10  # MWT's tables: ten players, arrays of ten, seats 1..10
ROLES = {"red": Role.CIVILIAN, "black": Role.MAFIA, "don": Role.DON, "sheriff": Role.SHERIFF}
ROLE_CODES = {role: code for code, role in ROLES.items()}
RESULTS = {"red": Side.RED, "black": Side.BLACK}
RESULT_CODES = {side: code for code, side in RESULTS.items()}
# leave_type (include/mwt_game.php): 1 voted out by day, 2 killed at night, 3 disqualified, 4 disqualified with
# the defeat of the player's team (ППК).
VOTED_OUT, KILLED, REMOVED, TEAM_REMOVED = 1, 2, 3, 4
LEAVE_KINDS = {VOTED_OUT: "voted_out", KILLED: "killed", REMOVED: "removed", TEAM_REMOVED: "removed"}

# ``referee``: the ``success`` of /api/protocol/load carries it beside ``protocol`` (api/ops/mwt.php).
GAME_KEYS = frozenset({"tournament_id", "part_number", "table_number", "session_number", "referee_user_id",
                       "referee", "protocol", "result"})
PROTOCOL_KEYS = frozenset({"user_id", "nickname"})
SEAT_ARRAYS = ("players", "is_replacement", "player_roles", "game_autobonus", "game_bonus", "penalty",
               "penalty_disciplinary", "player_fouls")
RESULT_KEYS = frozenset({"start_time", "end_time", "result", "black_count", "red_count", *SEAT_ARRAYS,
                         "reveal_don", "reveal_sheriff", "leaves", "killed_first", "best_move_value", "best_move",
                         "comment"})
LEAVE_KEYS = frozenset({"leave_type", "votes_count", "nights_before_count", "days_before_count", "p_num",
                        "players_before_count", "game_ended", "leave_along_count"})
# The order of a phase's events in a log read from MWT (a document keeps no order within a phase).
KIND_ORDER = {"votes": 0, "voted_out": 1, "killed": 2, "removed": 3, "don_check": 4, "sheriff_check": 5}
CHECKS = (("don_check", "reveal_don"), ("sheriff_check", "reveal_sheriff"))
USER_ID = re.compile(r"mwt-([1-9][0-9]{0,17})")
PLAIN_ID = re.compile(r"[A-Za-z0-9_.]{1,50}")


def user_id(player: str) -> int | None:
    """The MWT user id of a player imported from MWT (``mwt-1234``), else None."""
    match = USER_ID.fullmatch(player)
    return int(match.group(1)) if match else None


def player_id(user: int | None, nickname: str) -> str:
    """A stable id: ``mwt-<user id>``, else from the nickname (readable where it can be, a hash keeps it unique)."""
    if user is not None:
        return f"mwt-{user}"
    if PLAIN_ID.fullmatch(nickname):
        return f"mwt-n-{nickname}"
    slug = re.sub(r"[^A-Za-z0-9_.]+", "-", nickname).strip("-")[:40]
    return f"mwt-n-{slug}-{hashlib.sha1(nickname.encode()).hexdigest()[:8]}"


def number(value: Fraction) -> int | float:
    """A point value as MWT writes it (JSON numbers)."""
    return int(value) if value.denominator == 1 else float(value)


def fraction(value: int | float) -> Fraction:
    """A JSON number read as the decimal it shows (0.3 is 3/10, not the nearest binary float)."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def seat_of(game: Game, penalty: Penalty) -> int:
    return next(s.seat for s in game.seats if s.player == penalty.player)


def checked(tournament: Tournament) -> Tournament:
    """The tournament read, or ``FormatError`` with every rule it breaks (a player in two games of a round...)."""
    problems = validate(tournament)
    if problems:
        raise FormatError([f"{NAME} document: {problem}" for problem in problems])
    return tournament
