"""gomafia's codes and keys (roles, wins, what a tournament, game and player hold) and its ids: a player's
gomafia id, the id made from a login, the login of one of our ids, the wire form of the document.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from fractions import Fraction

from ...model import Player, Role, Side

NAME = "gomafia"
SEATS = range(1, 11)  # gomafia's tables are the ФСМ's tables of ten
STAGE_ID = "gomafia"  # gomafia has no stages: its games become one stage of this id
MAX_ID = 2**31 - 1  # PlayerDto.id is a Kotlin Int: gomafia's ids go no further

ROLE_CODES: dict[Role, str] = {Role.CIVILIAN: "red", Role.SHERIFF: "sheriff", Role.MAFIA: "mafia", Role.DON: "don"}
CODE_ROLES: dict[str, Role] = {code: role for role, code in ROLE_CODES.items()}
# The public code tests ``win == "mafia"`` only and takes anything else for the city's win; ``"red"`` is the city's
# word in the role codes, so we write it and read only these two (docs/formats/gomafia.md, "Interpretations").
WIN_CODES: dict[Side, str] = {Side.BLACK: "mafia", Side.RED: "red"}
CODE_WINS: dict[str, Side] = {code: side for side, code in WIN_CODES.items()}

# The keys the DTOs define, by object; the ones we read are named where they are read.
TOURNAMENT_KEYS = frozenset({
    "id", "title", "date_start", "date_end", "country", "city", "type", "status", "registration_discussion_link",
    "chat_link", "vk_group_link", "main_referee_id", "user_organizer_id", "contribution_currency",
    "contribution_amount", "projected_count_of_participant", "is_hidden_result", "is_fsm_rating", "star",
    "type_translate", "status_translate", "country_translate", "city_translate", "contribution_currency_translate",
    "elo_average", "total_rows"})
GAME_KEYS = frozenset({"tableNum", "table", "win", "referee", "referee_is_paid", "referee_icon_type",
                       "referee_icon", "game_num"})
PLAYER_KEYS = frozenset({"place", "id", "login", "role", "points", "type", "eloDelta", "elo", "isPaid", "icon",
                         "iconType"})
RESULT_KEYS = frozenset({"compensation_point", "extra_point", "fine", "first_kill", "first_kill_point",
                         "global_game", "icon", "icon_type", "is_paid", "login", "place", "sum", "sum_extra", "win",
                         "win_as_don", "win_as_sheriff"})

CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                    ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "y", "k", "l", "m", "n", "o", "p", "r", "s",
                     "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "yu", "ya"], strict=True))


def gomafia_id(player_id: str) -> int | None:
    """The gomafia user id an imported player's id carries (``gomafia-1234``, at most ``MAX_ID``), else None."""
    found = re.fullmatch(r"gomafia-([1-9][0-9]{0,17})", player_id)
    return int(found.group(1)) if found and int(found.group(1)) <= MAX_ID else None


def too_big(player_id: str) -> bool:
    """An id of gomafia's shape whose number no gomafia id can be (past ``MAX_ID``)."""
    found = re.fullmatch(r"gomafia-([1-9][0-9]*)", player_id)
    return found is not None and int(found.group(1)) > MAX_ID


def id_from_login(login: str) -> str:
    """A stable id for a player gomafia gives no id for: the login in Latin letters, and a hash of it so that
    two logins never share an id."""
    letters = []
    for char in unicodedata.normalize("NFC", login):
        lower = char.lower()
        if lower in CYRILLIC:
            latin = CYRILLIC[lower]
            letters.append(latin.capitalize() if char != lower else latin)
        elif char.isascii() and (char.isalnum() or char in "_.-"):
            letters.append(char)
        else:
            letters.append("-")
    slug = re.sub(r"-{2,}", "-", "".join(letters)).strip("-.")[:40] or "player"
    return f"name-{slug}-{hashlib.sha1(login.encode()).hexdigest()[:8]}"


def login_of(player: Player) -> str:
    """gomafia knows a player by one login: the nickname where we have one, else the name."""
    return player.nickname or player.name


def wire(points: Fraction) -> int | float:
    """Points as the JSON number written (gomafia's BigDecimal)."""
    return points.numerator if points.denominator == 1 else float(points)


def unwire(value: int | float) -> Fraction:
    """The number read back exactly as written: a float by its shortest decimal form."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))
