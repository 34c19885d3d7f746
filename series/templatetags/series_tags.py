"""Filters of the series' pages: points as the other pages show them."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django import template

from tournaments import labels

register = template.Library()


@register.filter
def points(value: Fraction | Decimal | int | None) -> str:
    """``Fraction(9, 4)`` → ``2.25`` (``2,25`` in Russian); blank for None."""
    return labels.local_number(None if value is None else Fraction(value))
