"""The fuzzed tournament files: small valid files of every ruleset (``scoring.generate``) mutated by hypothesis
(values replaced, deleted, added, duplicated, moved; raw JSON such as NaN), and junk text and bytes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from scoring import fileio
from scoring.generate import generate

from .conftest import NASTY_TEXT

ROOT = Path(__file__).resolve().parents[2]
RULESETS = ["tomsk", "kostroma", "fiim", "zvezdy"]


def base_file(ruleset: str, players: int, rounds: int, stages: int, seed: int, named: bool) -> dict[str, Any]:
    data = fileio.dump(generate(ruleset, players=players, rounds=rounds, stages=stages, seed=seed))
    if named:
        data["tournament"] = {"name": f"Кубок {ruleset} {seed}", "starts": "2025-03-15", "ends": "2025-03-16"}
    return data


# Small valid files: every ruleset, 10..24 players, 1..2 rounds, 1..2 stages, with and without a name; the
# small ones come up more often (a file's checks take time in proportion to its size).
SHAPES = [(12, 1, 1, True), (10, 1, 1, False), (13, 2, 1, True), (17, 1, 2, False), (24, 2, 2, True)]
BASES = [base_file(r, players, rounds, stages, seed, named)
         for r in RULESETS for seed, (players, rounds, stages, named) in enumerate(SHAPES)]
WEIGHTS = [3, 2, 2, 1, 1] * len(RULESETS)


class Raw:
    """JSON text written as it is: what Python's ``json.dumps`` cannot produce (NaN, 1e400, an escape of an
    unpaired surrogate, nesting deeper than any encoder recurses)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:60]!r}{'…' if len(self.text) > 60 else ''})"


DEEP = 3000
RAW = [Raw("NaN"), Raw("-Infinity"), Raw("Infinity"), Raw("1e400"), Raw("-1e400"), Raw("1" * 5000),
       Raw("-" + "9" * 5000), Raw("1" + "0" * 101), Raw("1e-400"), Raw('"\\ud800"'), Raw('"Игрок \\udfff"'),
       Raw('"\\udc00\\ud800"'), Raw('"a\\u0000b"'), Raw("[" * DEEP + "]" * DEEP),
       Raw('{"a":' * DEEP + "1" + "}" * DEEP), Raw("[" * 50 + "]" * 50), Raw("0.1e1"), Raw("-0"), Raw("1E2")]
VALUES: list[Any] = [
    None, True, False, 0, -1, 1, 13, 101, 2**31, 2**63, -(2**63) - 1, 10**30, -(10**30), 1e308, -1e308, 0.5, 1.5,
    1e-300, "", " ", "   ", "\u3000\u00a0", "\t\n", "\u200b", [], {}, [None], [[]], {"": None}, {"id": None},
    ["p0001", "p0001"], "<script>alert(1)</script>", "<b>Игрок</b>&amp;", "x" * 5000, "я" * 70_000,
    "=1+1", '=HYPERLINK("http://x","y")', "Ёжик «Полночь» 🎲", "\u202e", "\ud800", "\x00", "a\nb", "\r",
    "../../etc/passwd", "2025-02-30", "2025-13-01", "0000-01-01", "9999-12-31", "p0001", "p9999", "s1", "s2",
    "qualifying", "semifinal", "final", "red", "black", "don", "maniac", "civilian", "mafia-tournament/2",
    "fiim", "zvezdy", "tomsk", "kostroma", "unknown",
    *NASTY_TEXT, *RAW,
]
KEYS = ["id", "name", "player", "seat", "role", "winner", "table", "number", "rounds", "games", "seats", "stages",
        "players", "kind", "reset", "fouls", "best", "removed", "days_survived", "subjective", "extra", "byes",
        "absent", "penalties", "protests", "guest", "team", "teams", "tournament", "standings_hidden", "format",
        "ruleset", "multiplier", "advance", "params", "starts", "ends", "tables_in_play", "keep_apart", "", " ",
        "\ud800", "__proto__", "x" * 300, "<script>"]


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in the tree (dict keys and list indices)."""
    found = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            found += paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += paths(value, (*prefix, i))
    return found


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def encode(node: Any, ascii_only: bool = True) -> str:
    """The JSON text of a tree that may hold Raw leaves (written as they are, later ones first: a Raw may hold
    the placeholder of an earlier one)."""
    raws: list[str] = []

    def placeholder(value: Any) -> Any:
        if isinstance(value, Raw):
            raws.append(value.text)
            return f"@@raw{len(raws) - 1}@@"
        if isinstance(value, dict):
            return {k: placeholder(v) for k, v in value.items()}
        if isinstance(value, list):
            return [placeholder(v) for v in value]
        return value

    text = json.dumps(placeholder(node), ensure_ascii=ascii_only)
    for i in reversed(range(len(raws))):
        text = text.replace(f'"@@raw{i}@@"', raws[i], 1)
    return text


class Mutable:
    """A base file with its places computed once (mutations use them while they still exist)."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.text = json.dumps(data)
        self.places = paths(data)[1:]
        self.containers = [p for p in paths(data) if isinstance(get(data, p), (dict, list))]
        self.place = st.sampled_from(self.places)  # strategies made once: hypothesis checks each new one
        self.container = st.sampled_from(self.containers)


MUTABLES = [Mutable(data) for data, weight in zip(BASES, WEIGHTS, strict=True) for _ in range(weight)]
BAD = st.sampled_from(VALUES) | st.text(max_size=20) | st.integers() | \
    st.floats(allow_nan=False, allow_infinity=False) | st.lists(st.sampled_from(VALUES), max_size=3)
BASE = st.sampled_from(MUTABLES)
KEY = st.sampled_from(KEYS) | st.text(max_size=8)
KIND = st.sampled_from(["replace", "replace", "delete", "add", "duplicate", "move"])


@st.composite
def mutated(draw: st.DrawFn) -> str:
    """A valid file with one to four mutations, as JSON text."""
    base = draw(BASE)
    data: Any = json.loads(base.text)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(KIND)
        try:
            if kind in ("replace", "delete", "move"):
                path = draw(base.place)
                parent = get(data, path[:-1])
                if kind == "delete":
                    del parent[path[-1]]
                elif kind == "move":  # a value of the right shape, in the wrong place
                    parent[path[-1]] = copy.deepcopy(get(data, draw(base.place)))
                else:
                    parent[path[-1]] = draw(BAD)
            elif kind == "add":
                where = get(data, draw(base.container))
                if isinstance(where, dict):
                    where[draw(KEY)] = draw(BAD)
                elif isinstance(where, list):
                    where.insert(draw(st.integers(0, len(where))), draw(BAD))
            else:  # a key given twice, written as raw text
                path = draw(base.container)
                node = get(data, path)
                if not isinstance(node, dict) or not node:
                    continue
                key = draw(st.sampled_from(sorted(node)))
                again = copy.deepcopy(node[key]) if draw(st.booleans()) else draw(BAD)
                text = encode(node)
                pairs = Raw(f"{text[:-1]}, {json.dumps(key)}: {encode(again)}}}")
                if path:
                    get(data, path[:-1])[path[-1]] = pairs
                else:
                    return pairs.text
        except (KeyError, IndexError, TypeError, AttributeError):  # the place went with an earlier mutation
            continue
    return encode(data, ascii_only=draw(st.booleans()))


JUNK_TEXT = st.sampled_from(["", " ", "\ufeff", "null", "true", "0", "[]", "{}", '""', '"x"', "[{}]", "{\"format\":1}",
                             "{", "}", "[" * 10_000, "{" * 10_000, "\x00", "\ud800", "NaN", "1e400", "9" * 5000,
                             "<html><body>no</body></html>", "format,ruleset\n1,2"]) | st.text(max_size=200)


JUNK_KIND = st.sampled_from(["text", "cut", "wrapped", "twice", "bom"])


@st.composite
def junk(draw: st.DrawFn) -> str:
    """Raw junk: random text, a valid file cut short, with junk before or after, or doubled."""
    kind = draw(JUNK_KIND)
    if kind == "text":
        return draw(JUNK_TEXT)
    text = draw(BASE).text
    if kind == "cut":
        return text[: draw(st.integers(0, len(text) - 1))]
    if kind == "wrapped":
        return draw(JUNK_TEXT) + text + draw(JUNK_TEXT)
    if kind == "twice":
        return text + text
    return "\ufeff" + text


FILES = mutated() | mutated() | mutated() | junk()
JUNK_BYTES = st.binary(max_size=300) | st.sampled_from([b"\xff\xfe{}", b"\xef\xbb\xbf{}", b"\xc3\x28", b"\xed\xa0\x80",
                                                      b"\x00" * 10, "Игрок".encode("cp1251")])


def as_bytes(text: str) -> bytes:
    """What a client sends: UTF-8, an unpaired surrogate given as the raw bytes it would be (not UTF-8)."""
    return text.encode("utf-8", "surrogatepass")
