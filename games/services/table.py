"""The judge's taps on the table screen, each one change of the protocol (``protocol.change``): a tap as the phone
sends it, alone or as a queued batch, and the handler each action goes to (``GAME_TAPS``, ``SEAT_TAPS``): the
protocol's own taps in ``seat_taps``, the game log's in ``game_log``, the regulations' own events in
``discipline``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.rulesets import Ruleset

from ..models import Game
from .discipline import award, unaward, unwarn, warn
from .facts import ProtocolFacts, SeatFacts
from .game_log import log_undo, logged, shoot
from .protocol import ProtocolError, VersionConflict, change
from .said_back import said_back
from .seat_taps import (
    back,
    best,
    best_move,
    circle_mark,
    extra,
    foul,
    leaves,
    missed,
    phase,
    remove,
    subjective,
    subjective_rest,
    unfoul,
    winner,
)
from .tap import Tap as Tap  # where callers have always found it

if TYPE_CHECKING:
    from base.users import User

MODES = ("foul", "unfoul", "voted", "killed", "remove", "back", "best_move", "best", "extra", "circle_best",
         "circle_worst", "subjective", "nominated", "votes", "shot", "don_check", "sheriff_check", "heal", "warn",
         "unwarn", "award", "unaward")


def apply_tap(game: Game, user: User, version: int, tap: Tap, ruleset: Ruleset) -> tuple[Game, str]:
    """Saves one tap; returns the game and what the screen should say."""
    said: list[str] = []


    def mutate(facts: ProtocolFacts) -> None:
        said.append(perform(facts, tap, ruleset))


    game = change(game, user, version, mutate)
    return game, said[0] if said else ""


MOST_TAPS_AT_ONCE = 200  # a phone's queue after a long outage; more is not a judge's tapping


@dataclass(frozen=True)
class Queued:
    """A tap as the phone queued it: the tap, and the version of the protocol it was made on, or None when it was
    made while earlier taps were still on their way (it then follows the version the one before it left)."""


    tap: Tap
    version: int | None


@dataclass(frozen=True)
class Refusal:
    index: int  # the tap's place in the batch
    error: ProtocolError


def apply_taps(game: Game, user: User, taps: list[Queued], ruleset: Ruleset) -> tuple[Game, str, list[Refusal]]:
    """Saves a phone's queued taps in the order they were made, each as its own version-checked change (its own
    history row), under the game's lock for the whole batch, so no other device's change lands between them.


    A tap the rules refuse is skipped, as it would be if the judge had made it alone, and the next one goes on
    from the same version; a tap made on a version that is no longer current (another device changed the protocol)
    is refused with every tap after it, since they were all made on the state the judge saw then. Returns the
    game, what the last saved tap says, and the refusals."""
    said, refused = "", []
    with transaction.atomic():
        current: int | None = None
        for index, queued in enumerate(taps):
            version = queued.version if queued.version is not None else current
            if version is None:
                version = game.version
            try:
                game, words = apply_tap(game, user, version, queued.tap, ruleset)
                said, current = words, game.version
            except VersionConflict as conflict:
                refused += [Refusal(k, conflict) for k in range(index, len(taps))]
                break
            except ProtocolError as error:
                refused.append(Refusal(index, error))
                current = version
    return game, said, refused


def tap_from(fields: Mapping[str, Any]) -> Tap:
    """A tap as the screen posts it: ``action``, ``seat``, the foul's ``reason`` or the removal's ``removal``, the
    ``value`` (the ``count`` of votes, the shooter ``by`` of a shot) and the speech ``circle``. Raises ValueError
    for a seat or circle that is not a number."""
    action = str(fields.get("action", ""))
    seat = str(fields.get("seat") or "")
    value = {"votes": "count", "shot": "by"}.get(action, "value")
    reason = REASON_FIELDS.get(action, "removal")
    return Tap(action, int(seat) if seat else None, str(fields.get(reason, "")), str(fields.get(value, "")),
               int(str(fields.get("circle") or 0)))


# The field of the screen's controls each action reads its reason from (a removal's otherwise).
REASON_FIELDS = {"foul": "reason", "warn": "warning", "award": "award"}


def queued_taps(text: str) -> list[Queued]:
    """The phone's queue as it posts it: a JSON list of taps, each as ``tap_from`` reads it, with the ``version``
    it was made on or an empty one. Raises ValueError for anything else, or for more than ``MOST_TAPS_AT_ONCE``."""
    items = json.loads(text)
    if not isinstance(items, list) or not 0 < len(items) <= MOST_TAPS_AT_ONCE:
        raise ValueError("not a list of taps")
    taps = []
    for item in items:
        if not isinstance(item, dict) or not all(isinstance(v, str | int) for v in item.values()):
            raise ValueError("not a tap")
        if str(item.get("action", "")) not in TAP_ACTIONS:
            raise ValueError("not a tap")
        version = str(item.get("version") or "")
        taps.append(Queued(tap_from(item), int(version) if version else None))
    return taps


def perform(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> str:
    """Applies one tap to ``facts`` (its handler in ``GAME_TAPS`` or, once the seat is found, ``SEAT_TAPS``);
    returns what the screen should say."""
    known = facts.departures_known
    before = list(facts.log)
    try:
        return perform_tap(facts, tap, ruleset) or said_back(tap, before, facts, ruleset)
    finally:
        if known and not facts.departures_known:
            # the last departure taken back: the first kill it gave goes with it (the stored one would linger)
            facts.first_killed = None


def perform_tap(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> str:
    game_tap = GAME_TAPS.get(tap.action)
    if game_tap is not None:
        game_tap(facts, tap, ruleset)
        return ""
    if tap.seat is None:
        raise ProtocolError(_("Choose a seat."))
    try:
        seat = facts.seat(tap.seat)
    except KeyError:
        raise ProtocolError(_("There is no seat %(n)s at this table.") % {"n": tap.seat}) from None
    seat_tap = SEAT_TAPS.get(tap.action)
    if seat_tap is None:
        raise ProtocolError(_("Unknown action."))
    return seat_tap(facts, seat, tap, ruleset)


GAME_TAPS: dict[str, Callable[[ProtocolFacts, Tap, Ruleset], None]] = {
    "phase": phase, "winner": winner, "missed": missed, "log_undo": log_undo, "subjective_rest": subjective_rest,
    "award": award, "unaward": unaward}
SEAT_TAPS: dict[str, Callable[[ProtocolFacts, SeatFacts, Tap, Ruleset], str]] = {
    "foul": foul, "unfoul": unfoul, "remove": remove, "voted": leaves, "killed": leaves, "back": back,
    "best_move": best_move, "best": best, "circle_best": circle_mark, "circle_worst": circle_mark,
    "subjective": subjective, "extra": extra,
    "nominated": logged, "votes": logged, "don_check": logged, "sheriff_check": logged, "heal": logged,
    "shot": shoot, "warn": warn, "unwarn": unwarn,
}
TAP_ACTIONS = frozenset(GAME_TAPS) | frozenset(SEAT_TAPS)  # what the phone's queue sends in one batch
