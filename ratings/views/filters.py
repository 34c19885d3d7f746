"""The rating table's filters read from a query string, alike on the page, in the downloads and in the API."""

from __future__ import annotations

import datetime as dt

from django.http import HttpRequest
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _

from ..services.tables import Filters


def read_filters(request: HttpRequest) -> tuple[Filters, list[str]]:
    """The filters of the query string, and a message for each one that cannot be read (then ignored)."""
    problems: list[str] = []
    days: dict[str, dt.date | None] = {}
    for name, label in (("since", _("from")), ("until", _("to"))):
        text = request.GET.get(name, "").strip()
        try:
            days[name] = parse_date(text) if text else None
        except ValueError:
            days[name] = None
        if text and days[name] is None:
            problems.append(_("“%(value)s” is not a date (%(field)s); use YYYY-MM-DD.") % {
                "value": text, "field": label})
    since, until = days["since"], days["until"]
    if since and until and until < since:
        problems.append(_("The period ends before it starts."))
        since = until = None
    return Filters(request.GET.get("club", "")[:100], request.GET.get("city", "")[:100], since, until), problems
