"""Filters of the public pages: exact points in the reader's number format, translated labels."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from django import template
from django.urls import reverse
from django.utils.safestring import SafeString

from tournaments import labels

from .. import long_tables

register = template.Library()


@register.simple_tag(takes_context=True)
def public_url(context: dict[str, Any], slug: str) -> str:
    """The tournament's public home as a phone opens it (the venue screen's QR code and address)."""
    return str(context["request"].build_absolute_uri(reverse("public:home", kwargs={"slug": slug})))


@register.simple_tag
def standings_rows(rows: list[dict[str, Any]], slug: str, rest_from: int | None, average: object) -> SafeString:
    return long_tables.standings_rows(rows, slug, rest_from, bool(average))


@register.simple_tag
def seating_tables(tables: list[tuple[int, list[Any]]], played: set[int], slug: str, stage: str,
                   round_number: int) -> SafeString:
    return long_tables.seating_tables(tables, played, slug, stage, round_number)


@register.simple_tag
def seating_alphabetical(places: list[Any]) -> SafeString:
    return long_tables.seating_alphabetical(places)


@register.filter
def points(value: Fraction | int | None) -> str:
    """``Fraction(9, 4)`` → ``2.25`` (``2,25`` in Russian); blank for None."""
    return labels.local_number(value)


@register.filter
def moment(value: str | datetime | None) -> str:
    """A datetime or a file's ISO text in the site's local time: ``01.05.2025 15:20``."""
    return labels.local_moment(value)


@register.filter
def signed(value: Fraction | int) -> str:
    text = points(value)
    return text if text.startswith("−") or value == 0 else f"+{text}"


@register.filter
def part_label(name: str) -> str:
    return labels.part_label(name)


@register.filter
def param_label(name: str) -> str:
    return labels.param_label(name)


@register.simple_tag
def player_games_rows(entries: list[dict[str, Any]], slug: str, stage: str, hidden: object) -> SafeString:
    return long_tables.player_games_rows(entries, slug, stage, bool(hidden))
