"""The extra keys the app writes into the tournament file's open ``tournament`` object, and their reading.

``scoring`` does not model these facts of the participants and of a round in play, so they travel as extra keys
(docs/tournament-file.md): ``player_numbers`` (written only when the numbers are not simply 1, 2, 3… in the
players' order), ``disqualifications``, ``tables_in_play`` (the seating of each table of a published round whose
protocol is not submitted yet, so a file exported mid-round, imported again, gives the judges the same tables to
record), ``keep_apart`` (the organizer's pairs, ``[[id, id], …]``), ``lot_draws`` (the record of each drawing
of lots: the stage, the order drawn, how, who, when, and its cancellation; the stage's ``lots`` stay the list the
standings read), ``awards`` (the organizer's awards: given or not, free-form ones, recipients chosen by hand with
their reasons) and the organizer's settings (``protests_enabled``, ``participant_cap``, ``applications_open``,
``applications_close``). Each reader checks its key and names what is wrong, or returns what the writer stores.
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
LOT_DRAWS_KEY = "lot_draws"
LOT_DRAW_METHODS = ("app", "physical")
PARTICIPANT_KEYS = (NUMBERS_KEY, DISQUALIFICATIONS_KEY)
# The organizer's procedure settings, each written only when set (absent: the regulation's default for protests,
# no cap, no application period).
PROTESTS_KEY = "protests_enabled"
CAP_KEY = "participant_cap"
OPEN_KEY = "applications_open"
CLOSE_KEY = "applications_close"
# Whether the tournament's games count for the rating and its level (its K), read with their defaults (rated,
# "open") when absent; written when not the default or when the imported file carried them, so that a file
# imported and exported comes back the same (docs/rating.md). Their presence is kept in the tournament's other
# info (``carried``).
RATED_KEY = "rated"
LEVEL_KEY = "level"
LEVELS = ("club", "open", "championship")
SETTINGS_KEYS = (PROTESTS_KEY, CAP_KEY, OPEN_KEY, CLOSE_KEY, RATED_KEY, LEVEL_KEY)
# Written by the exchange from rows of their own, never kept as the tournament's other info.
EXCHANGE_KEYS = (*PARTICIPANT_KEYS, TABLES_IN_PLAY_KEY, KEEP_APART_KEY, LOT_DRAWS_KEY, AWARDS_KEY,
                 *SETTINGS_KEYS)


@dataclass(frozen=True)
class Settings:
    protests_enabled: bool | None = None
    participant_cap: int | None = None
    applications_open: dt.datetime | None = None
    applications_close: dt.datetime | None = None
    rated: bool = True
    level: str = "open"
    carried: frozenset[str] = frozenset()  # of RATED_KEY, LEVEL_KEY: those the imported file had


def write_settings(settings: Settings) -> dict[str, Any]:
    """The file's keys of the settings that are set."""
    found: dict[str, Any] = {}
    if settings.protests_enabled is not None:
        found[PROTESTS_KEY] = settings.protests_enabled
    if settings.participant_cap is not None:
        found[CAP_KEY] = settings.participant_cap
    for key, moment in ((OPEN_KEY, settings.applications_open), (CLOSE_KEY, settings.applications_close)):
        if moment is not None:
            found[key] = timezone.localtime(moment).isoformat(timespec="seconds")
    if not settings.rated or RATED_KEY in settings.carried:
        found[RATED_KEY] = settings.rated
    if settings.level != "open" or LEVEL_KEY in settings.carried:
        found[LEVEL_KEY] = settings.level
    return found


def read_settings(other: dict[str, Any], players: int) -> Settings:
    """Pops the settings' keys from the file's other info and checks them: a cap the file's ``players`` go past
    is refused, naming the cap and how many are over."""
    problems: list[Problem] = []

    def where(key: str) -> Location:
        return Location(field=f"tournament.{key}")

    protests, cap = other.pop(PROTESTS_KEY, None), other.pop(CAP_KEY, None)
    if protests is not None and not isinstance(protests, bool):
        problems.append(Problem(where(PROTESTS_KEY), _("must be true or false")))
        protests = None
    if cap is not None:
        if isinstance(cap, bool) or not isinstance(cap, int) or not 1 <= cap <= 2**31 - 1:
            problems.append(Problem(where(CAP_KEY), _("must be a whole number from 1")))
            cap = None
        elif players > cap:
            problems.append(Problem(where(CAP_KEY), _(
                "the file has %(players)s players, %(over)s over the cap of %(cap)s") % {
                    "players": players, "over": players - cap, "cap": cap}))
    moments: dict[str, dt.datetime | None] = {}
    for key in (OPEN_KEY, CLOSE_KEY):
        value = other.pop(key, None)
        moments[key] = parse_moment(value) if isinstance(value, str) else None
        if value is not None and moments[key] is None:
            problems.append(Problem(where(key), _("%(value)r is not a date and time (ISO 8601)") % {"value": value}))
    carried = frozenset(key for key in (RATED_KEY, LEVEL_KEY) if key in other)
    rated, level = other.pop(RATED_KEY, True), other.pop(LEVEL_KEY, "open")
    if not isinstance(rated, bool):
        problems.append(Problem(where(RATED_KEY), _("must be true or false")))
        rated = True
    if level not in LEVELS:
        problems.append(Problem(where(LEVEL_KEY), _("%(value)r is not one of: %(choices)s") % {
            "value": level, "choices": ", ".join(LEVELS)}))
        level = "open"
    opens, closes = moments[OPEN_KEY], moments[CLOSE_KEY]
    if opens is not None and closes is not None and closes < opens:
        problems.append(Problem(where(CLOSE_KEY), _("applications cannot close before they open")))
    if problems:
        raise InvalidTournament(problems)
    return Settings(protests, cap, opens, closes, rated, level, carried)


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


@dataclass(frozen=True)
class LotDrawFacts:
    stage: str
    players: tuple[str, ...]
    method: str
    at: dt.datetime
    by: str
    note: str
    cancelled_at: dt.datetime | None
    cancelled_by: str


def read_lot_draws(value: Any, t: m.Tournament) -> list[LotDrawFacts]:
    """The file's ``lot_draws``: each a stage of the file, its players in the order drawn (players of the file, each
    once), ``method`` ``app`` or ``physical``, ``at`` a date and time; ``by``, ``note``, ``cancelled_at`` and
    ``cancelled_by`` optional."""
    where = Location(field=f"tournament.{LOT_DRAWS_KEY}")
    shape = _('must be a list of {"stage": id, "players": [id, …], "method": "app" or "physical", '
              '"at": date and time, "by": text, "note": text, "cancelled_at": date and time, "cancelled_by": text}')
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise InvalidTournament([Problem(where, shape)])
    stages, ids = {s.id for s in t.stages}, {p.id for p in t.players}
    found: list[LotDrawFacts] = []
    problems: list[Problem] = []
    for item in value:
        players, texts = item.get("players"), [item.get(k, "") for k in ("by", "note", "cancelled_by")]
        if not isinstance(item.get("stage"), str) or not isinstance(players, list) or len(players) < 2 or \
                not all(isinstance(p, str) for p in players) or item.get("method") not in LOT_DRAW_METHODS or \
                not isinstance(item.get("at"), str) or not isinstance(item.get("cancelled_at"), str | None) or \
                not all(isinstance(text, str) for text in texts):
            problems.append(Problem(where, shape))
            continue
        if item["stage"] not in stages:
            problems.append(Problem(where, _("stage %(stage)s is not in the file's stages") % {"stage": item["stage"]}))
            continue
        strangers = [p for p in players if p not in ids]
        twice = [p for p in players if players.count(p) > 1]
        at, cancelled = parse_moment(item["at"]), item.get("cancelled_at")
        cancelled_at = None if cancelled is None else parse_moment(cancelled)
        if strangers:
            problems.append(Problem(where, _("player %(player)s is not in the file's players")
                                    % {"player": strangers[0]}))
        elif twice:
            problems.append(Problem(where, _("player %(player)s is drawn twice in one draw") % {"player": twice[0]}))
        elif at is None or (cancelled is not None and cancelled_at is None):
            bad = item["at"] if at is None else cancelled
            problems.append(Problem(where, _("%(value)r is not a date and time (ISO 8601)") % {"value": bad}))
        else:
            found.append(LotDrawFacts(item["stage"], tuple(players), item["method"], at, texts[0][:150],
                                      texts[1][:200], cancelled_at, texts[2][:150]))
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

