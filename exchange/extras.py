"""The extra keys the app writes into the tournament file's open ``tournament`` object, and their reading.

``scoring`` does not model these facts of the participants and of a round in play, so they travel as extra keys
(docs/tournament-file.md): ``player_numbers`` (written only when the numbers are not simply 1, 2, 3… in the
players' order), ``disqualifications``, ``tables_in_play`` (the seating of each table of a published round whose
protocol is not submitted yet, so a file exported mid-round, imported again, gives the judges the same tables to
record), ``keep_apart`` (the organizer's pairs, ``[[id, id], …]``) and ``awards`` (the organizer's awards: given
or not, free-form ones, recipients chosen by hand with their reasons). Each reader checks its key and names
what is wrong, or returns what the writer stores.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from scoring import model as m
from scoring.awards import KINDS
from scoring.errors import InvalidTournament, Location, Problem

NUMBERS_KEY = "player_numbers"
DISQUALIFICATIONS_KEY = m.DISQUALIFICATIONS_KEY
TABLES_IN_PLAY_KEY = "tables_in_play"
KEEP_APART_KEY = "keep_apart"
AWARDS_KEY = "awards"
PARTICIPANT_KEYS = (NUMBERS_KEY, DISQUALIFICATIONS_KEY)
# Written by the exchange from rows of their own, never kept as the tournament's other info.
EXCHANGE_KEYS = (*PARTICIPANT_KEYS, TABLES_IN_PLAY_KEY, KEEP_APART_KEY, AWARDS_KEY)


def read_keep_apart(value: Any, ids: set[str]) -> list[tuple[str, str]]:
    """The file's ``keep_apart``: pairs of two different players of the file, each pair once."""
    where = Location(field=f"tournament.{KEEP_APART_KEY}")
    if not isinstance(value, list) or not all(
        isinstance(pair, list) and len(pair) == 2 and all(isinstance(p, str) for p in pair) for pair in value
    ):
        raise InvalidTournament([Problem(where, _('must be a list of pairs of player ids, [["p1", "p2"], …]'))])
    problems: list[Problem] = []
    seen: set[frozenset[str]] = set()
    for a, b in value:
        for player in (a, b):
            if player not in ids:
                problems.append(Problem(where, _("player %(player)s is not in the file's players")
                                        % {"player": player}))
        if a == b:
            problems.append(Problem(where, _("%(player)s is paired with themselves") % {"player": a}))
        elif frozenset((a, b)) in seen:
            problems.append(Problem(where, _("%(first)s and %(second)s are listed twice") % {"first": a, "second": b}))
        seen.add(frozenset((a, b)))
    if problems:
        raise InvalidTournament(problems)
    return [(a, b) for a, b in value]


@dataclass(frozen=True)
class FileAward:
    kind: str
    title: str
    given: bool
    player: str | None
    reason: str
    at: dt.datetime | None


def read_awards(value: Any, ids: set[str], disqualified: set[str]) -> list[FileAward]:
    """The file's ``awards``: each a computed ``kind`` (once each) or a free-form ``title``; ``given`` (default
    true); a ``player`` of the file chosen by hand, not disqualified, with its ``reason`` and optional ``at``."""
    where = Location(field=f"tournament.{AWARDS_KEY}")
    shape = _('must be a list of {"kind": id or "title": text, "given": true or false, "player": id, '
              '"reason": text, "at": date and time}')
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise InvalidTournament([Problem(where, shape)])
    found: list[FileAward] = []
    problems: list[Problem] = []
    kinds: set[str] = set()
    for item in value:
        kind, title, given = item.get("kind", ""), item.get("title", ""), item.get("given", True)
        player, reason, at = item.get("player"), item.get("reason", ""), item.get("at")
        if not isinstance(kind, str) or not isinstance(title, str) or not isinstance(given, bool) or \
                not isinstance(player, str | None) or not isinstance(reason, str) or not isinstance(at, str | None):
            problems.append(Problem(where, shape))
            continue
        name = title.strip() or kind
        if kind and kind not in KINDS:
            problems.append(Problem(where, _("“%(kind)s” is not a kind of award; known: %(known)s")
                                    % {"kind": kind, "known": ", ".join(sorted(KINDS))}))
        elif kind in kinds:
            problems.append(Problem(where, _("the award “%(kind)s” is listed twice") % {"kind": kind}))
        elif not kind and not title.strip():
            problems.append(Problem(where, _("an award without a kind needs a title")))
        elif player is not None and player not in ids:
            problems.append(Problem(where, _("%(award)s: player %(player)s is not in the file's players")
                                    % {"award": name, "player": player}))
        elif player is not None and player in disqualified:
            problems.append(Problem(where, _("%(award)s: player %(player)s is disqualified")
                                    % {"award": name, "player": player}))
        elif player is not None and not reason.strip():
            problems.append(Problem(where, _("%(award)s: a recipient chosen by hand needs a reason")
                                    % {"award": name}))
        else:
            when = None if at is None else parse_moment(at)
            if at is not None and when is None:
                problems.append(Problem(where, _("%(value)r is not a date and time (ISO 8601)") % {"value": at}))
                continue
            if player is not None and when is None:
                when = timezone.now()
            if kind:
                kinds.add(kind)
            found.append(FileAward(kind, " ".join(title.split()), given, player, reason.strip(), when))
    if problems:
        raise InvalidTournament(problems)
    return found


InPlay = dict[tuple[str, int], dict[int, list[tuple[int, str]]]]  # (stage, round) → table → [(seat, player)]


def read_tables_in_play(value: Any, t: m.Tournament) -> InPlay:
    """The file's ``tables_in_play``, checked against its stages: a published round of the file, a table that is
    not one of its games, seats 1..12 once each, players of the file seated once in the round."""
    where = Location(field=f"tournament.{TABLES_IN_PLAY_KEY}")
    shape = _('must be a list of {"stage": id, "round": number, "table": number, '
              '"seats": [{"seat": number, "player": id}]}')

    def whole(n: Any, low: int, high: int) -> bool:
        return isinstance(n, int) and not isinstance(n, bool) and low <= n <= high

    if not isinstance(value, list):
        raise InvalidTournament([Problem(where, shape)])
    rounds = {(stage.id, r.number): r for stage in t.stages for r in stage.rounds}
    players = {p.id for p in t.players}
    found: InPlay = {}
    problems: list[Problem] = []
    for item in value:
        seats = item.get("seats") if isinstance(item, dict) else None
        if not isinstance(item, dict) or not isinstance(item.get("stage"), str) or \
                not whole(item.get("round"), 1, 2**31 - 1) or not whole(item.get("table"), 1, 2**31 - 1) or \
                not isinstance(seats, list) or not seats or not all(
                    isinstance(x, dict) and whole(x.get("seat"), 1, 12) and isinstance(x.get("player"), str)
                    for x in seats):
            problems.append(Problem(where, shape))
            continue
        key, table = (item["stage"], item["round"]), item["table"]
        place = _("stage %(stage)s, round %(round)s, table %(table)s") % {
            "stage": key[0], "round": key[1], "table": table}
        round_ = rounds.get(key)
        if round_ is None:
            problems.append(Problem(where, _("%(place)s: the file has no such round") % {"place": place}))
            continue
        taken = {s.player for g in round_.games for s in g.seats} | set(round_.byes) | set(round_.absent) | \
            {p for tables in found.get(key, {}).values() for _seat, p in tables}
        if table in {g.table for g in round_.games} or table in found.get(key, {}):
            problems.append(Problem(where, _("%(place)s: the table is listed twice") % {"place": place}))
            continue
        numbers = [x["seat"] for x in seats]
        for x in seats:
            if x["player"] not in players:
                problems.append(Problem(where, _("%(place)s: player %(player)s is not in the file's players")
                                        % {"place": place, "player": x["player"]}))
            elif x["player"] in taken:
                problems.append(Problem(where, _("%(place)s: player %(player)s is seated twice in the round")
                                        % {"place": place, "player": x["player"]}))
            taken.add(x["player"])
        if len(set(numbers)) != len(numbers):
            problems.append(Problem(where, _("%(place)s: a seat number is used twice") % {"place": place}))
        found.setdefault(key, {})[table] = [(x["seat"], x["player"]) for x in seats]
    if problems:
        raise InvalidTournament(problems)
    return found



def read_numbers(value: Any, ids: list[str]) -> dict[str, int]:
    """Each player's number: the file's ``player_numbers``; a player it leaves out gets the next number after the
    highest (without the key: 1, 2, 3… in the players' order)."""
    where = Location(field=f"tournament.{NUMBERS_KEY}")
    if not isinstance(value, dict) or not all(
        isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 2**31 - 1 for n in value.values()
    ):
        raise InvalidTournament([Problem(where, _("must map player ids to whole numbers from 1"))])
    known = set(ids)
    problems = [Problem(where, _("player %(player)s is not in the file's players") % {"player": pid})
                for pid in value if pid not in known]
    seen: dict[int, str] = {}
    for pid, number in value.items():
        if number in seen:
            problems.append(Problem(where, _("%(first)s and %(second)s both have number %(n)s")
                                    % {"first": seen[number], "second": pid, "n": number}))
        seen[number] = pid
    if problems:
        raise InvalidTournament(problems)
    numbers = dict(value)
    following = max(numbers.values(), default=0)
    for pid in ids:
        if pid not in numbers:
            following += 1
            numbers[pid] = following
    return numbers


def read_disqualifications(value: Any, ids: set[str]) -> dict[str, tuple[dt.datetime, str]]:
    """The file's ``disqualifications``: player → (when, reason); a missing time is the import's."""
    where = Location(field=f"tournament.{DISQUALIFICATIONS_KEY}")
    shape = _("must be a list of {\"player\": id, \"reason\": text, \"at\": date and time}")
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise InvalidTournament([Problem(where, shape)])
    found: dict[str, tuple[dt.datetime, str]] = {}
    problems = []
    for item in value:
        player, reason, at = item.get("player"), item.get("reason"), item.get("at")
        if not isinstance(player, str) or not isinstance(reason, str) or not reason.strip() or \
                not isinstance(at, str | None):
            problems.append(Problem(where, shape))
        elif player not in ids:
            problems.append(Problem(where, _("player %(player)s is not in the file's players") % {"player": player}))
        elif player in found:
            problems.append(Problem(where, _("player %(player)s is disqualified twice") % {"player": player}))
        else:
            when = timezone.now() if at is None else parse_moment(at)
            if when is None:
                problems.append(Problem(where, _("%(value)r is not a date and time (ISO 8601)") % {"value": at}))
            else:
                found[player] = (when, reason.strip())
    if problems:
        raise InvalidTournament(problems)
    return found


def parse_moment(value: str) -> dt.datetime | None:
    """An ISO 8601 date and time, aware (a naive one is in the server's time zone); ``None`` if it is not one."""
    try:
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        return None
    return moment if timezone.is_aware(moment) else timezone.make_aware(moment)

