"""The tournament file (docs/tournament-file.md): read, schema-check, rule-check and write it.

``load`` turns the parsed JSON into the model and reports every problem at once, each naming
where it is; ``dump`` (``filejson``, re-exported here) writes the model back in a canonical form (defaults
left out), so that ``load(dump(t)) == t`` and ``dump(load(dump(t))) == dump(t)``.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import IO, Any

import jsonschema_rs

from . import messages
from .errors import InvalidTournament, Location, Message, Problem, message
from .filejson import FORMAT, JSON, dump, dumps, from_json
from .model import (
    Tournament,
)

__all__ = ["FORMAT", "JSON", "MAX_FILE_BYTES", "dump", "dumps", "from_json", "load", "loads", "read_file",
           "read_json", "read_limited", "too_large"]


def schema() -> dict[str, Any]:
    # Beside this module: importlib.resources would lengthen the command line's start-up (bench/README.md).
    with open(os.path.join(os.path.dirname(__file__), "schema", "tournament.schema.json"), encoding="utf-8") as f:
        return dict(json.load(f))


@cache
def fast_validator() -> Any:
    """The compiled validator (jsonschema-rs): whether a file is valid, in milliseconds (bench/README.md)."""
    return jsonschema_rs.validator_for(schema())


@cache
def schema_validator() -> Any:
    """The reference validator (jsonschema), for a file found invalid: its messages and paths name each problem
    as they always have. Imported only then: it costs most of the command line's start-up."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


# The largest tournament file read, in bytes (20 MB): the browser's upload, ``import_tournament`` and
# ``python -m scoring`` refuse a larger one before reading it whole. A played 1,000-player championship
# is about 5 MB.
MAX_FILE_BYTES = 20 * 1000 * 1000
# The most digits of an integer in the file (Python refuses to read more than 4,300; no tournament
# number comes near 100).
MAX_NUMBER_DIGITS = 100


def too_large(limit: int = MAX_FILE_BYTES) -> InvalidTournament:
    return InvalidTournament([Problem(Location(), message(messages.FILE_TOO_LARGE, megabytes=f"{limit / 1e6:g}"))])


def read_limited(handle: IO[bytes], limit: int = MAX_FILE_BYTES) -> bytes:
    """At most ``limit`` bytes of a binary stream (standard input, an upload); past it, ``InvalidTournament``
    after reading only ``limit + 1`` bytes."""
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise too_large(limit)
    return data


def read_file(path: str, limit: int = MAX_FILE_BYTES) -> str:
    """The text of a tournament file (``-`` is standard input): a file past ``limit`` is refused by its size
    before it is read. ``OSError`` and ``UnicodeDecodeError`` reach the caller."""
    if path == "-":
        import sys

        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream put in place of standard input (tests)
            text = sys.stdin.read(limit + 1)
            if len(text.encode("utf-8", "surrogatepass")) > limit:
                raise too_large(limit)
            return text
        return read_limited(stream, limit).decode("utf-8")
    with open(path, "rb") as handle:
        if os.fstat(handle.fileno()).st_size > limit:
            raise too_large(limit)
        return read_limited(handle, limit).decode("utf-8")


class _Unreadable:
    """A JSON number no tournament file can hold, kept in the tree until its place is known."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def problem(self) -> Message:
        if self.text in ("NaN", "Infinity", "-Infinity"):
            return message(messages.NOT_A_NUMBER, value=self.text)
        if len(self.text) > MAX_NUMBER_DIGITS and self.text.lstrip("-").isdigit():
            return message(messages.NUMBER_TOO_LONG, digits=len(self.text.lstrip("-")), most=MAX_NUMBER_DIGITS)
        return message(messages.NUMBER_OUT_OF_RANGE, value=self.text if len(self.text) <= 40 else self.text[:40] + "…")


class _Repeated(dict[str, Any]):
    """A JSON object that gave a key more than once (``twice``: each such key and how often)."""

    twice: dict[str, int]


def _pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for key, _value in items:
        counts[key] = counts.get(key, 0) + 1
    if all(n == 1 for n in counts.values()):
        return dict(items)
    repeated = _Repeated(items)
    repeated.twice = {key: n for key, n in counts.items() if n > 1}
    return repeated


def _float(text: str) -> float | _Unreadable:
    value = float(text)
    return value if math.isfinite(value) else _Unreadable(text)


def _integer(text: str) -> int | _Unreadable:
    return _Unreadable(text) if len(text.lstrip("-")) > MAX_NUMBER_DIGITS else int(text)


def read_json(text: str) -> JSON:
    """Parse JSON text; a syntax error becomes an ``InvalidTournament`` naming line and column, and so does
    what JSON (or Python's reader) lets through but no file can hold, each named by its place: NaN and
    Infinity, a number past floating point (``1e400``) or of more than ``MAX_NUMBER_DIGITS`` digits, a text
    or key with an unpaired surrogate (``"\\ud800"``: not a character), a key given twice in one object,
    nesting too deep to read."""
    if not _SURROGATE_ESCAPE.search(text) and not _surrogate(text):
        # No text or key can hold an unpaired surrogate: a first reading that stops at anything else
        # ``unreadable_problems`` would name spares walking the whole tree; what it stopped at is read again below.
        try:
            return json.loads(text, parse_constant=_doubt, parse_float=_float_or_doubt, parse_int=_integer_or_doubt,
                              object_pairs_hook=_pairs_or_doubt)
        except (_Doubt, ValueError, RecursionError):  # JSONDecodeError is a ValueError: named below as always
            pass
    try:
        data = json.loads(text, parse_constant=_Unreadable, parse_float=_float, parse_int=_integer,
                          object_pairs_hook=_pairs)
    except json.JSONDecodeError as error:
        raise InvalidTournament(
            [Problem(Location(), f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}")]
        ) from None
    except RecursionError:  # Python's decoder gives up on deep nesting; no tournament file is nested so
        raise InvalidTournament([Problem(Location(), message(messages.TOO_DEEP))]) from None
    problems = unreadable_problems(data)
    if problems:
        raise InvalidTournament(problems)
    return data


# A JSON escape that may write an unpaired surrogate (``\\ud800``..``\\udfff``; a pair is one character).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class _Doubt(Exception):
    """The fast reading met what only the full one names (``read_json``)."""


def _doubt(text: str) -> Any:
    raise _Doubt


def _float_or_doubt(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Doubt
    return value


def _integer_or_doubt(text: str) -> int:
    if len(text) > MAX_NUMBER_DIGITS:  # with its sign: a 100-digit negative number is read again, and passes
        raise _Doubt
    return int(text)


def _pairs_or_doubt(items: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(items)
    if len(value) != len(items):
        raise _Doubt
    return value


def unreadable_problems(data: JSON) -> list[Problem]:
    """What ``read_json`` refuses, in the file's order (a loop, not recursion: the tree may be deep)."""
    problems: list[Problem] = []

    def add(path: list[object], text: Message) -> None:
        problems.append(_problem_at(data, path, text))

    stack: list[tuple[list[object], JSON]] = [([], data)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _Unreadable):
            add(path, node.problem())
        elif isinstance(node, str):
            code = _surrogate(node)
            if code:
                add(path, message(messages.TEXT_SURROGATE, code=code))
        elif isinstance(node, dict):
            for key, count in getattr(node, "twice", {}).items():
                add(path, message(messages.KEY_REPEATED, key=_printable(key), count=count))
            for key in node:
                code = _surrogate(key)
                if code:
                    add(path, message(messages.KEY_SURROGATE, code=code))
            stack.extend(reversed([([*path, key], value) for key, value in node.items()]))
        elif isinstance(node, list):
            stack.extend(reversed([([*path, index], value) for index, value in enumerate(node)]))
    return problems


def _problem_at(data: JSON, path: list[object], text: Message) -> Problem:
    """``text`` at ``path``: inside a stage the place is stage, round, table and seat, and the field is named
    in the message (``seat: …``), as the schema's problems do; outside, the place is the field's path."""
    location = _location_of(data, path)
    if location.field is None and path and isinstance(path[-1], str):
        return Problem(location, message(messages.IN_FIELD, field=_printable(path[-1]), problem=text))
    return Problem(location, text)


def _surrogate(text: str) -> str:
    """``\\udXXX`` of the first unpaired surrogate in ``text``, or ``""``."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        return f"\\u{ord(text[error.start]):04x}"
    return ""


def _printable(text: str) -> str:
    """``text`` as it can be printed: an unpaired surrogate written as its escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def load(data: JSON, *, check_rules: bool = True) -> Tournament:
    """The tournament in ``data`` (parsed JSON), checked against the schema and, unless told
    otherwise, against its ruleset. Raises ``InvalidTournament`` with every problem found."""
    try:
        problems = schema_problems(data) + blank_name_problems(data)
        if problems:
            raise InvalidTournament(problems)
        tournament = from_json(data)
    except RecursionError:  # a value nested nearly as deep as the reader allows, in a field kept as it is
        raise InvalidTournament([Problem(Location(), message(messages.TOO_DEEP))]) from None
    if check_rules:
        from .validation import validate  # here, not at the top: validation imports the rulesets

        problems = validate(tournament)
        if problems:
            raise InvalidTournament(problems)
    return tournament


def loads(text: str, *, check_rules: bool = True) -> Tournament:
    return load(read_json(text), check_rules=check_rules)


def schema_problems(data: JSON) -> list[Problem]:
    if fast_validator().is_valid(data):
        return []
    errors = sorted(schema_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    problems = []
    for error in errors:
        location = _location_of(data, list(error.absolute_path))
        # Outside the stages the location is the field's path already; inside, name the field.
        prefix = _field_name(error.absolute_path) if location.field is None else ""
        problems.append(Problem(location, prefix + _schema_message(error)))
    return problems


NAMES = (("teams", ("name",)), ("players", ("name", "nickname")), ("stages", ("name",)))


def blank_name_problems(data: JSON) -> list[Problem]:
    """Names (of the tournament, teams, players and their nicknames, stages) that are only spaces."""
    if not isinstance(data, Mapping):
        return []
    places: list[tuple[list[object], object]] = []
    info = data.get("tournament")
    if isinstance(info, Mapping):
        places.append((["tournament", "name"], info.get("name")))
    for list_name, keys in NAMES:
        items = data.get(list_name)
        for index, item in enumerate(items if isinstance(items, list) else ()):
            if isinstance(item, Mapping):
                places += [([list_name, index, key], item.get(key)) for key in keys]
    return [_problem_at(data, path, message(messages.BLANK_NAME)) for path, value in places
            if isinstance(value, str) and value and not value.strip()]


def _schema_message(error: Any) -> str:
    # For "oneOf" failures the top message repeats the whole value; the best sub-error is clearer.
    if error.validator == "oneOf" and error.context:
        return str(min(error.context, key=lambda e: len(e.message)).message)
    return str(error.message)


def _field_name(path: Sequence[object]) -> str:
    names = [str(p) for p in path if isinstance(p, str)]
    return f"{names[-1]}: " if names else ""


def _location_of(data: JSON, path: list[object]) -> Location:
    """Turn a JSON path into stage id, round number, table and seat wherever they can be read."""
    stage = round_ = table = seat = None
    node = data
    field_parts: list[str] = []
    for index, step in enumerate(path):
        parent_key = path[index - 1] if index else None
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(step, int) and isinstance(node, Mapping):
            if parent_key == "stages":
                stage = _text(node.get("id"), f"#{step + 1}")
                continue
            if parent_key == "rounds":
                round_ = _int(node.get("number"), step + 1)
                continue
            if parent_key == "games":
                table = _int(node.get("table"), step + 1)
                continue
            if parent_key == "seats":
                seat = _int(node.get("seat"), step + 1)
                continue
        if stage is None:
            field_parts.append(_printable(str(step)))
    field = ".".join(field_parts) if stage is None and field_parts else None
    return Location(stage=stage, round=round_, table=table, seat=seat, field=field)


def _text(value: object, fallback: str) -> str:
    return value if isinstance(value, str) and not _surrogate(value) else fallback


def _int(value: object, fallback: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else fallback
