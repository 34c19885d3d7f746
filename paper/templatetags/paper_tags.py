"""Filters of the printed documents."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from django import template

from tournaments.labels import local_number

register = template.Library()


@register.filter
def cell(row: dict[str, Any], key: str) -> str:
    """A result cell for reading: numbers in the reader's decimal format."""
    value = row.get(key)
    if value is None:
        return ""
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        return local_number(value)  # exact: 2/3, not 0,666667 (a CSV or a workbook keeps the decimal)
    return str(value)


@register.filter
def prepend(items: list[Any], first: Any) -> list[Any]:
    return [first, *items]
