"""Texts typed by people that have a limit: the limit is said, never applied by cutting the text silently."""

from __future__ import annotations

from django.utils.translation import gettext as _


def too_long(text: str, limit: int) -> str:
    """Why ``text`` is refused for being longer than ``limit`` characters, or "" when it fits."""
    if len(text) <= limit:
        return ""
    return _("At most %(limit)s characters; this text has %(length)s. Shorten it: nothing was saved.") % {
        "limit": limit, "length": len(text)}
