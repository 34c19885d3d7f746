"""The judge's taps on the table screen, each one change of the protocol (``protocol.change``).

At the 3rd foul the player loses their next speech; at the 4th they are removed from the table
without a last word (the ruleset's removal points apply). Who left and when is recorded as it
happens, so days survived and the first kill are derived from it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import gamelog
from scoring.model import ROLE_SIDE, LogEvent, Role
from scoring.rulesets import Ruleset
from tournaments.labels import ROLES, ruleset_short
from tournaments.labels import local_number as number
from tournaments.numbers import typed_number

from ..models import Game, Left
from ..reasons import FOURTH_FOUL, OTHER, THIRD_REMARK, label
from .discipline import award, check_warned, unaward, unwarn, warn
from .facts import ProtocolFacts, SeatFacts
from .protocol import ProtocolError, VersionConflict, change
from .tap import Tap as Tap  # where callers have always found it

if TYPE_CHECKING:
    from base.users import User

MODES = ("foul", "unfoul", "voted", "killed", "remove", "back", "best_move", "best", "extra", "circle_best",
         "circle_worst", "subjective", "nominated", "votes", "shot", "don_check", "sheriff_check", "heal", "warn",
         "unwarn", "award", "unaward")
MAX_CIRCLES = 12


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
    try:
        return perform_tap(facts, tap, ruleset)
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


def phase(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    facts.phase = max(1, facts.phase + (1 if tap.value == "next" else -1))


def winner(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    facts.winner = "" if facts.winner == tap.value else tap.value
    follow_missed(facts, ruleset)


def missed(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    facts.mafia_missed_three_nights = not facts.mafia_missed_three_nights


def foul(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    n = seat.number
    if seat.removed:
        raise ProtocolError(_("Seat %(n)s has already been removed from the table.") % {"n": n})
    check_warned(seat, tap.reason, ruleset)
    seat.foul_reasons.append(tap.reason or OTHER)
    # Each regulation's consequences of remarks (``Ruleset.foul_silence_at``, ``foul_removal_at``); tomsk sets none.
    if seat.fouls == ruleset.foul_silence_at:
        said = THIRD_REMARK.get(ruleset.id, THIRD_REMARK["kostroma"])
        return str(said) % {"n": n, "reason": label(tap.reason or OTHER)}
    if seat.fouls == ruleset.foul_removal_at:
        seat.removal_reason, seat.left, seat.left_number = FOURTH_FOUL, Left.REMOVED, facts.day
        return removed_message(n, ruleset, _("fourth foul"))
    return _("Seat %(n)s: foul %(k)s (%(reason)s).") % {"n": n, "k": seat.fouls,
                                                          "reason": label(tap.reason or OTHER)}


def unfoul(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if seat.foul_reasons:
        seat.foul_reasons.pop()
        if seat.removal_reason == FOURTH_FOUL:
            seat.removal_reason, seat.left, seat.left_number = "", "", None
    return _("Seat %(n)s: %(k)s fouls.") % {"n": seat.number, "k": seat.fouls}


def remove(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if not tap.reason:  # a removal is never recorded for a reason the judge did not choose
        raise ProtocolError(_("Choose the reason for the removal first."))
    if seat.left:
        raise ProtocolError(_("Seat %(n)s has already left the table.") % {"n": seat.number})
    seat.removal_reason, seat.left, seat.left_number = tap.reason, Left.REMOVED, facts.day
    log(facts, "removed", seat.number)
    return removed_message(seat.number, ruleset, label(seat.removal_reason))


def leaves(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """``voted`` out by day or ``killed`` by night."""
    n = seat.number
    if seat.left:
        raise ProtocolError(_("Seat %(n)s has already left the table.") % {"n": n})
    if (tap.action == "killed") != facts.is_night:
        raise ProtocolError(_("Players are voted out by day and killed by night: switch the day/night first."))
    if tap.action == "killed" and any(e["kind"] == "shot" and e["phase"] == facts.phase for e in facts.log):
        raise ProtocolError(_("Night %(d)s: the shots recorded decide who is killed; take back a shot to change "
                              "it.") % {"d": facts.day})
    seat.left, seat.left_number = tap.action, facts.day
    log(facts, "voted_out" if tap.action == "voted" else "killed", n)
    if tap.action == "voted":
        return _("Seat %(n)s is voted out on day %(d)s.") % {"n": n, "d": facts.day}
    return _("Seat %(n)s is killed on night %(d)s.") % {"n": n, "d": facts.day}


def back(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    departures = [i for i, e in enumerate(facts.log)
                  if e["kind"] in ("voted_out", "killed", "removed") and e.get("seat") == seat.number]
    if departures:  # the log forgets the departure taken back
        del facts.log[departures[-1]]
    seat.left, seat.left_number = "", None
    if seat.removal_reason and seat.removal_reason != FOURTH_FOUL:
        seat.removal_reason = ""
    return _("Seat %(n)s is back at the table.") % {"n": seat.number}


def log(facts: ProtocolFacts, kind: str, seat: int | None = None, count: int | None = None) -> None:
    event: dict[str, int | str] = {"kind": kind, "phase": facts.phase}
    if seat is not None:
        event["seat"] = seat
    if count is not None:
        event["count"] = count
    facts.log.append(event)


def alive_with(facts: ProtocolFacts, role: str) -> bool:
    return any(s.role == role and not s.left for s in facts.seats)


def logged(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """A game log entry, one tap: a nomination or the votes for a seat by day; the don's or the sheriff's check
    or the doctor's heal by night (the doctor's limits: not the same player two nights running, themselves once
    a game where the regulation says so)."""
    n, night = seat.number, facts.is_night
    if tap.action in ("nominated", "votes") and night:
        raise ProtocolError(_("Nominations and votes are by day: switch the day/night first."))
    if tap.action in ("don_check", "sheriff_check", "heal") and not night:
        raise ProtocolError(_("Checks and heals are at night: switch the day/night first."))
    if seat.left and not killed_tonight(facts, seat):  # the shots' victim is still there for the night's checks
        raise ProtocolError(_("Seat %(n)s has already left the table.") % {"n": n})
    count = None
    if tap.action == "votes":
        try:
            count = int(tap.value)
        except ValueError:
            raise ProtocolError(_("Write the number of votes.")) from None
        if not 0 <= count <= len(facts.seats):
            raise ProtocolError(_("%(count)s votes: a table has %(size)s players.") % {
                "count": count, "size": len(facts.seats)})
    role = {"don_check": "don", "sheriff_check": "sheriff", "heal": "doctor"}.get(tap.action)
    if role is not None and not alive_with(facts, role):
        raise ProtocolError(_("There is no %(role)s at the table any more.") % {"role": ROLES[Role(role)]})
    if tap.action == "heal":
        heals = [e for e in facts.log if e["kind"] == "heal"]
        if heals and heals[-1].get("seat") == n and int(heals[-1]["phase"]) == facts.phase - 2:
            raise ProtocolError(_("The doctor cannot heal seat %(n)s two nights running.") % {"n": n})
        doctor = next((s.number for s in facts.seats if s.role == "doctor"), None)
        if n == doctor and ruleset.id in DOCTOR_HEALS_SELF_ONCE and any(e.get("seat") == n for e in heals):
            raise ProtocolError(_("The doctor may heal themselves only once a game."))
    log(facts, tap.action, n, count)
    if tap.action == "votes":
        return settle_day(facts, ruleset)
    if tap.action == "heal":
        return settle_night(facts, ruleset)
    return ""


BLACK = ("mafia", "don")


def killed_tonight(facts: ProtocolFacts, seat: SeatFacts) -> bool:
    """``seat`` is killed by this night's shots (the log's derived kill): still at the table for the night."""
    return facts.is_night and seat.left == Left.KILLED and any(
        e.get("derived") and e["kind"] == "killed" and e.get("seat") == seat.number and e["phase"] == facts.phase
        for e in facts.log)


def shooters(facts: ProtocolFacts) -> tuple[list[int], list[int]]:
    """Who shoots tonight: the black players and the maniacs at the table (a seat killed tonight by the shots
    still shot)."""
    def here(seat: SeatFacts) -> bool:
        return not seat.left or killed_tonight(facts, seat)
    black = [s.number for s in facts.seats if s.role in BLACK and here(s)]
    return black, [s.number for s in facts.seats if s.role == "maniac" and here(s)]


def shoot(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """A night's shot at ``seat``: by the whole mafia (``value`` empty: every black player at the table shot it; once
    none is left, the maniac's) or by the seat ``value`` (one mafioso's shot, the maniac's). Who is killed follows
    from the night's shots (``settle_night``)."""
    if not facts.is_night:
        raise ProtocolError(_("Shots are at night: switch the day/night first."))
    if seat.left and not killed_tonight(facts, seat):
        raise ProtocolError(_("Seat %(n)s has already left the table.") % {"n": seat.number})
    black, maniacs = shooters(facts)
    event: dict[str, int | str] = {"kind": "shot", "phase": facts.phase, "seat": seat.number}
    if tap.value.strip():
        try:
            by = int(tap.value)
        except ValueError:
            raise ProtocolError(_("Choose who shoots.")) from None
        if by not in black and by not in maniacs:
            raise ProtocolError(_("Seat %(n)s does not shoot at night: only the mafia and the maniac at the table "
                                  "do.") % {"n": by})
        event["by"] = by
    elif not black and len(maniacs) == 1:  # no mafia left: the night's shot is the maniac's
        event["by"] = maniacs[0]
    elif not black:
        raise ProtocolError(_("There is no mafia at the table any more: choose who shoots."))
    facts.log.append(event)
    return settle_night(facts, ruleset)


def night_events(facts: ProtocolFacts, phase: int) -> list[LogEvent]:
    return [LogEvent(str(e["kind"]), int(e["phase"]), None if e.get("seat") is None else int(e["seat"]), None,
                     None if e.get("by") is None else int(e["by"])) for e in facts.log if e["phase"] == phase]


def undo_derived(facts: ProtocolFacts, kind: str, phase: int) -> None:
    """Takes back the departures the log derived for ``phase`` (the seats are back at the table)."""
    for event in [e for e in facts.log if e.get("derived") and e["kind"] == kind and e["phase"] == phase]:
        facts.log.remove(event)
        seat = facts.seat(int(event["seat"]))
        if seat.left and seat.left_number == (phase + 1) // 2:
            seat.left, seat.left_number = "", None


def log_missed(facts: ProtocolFacts) -> bool:
    """The shots recorded say the mafia missed three nights in a row (``scoring.gamelog``)."""
    return any(e["kind"] == "shot" for e in facts.log) and gamelog.mafia_missed_three_nights(
        LogEvent(str(e["kind"]), int(e["phase"])) for e in facts.log)


def follow_missed(facts: ProtocolFacts, ruleset: Ruleset) -> None:
    """Where the regulation scores three missed nights and the log has shots, the mark follows the log once the city
    is the winner (the mark means the city won: until the judge confirms it, the log proposes it)."""
    if ruleset.params.missed_nights_points and any(e["kind"] == "shot" for e in facts.log):
        facts.mafia_missed_three_nights = facts.winner == "red" and log_missed(facts)


def proposed_winner(facts: ProtocolFacts) -> str:
    """The side the departures make the winner [ours, docs/rules/game.md "The game log"], or "" while they do not:
    the city when no black player and no maniac is left at the table (or the mafia missed three nights), the mafia
    when it is at least as many as the others and no maniac is left, the maniac left alone with one player."""
    if any(not s.role for s in facts.seats):
        return ""
    if facts.mafia_missed_three_nights or log_missed(facts):
        return "red"
    sides = {str(role): str(side) for role, side in ROLE_SIDE.items()}
    here = [s.side or sides.get(s.role, "red") for s in facts.seats if not s.left and not s.removed]
    black, maniac = here.count("black"), here.count("maniac")
    red = len(here) - black - maniac
    if not black and not maniac:
        return "red"
    if black and not maniac and black >= red:
        return "black"
    if maniac and not black and red + maniac <= 2:
        return "maniac"
    return ""


def settle_night(facts: ProtocolFacts, ruleset: Ruleset) -> str:
    """The night's kills as its shots and heals decide them (``scoring.gamelog.night_victims``), written in the log
    as departures marked derived; where the regulation scores three missed nights, that mark follows the log."""
    phase = facts.phase
    undo_derived(facts, "killed", phase)
    black, maniacs = shooters(facts)
    victims = [n for n in gamelog.night_victims(night_events(facts, phase), black, maniacs) if not facts.seat(n).left]
    for n in victims:
        seat = facts.seat(n)
        seat.left, seat.left_number = Left.KILLED, facts.day
        facts.log.append({"kind": "killed", "phase": phase, "seat": n, "derived": True})
    follow_missed(facts, ruleset)
    if victims:
        return ngettext("Night %(d)s: the shots kill seat %(seats)s.", "Night %(d)s: the shots kill seats %(seats)s.",
                        len(victims)) % {"d": facts.day, "seats": ", ".join(map(str, victims))}
    if any(e["kind"] == "shot" for e in facts.log if e["phase"] == phase):
        return _("Night %(d)s: the shots kill nobody so far.") % {"d": facts.day}
    return ""


def settle_day(facts: ProtocolFacts, ruleset: Ruleset) -> str:
    """Who the day's votes send out (``scoring.gamelog.vote_result``), written in the log as a departure marked
    derived; nothing where the judge recorded the day's vote-out by hand."""
    phase = facts.phase
    undo_derived(facts, "voted_out", phase)
    today = [e for e in facts.log if e["phase"] == phase]
    if any(e["kind"] == "voted_out" for e in today):
        return ""
    nominees = [int(e["seat"]) for e in today if e["kind"] == "nominated"]
    votes = [(int(e["seat"]), int(e["count"])) for e in today if e["kind"] == "votes"]
    voters = sum(1 for s in facts.seats if not s.left)
    out = gamelog.vote_result(nominees, votes, voters)
    if out is None or facts.seat(out).left:
        return ""
    seat = facts.seat(out)
    seat.left, seat.left_number = Left.VOTED, facts.day
    facts.log.append({"kind": "voted_out", "phase": phase, "seat": out, "derived": True})
    return _("Seat %(n)s is voted out on day %(d)s.") % {"n": out, "d": facts.day}


def subjective_rest(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    """Every seat still without a subjective mark gets 0 (tomsk: most players' SP is 0; one tap, not twelve)."""
    for seat in facts.seats:
        if seat.subjective is None:
            seat.subjective = Fraction(0)


def log_undo(facts: ProtocolFacts, tap: Tap, ruleset: Ruleset) -> None:
    """Takes back the last entry of the game log (a departure with it: the seat is back at the table)."""
    if not facts.log:
        raise ProtocolError(_("The game log is empty."))
    while True:  # a departure the log derived goes with the entry that decided it
        event = facts.log.pop()
        if event["kind"] in ("voted_out", "killed", "removed") and event.get("seat") is not None:
            seat = facts.seat(int(event["seat"]))
            seat.left, seat.left_number = "", None
            if seat.removal_reason and seat.removal_reason != FOURTH_FOUL:
                seat.removal_reason = ""
        if not event.get("derived") or not facts.log:
            break
    # what is left of that day's votes or that night's shots decides again
    phase, now = int(event["phase"]), facts.phase
    facts.phase = phase
    try:
        if phase % 2 == 0 and any(e["kind"] in ("shot", "heal") and e["phase"] == phase for e in facts.log):
            settle_night(facts, ruleset)
        elif phase % 2 == 1 and any(e["kind"] == "votes" and e["phase"] == phase for e in facts.log):
            settle_day(facts, ruleset)
    finally:
        facts.phase = now
    follow_missed(facts, ruleset)


def best_move(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    if seat.number in facts.best_move:
        facts.best_move.remove(seat.number)
    else:
        facts.best_move.append(seat.number)
    return ""


def best(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    seat.best = not seat.best
    return ""


def circle_mark(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    """``circle_best`` or ``circle_worst``: see ``mark``."""
    return mark(facts, seat.number, tap.circle, tap.action.removeprefix("circle_"))


def subjective(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    try:
        seat.subjective = typed_number(tap.value) if tap.value.strip() else None
    except (ValueError, ZeroDivisionError):
        raise ProtocolError(_("The subjective mark must be a number.")) from None
    return ""


def extra(facts: ProtocolFacts, seat: SeatFacts, tap: Tap, ruleset: Ruleset) -> str:
    try:
        seat.extra = typed_number(tap.value or "0")
    except (ValueError, ZeroDivisionError):
        raise ProtocolError(_("Extra points must be a number.")) from None
    return ""


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
# The regulations that let the doctor heal themselves only once a game (kostroma's role description).
DOCTOR_HEALS_SELF_ONCE = frozenset({"kostroma"})


def mark(facts: ProtocolFacts, n: int, circle: int, kind: str) -> str:
    """Names seat ``n`` best or worst in speech circle ``circle`` (zvezdy), or takes the mark back.

    One tap moves a seat named the other way in that circle; the limit of marks is scoring's check.
    """
    if not 1 <= circle <= MAX_CIRCLES:
        raise ProtocolError(_("There is no speech circle %(c)s.") % {"c": circle})
    while len(facts.circles) < circle:
        facts.circles.append({"best": [], "worst": []})
    marks = facts.circles[circle - 1]
    other = "worst" if kind == "best" else "best"
    named = list(marks.get(kind, []))
    if n in named:
        named.remove(n)
        marks[kind] = named
        return _("Circle %(c)s: the mark of seat %(n)s is taken back.") % {"c": circle, "n": n}
    marks[kind] = [*named, n]
    marks[other] = [s for s in marks.get(other, []) if s != n]
    if kind == "best":
        return _("Circle %(c)s: seat %(n)s is named best.") % {"c": circle, "n": n}
    return _("Circle %(c)s: seat %(n)s is named worst.") % {"c": circle, "n": n}


def removed_message(n: int, ruleset: Ruleset, why: str) -> str:
    points = ruleset.params.removal_points
    message = _("Seat %(n)s is removed from the table without a last word (%(why)s).") % {"n": n, "why": why}
    if points:
        message += " " + _("%(rules)s: %(points)s points for the removal.") % {
            "rules": ruleset_short(ruleset.id), "points": number(points)}
    return message
