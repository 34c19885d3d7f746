"""Translations of ``scoring``'s problem messages (``scoring/messages.py``) for the web pages.

``scoring`` is pure Python and writes English; its messages are templates with named fields.
This module lists every template for the catalogue (``gettext_noop``; a test checks the list is
complete) and turns a ``Problem`` into the active language: the template is translated, fields
that are messages are translated in turn, role and side ids become their labels.
"""

from __future__ import annotations

import re

from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from scoring.errors import Location, Message, Problem

from .labels import Role, Side, ruleset_short

TEMPLATES = (
    gettext_noop("best_move: seat {seat} is not at the table"),
    gettext_noop("best_move: the first-killed player cannot name their own seat"),
    gettext_noop("best_move is given but nobody was killed in the first night"),
    gettext_noop("player {player} gets bye number {count}; {ruleset} allows at most {limit} per tournament"),
    gettext_noop("circle {circle}: best seat {seat} is not at the table"),
    gettext_noop("circle {circle}: named both best and worst"),
    gettext_noop("circle {circle}: {count} players named best; {ruleset} allows at most {most}"),
    gettext_noop("circle {circle}: {count} players named worst; {ruleset} allows at most {most}"),
    gettext_noop("circle {circle}: worst seat {seat} is not at the table"),
    gettext_noop("days_survived is required in a tomsk game with a result"),
    gettext_noop("a {role} plays red or black, not maniac"),
    gettext_noop("{count} {roles} at the table; {ruleset} allows at most 1"),
    gettext_noop("a losing player can get {allowed} extra points under {ruleset}"),
    gettext_noop("extra {value} is not allowed under {ruleset}"),
    gettext_noop("{count} players got extra points; {ruleset} allows at most {most}"),
    gettext_noop("extra points total {total}; {ruleset} allows at most {most} in a game"),
    gettext_noop("a winning player can get {allowed} extra points under {ruleset}"),
    gettext_noop("first_killed: seat {seat} is not at the table"),
    gettext_noop("log: seat {seat} is not at the table"),
    gettext_noop("{ruleset} has no verbal warnings apart from remarks (warnings must be 0)"),
    gettext_noop("awarded: {reason} is not a reason {ruleset} awards a win for"),
    gettext_noop("awarded: a game whose win is awarded needs its winner"),
    gettext_noop("awarded: seat {seat} is not at the table"),
    gettext_noop("awarded: name the seats that caused it"),
    gettext_noop("awarded: name the one removed player who spoke"),
    gettext_noop("awarded: the judge's decision names no seat"),
    gettext_noop("awarded: the player was not removed from the table"),
    gettext_noop("awarded: the seats named play different sides"),
    gettext_noop("awarded: the win goes to the other side, not to {side}"),
    gettext_noop("{list}: {id} is listed {count} times"),
    gettext_noop("the mafia missed three nights, so the city won: winner must be red"),
    gettext_noop("circle {circle}: {ruleset} has no per-circle marks"),
    gettext_noop("{ruleset} has no extra points (extra must be 0)"),
    gettext_noop("{ruleset} has no subjective marks (subjective must be 0)"),
    gettext_noop("penalty: player {player} is not in the file's players"),
    gettext_noop("absent"),
    gettext_noop("a bye"),
    gettext_noop("table {table} seat {seat}"),
    gettext_noop("player {player} sits at the table {count} times"),
    gettext_noop("protest: seat {seat} is not at the table"),
    gettext_noop("{count} {roles} at the table; {ruleset} expects {expected}"),
    gettext_noop("{count} {roles} at the table; {ruleset} expects {expected} (civilians and extra characters together)"),  # noqa: E501
    gettext_noop("a {role} plays {side}, not {given}"),
    gettext_noop("{count} seats at the table; {ruleset} plays at tables of {size}"),
    gettext_noop("seat {seat} does not exist at a table of {size}"),
    gettext_noop("seat {seat} is given {count} times"),
    gettext_noop("a second round with this number in the stage"),
    gettext_noop("a second stage with this id"),
    gettext_noop("subjective mark {value} is outside {min}..{max}"),
    gettext_noop("subjective (SP, from {min} to {max}) is required in a tomsk game with a result"),
    gettext_noop("{count} games with this table number"),
    gettext_noop("player {player} appears twice in the round ({first} and {second})"),
    gettext_noop("{list}: player {player} is not in the file's players"),
    gettext_noop("player {player} is not in the file's players"),
    gettext_noop("team {team} is not in the file's teams"),
    gettext_noop("{values} or {last}"),
    gettext_noop("{value}"),
    gettext_noop("from {min} to {max} in steps of {step}"),
    gettext_noop("winner {side}: nobody at the table plays that side"),
    gettext_noop("the file is larger than {megabytes} MB, the most a tournament file may be"),
    gettext_noop("not a tournament file: its JSON is nested too deeply"),
    gettext_noop("{field}: {problem}"),
    gettext_noop("{value} is not a number a tournament file can hold (JSON has no NaN or Infinity)"),
    gettext_noop("the number {value} is out of range"),
    gettext_noop("a number of {digits} digits; at most {most} are read"),
    gettext_noop("the text holds an unpaired surrogate {code}, which is not a character"),
    gettext_noop("a key holds an unpaired surrogate {code}, which is not a character"),
    gettext_noop('key "{key}" appears {count} times in the object'),
    gettext_noop("a name of spaces only"),
    gettext_noop("unknown parameter"),
    gettext_noop("does not apply to {ruleset}"),
    gettext_noop("must be from 1 to 12"),
    gettext_noop("must not be above sp_max"),
    gettext_noop("must be above 0"),
    gettext_noop("must not be below 0"),
    gettext_noop('expected "points" or "average", got {value}'),
    gettext_noop("expected a number or a decimal string, got {value}"),
    gettext_noop("expected a whole number of 0 or more, got {value}"),
    gettext_noop("unknown side {side}; sides are red, black, maniac"),
    gettext_noop('a range needs exactly "min", "max" and "step"'),
    gettext_noop("the step of a range must be above 0"),
    gettext_noop("the min of a range must not be above its max"),
    gettext_noop("expected a list of numbers or a {{min, max, step}} range, got {value}"),
    gettext_noop('expected an object such as {{"2": 0.25, "3": 0.5}}, got {value}'),
    gettext_noop("the number of blacks named must be 0 to 3, got {key}"),
    gettext_noop('expected a list of metric ids such as ["wins", "best"], got {value}'),
    gettext_noop('"lots" can only come last: lots always break what the chain leaves'),
    gettext_noop("unknown metric {metric}; metrics are {known}"),
    gettext_noop("metric {metric} is listed twice"),
    gettext_noop('expected an object such as {{"don": {{"win": 0.5, "loss": -0.5}}}}, got {value}'),
    gettext_noop("unknown role {key}; roles are {known}"),
    gettext_noop('the points of {role} are an object with "win" and/or "loss", got {value}'),
)

# Values of the ``list`` field, and the field names whose values are role or side ids.
LIST_NAMES = {
    "players": gettext_noop("players"),
    "lots": gettext_noop("lots"),
    "player ids": gettext_noop("player ids"),
    "team ids": gettext_noop("team ids"),
}
ROLE_FIELDS = ("role", "roles")
# fields that carry the regulation's numbers or a judge's: said in the reader's format («2,5», «−3»); a file's
# value echoed back ("expected a number …, got 1.5") stays as the file wrote it
NUMBER_FIELDS = ("total", "most", "min", "max", "limit", "value", "values", "last", "step")
ECHOED = frozenset(template for template in TEMPLATES if "got {" in template or "{value} is not a number" in template
                   or "the number {value}" in template)
NUMBER = re.compile(r"(?<![\w.])(-?)(\d+)(?:\.(\d+))?(?![\w.])")
SIDE_FIELDS = ("side", "given")


def message_text(message: Message | str) -> str:
    """A ``scoring`` message (or a plain string already translated) in the active language."""
    if isinstance(message, str):
        return message
    template = _(message.template)
    fields: dict[str, object] = {}
    for name, value in message.fields:
        if name == "roles" and template != message.template:
            # "2 dons" is English grammar; a translation names the role instead: «дон: за столом 2».
            value = dict(message.fields).get("role", value)
        if isinstance(value, Message):
            fields[name] = message_text(value)
        elif name in ROLE_FIELDS and isinstance(value, str):
            fields[name] = Role(value).label if value in Role.values else value
        elif name in SIDE_FIELDS and isinstance(value, str):
            fields[name] = Side(value).label if value in Side.values else value
        elif name == "ruleset" and isinstance(value, str):  # the regulation's name, not its id
            fields[name] = ruleset_short(value)
        elif name == "list" and isinstance(value, str):
            fields[name] = _(LIST_NAMES.get(value, value))
        elif name in NUMBER_FIELDS and isinstance(value, str) and message.template not in ECHOED:
            fields[name] = local_numbers(value)
        else:
            fields[name] = value
    return template.format(**fields)


def local_numbers(text: str) -> str:
    """Every number in ``text`` in the reader's format: ``0.5 or 1`` → «0,5 or 1», ``-3`` → «−3»."""
    separator = str(get_format("DECIMAL_SEPARATOR"))
    return NUMBER.sub(lambda m: ("−" if m[1] else "") + m[2] + (separator + m[3] if m[3] else ""), text)


def location_text(location: Location) -> str:
    parts = []
    if location.field is not None:
        parts.append(location.field)
    if location.stage is not None:
        parts.append(_("stage %(id)s") % {"id": location.stage})
    if location.round is not None:
        parts.append(_("round %(n)s") % {"n": location.round})
    if location.table is not None:
        parts.append(_("table %(n)s") % {"n": location.table})
    if location.seat is not None:
        parts.append(_("seat %(n)s") % {"n": location.seat})
    return ", ".join(parts)


def problem_text(problem: Problem, *, with_location: bool = True) -> str:
    """The whole line, e.g. «этап q, тур 3, стол 2: дон: за столом 2, fiim требует 1»."""
    text = message_text(problem.message)
    where = location_text(problem.location) if with_location else ""
    return f"{where}: {text}" if where else text
