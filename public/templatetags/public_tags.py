"""Filters of the public pages: exact points in the reader's number format, translated labels."""

from __future__ import annotations

from datetime import datetime
from fractions import Fraction
from typing import Any

from django import template
from django.urls import reverse

from tournaments import labels

register = template.Library()


@register.simple_tag(takes_context=True)
def public_url(context: dict[str, Any], slug: str) -> str:
    """The tournament's public home as a phone opens it (the venue screen's QR code and address)."""
    return str(context["request"].build_absolute_uri(reverse("public:home", kwargs={"slug": slug})))


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
