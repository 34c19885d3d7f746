"""Exact numbers: every point is a ``Fraction``; floats appear only at the JSON boundary."""

from __future__ import annotations

import functools
import math
import re
from decimal import Decimal
from fractions import Fraction

from .errors import InvalidTournament, Location, Problem

DECIMAL_STRING = re.compile(r"^-?\d+(\.\d+)?$")
# An exact fraction for a value no decimal can write (a penalty of 1/15): ``"1/15"``, ``"-2/3"``.
FRACTION_STRING = re.compile(r"^-?\d{1,30}/0*[1-9]\d{0,29}$")
# The places of the web app's decimal columns (points, extra points, multipliers).
DECIMAL_PLACES = 6
DECIMAL_SCALE: int = 10**DECIMAL_PLACES


def is_number(value: object) -> bool:
    """A JSON number (int or float, not bool), a decimal string such as ``"0.25"`` or a fraction string such as
    ``"1/15"``."""
    if isinstance(value, bool):
        return False
    if isinstance(value, float):
        return math.isfinite(value)  # NaN and Infinity have no exact value (a float from Python's JSON reader)
    if isinstance(value, int):
        return True
    return isinstance(value, str) and bool(DECIMAL_STRING.match(value) or FRACTION_STRING.match(value))


def to_fraction(value: object) -> Fraction:
    """Read a JSON number or decimal string exactly: ``0.1`` becomes 1/10, not the float's binary value."""
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        # repr gives the shortest decimal that reads back as this float: what the file said.
        return Fraction(Decimal(repr(value)))
    if isinstance(value, Fraction):
        return value
    if isinstance(value, str) and DECIMAL_STRING.match(value):
        return Fraction(Decimal(value))
    if isinstance(value, str) and FRACTION_STRING.match(value):
        return Fraction(value)
    raise TypeError(f"not a number: {value!r}")


def known_fraction(value: object) -> Fraction:
    """``to_fraction`` of a value read over and over, each distinct value once (by its type too: ``True`` is still
    refused after a ``1``). A large tournament's model holds 12,000 seats' extra points, nearly all of them a
    handful of values, read from its file or from the database's text once per results version in every public
    worker, and making a Fraction from text costs ten microseconds."""
    if isinstance(value, str | int | float):
        return _fraction_of(type(value).__name__, value)
    return to_fraction(value)  # a Fraction as it is; anything else, not a number: its own error


@functools.lru_cache(maxsize=4096)
def _fraction_of(kind: str, value: str | int | float) -> Fraction:
    return to_fraction(value)


def to_json_number(value: Fraction) -> int | float:
    """An int when whole, otherwise the nearest float (exact for the halves and quarters of the rules)."""
    if value.denominator == 1:
        return int(value)
    return float(value)


def is_finite_decimal(value: Fraction) -> bool:
    """Whether a decimal writes ``value`` exactly: its denominator has no prime factor but 2 and 5."""
    denominator = value.denominator
    for prime in (2, 5):
        while denominator % prime == 0:
            denominator //= prime
    return denominator == 1


def to_file_number(value: Fraction) -> int | float | str:
    """A number of the tournament file: as ``to_json_number`` when a decimal writes it exactly (the float's
    shortest form reads back as that decimal), else the exact fraction string ``"1/15"``."""
    if is_finite_decimal(value):
        return to_json_number(value)
    return f"{value.numerator}/{value.denominator}"


def round_half_up(value: Fraction) -> int:
    """The nearest whole number, a half rounded up (4.5 → 5, 4.4 → 4, −4.5 → −4): the rounding of the rules (Ci's B)."""
    return math.floor(value + Fraction(1, 2))


def format_number(value: Fraction) -> str:
    """A short human form: ``2``, ``2.25``, ``-0.5``, ``0.333333`` for non-terminating values."""
    if value.denominator == 1:
        return str(value.numerator)
    text = f"{float(value):.6f}".rstrip("0").rstrip(".")
    return text


def is_exact_decimal(value: Fraction) -> bool:
    """Whether ``value`` has at most ``DECIMAL_PLACES`` decimal places (stored exactly by the web app)."""
    return DECIMAL_SCALE % value.denominator == 0


def to_decimal(value: Fraction, where: str) -> Decimal:
    """``value`` as a ``Decimal`` of at most ``DECIMAL_PLACES`` places, exactly; a value that would have to be
    rounded is an ``InvalidTournament`` naming ``where``, never stored rounded."""
    if not is_exact_decimal(value):
        raise InvalidTournament([Problem(Location(field=where), f"more than {DECIMAL_PLACES} decimal places")])
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal(1).scaleb(-DECIMAL_PLACES))
