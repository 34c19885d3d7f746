"""The judge's game log on the table screen (optional; docs/rules/game.md "The game log"): the nominations, votes,
checks, heals and shots a tap records, and what follows from them: who the votes send out and who the shots kill,
written in the log as departures marked derived, the three missed nights, and the winner the log proposes."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import gamelog
from scoring.model import ROLE_SIDE, LogEvent, Role
from scoring.rulesets import Ruleset
from tournaments.labels import ROLES

from ..models import Left
from ..reasons import FOURTH_FOUL
from .facts import ProtocolFacts, SeatFacts
from .protocol import ProtocolError
from .tap import Tap

# The regulations that let the doctor heal themselves only once a game (kostroma's role description).
DOCTOR_HEALS_SELF_ONCE = frozenset({"kostroma"})


def log(facts: ProtocolFacts, kind: str, seat: int | None = None, count: int | None = None) -> None:
    event: dict[str, int | str] = {"kind": kind, "phase": facts.phase}
    if seat is not None:
        event["seat"] = seat
    if count is not None:
        event["count"] = count
    facts.log.append(event)


def alive_with(facts: ProtocolFacts, role: str) -> bool:
    """A seat of ``role`` still acts: at the table, or killed by this night's shots (the night's actions are one
    night's: a sheriff the mafia shot still checks that night, a doctor shot still heals, whatever the order the
    judge taps them in)."""
    return any(s.role == role and (not s.left or killed_tonight(facts, s)) for s in facts.seats)


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
