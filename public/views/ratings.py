"""The rating's public pages: the table (filters: club, city, period; a name search; 100 a page) and a player's
page (their rating as a chart, their tournaments, win rates per role). Both are answered from the rating's
version (one query) with an ETag; an anonymous reader's page is kept whole per version, language and address,
and the table's rows per version and filters, so a page costs one query and a cache read (bench/rating_history.py)."""

from __future__ import annotations

import datetime as dt
import hashlib

from django.core.cache import cache
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.dateparse import parse_date
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.views import View

from ratings.models import RatingRules
from ratings.services import chart, tables
from scoring.model import Role
from tournaments.labels import ROLES
from tournaments.models import Player
from tournaments.models.people import normal_key

from ..conditional import conditional, etag_for, shared

PAGE = 100
# How long a page or a table is kept within one rating version: a player's new name or club (which makes no new
# version) shows within it.
KEPT_SECONDS = 60


def version() -> tuple[str, float]:
    """The rating's version (bumped by every recomputation) with the moment it was reached, so that a database
    recreated beside the same cache never meets another's kept pages; and the starting rating."""
    found = RatingRules.objects.values_list("version", "updated", "start").first()
    if found is None:
        return "0", 1500.0
    number, updated, start = found
    return f"{number}.{int(updated.timestamp() * 1e6)}", start


def read_filters(request: HttpRequest) -> tuple[tables.Filters, list[str]]:
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
    return tables.Filters(request.GET.get("club", "")[:100], request.GET.get("city", "")[:100], since, until), problems


def cached_table(filters: tables.Filters, at: str) -> list[tables.Row]:
    key = f"ratings:{at}:{hashlib.sha1(repr(filters).encode()).hexdigest()[:16]}"
    rows: list[tables.Row] | None = cache.get(key)
    if rows is None:
        rows = tables.rating_table(filters)
        cache.set(key, rows, KEPT_SECONDS)
    return rows


class RatingListView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest) -> HttpResponseBase:
        at, start = version()
        etag = etag_for(request, "ratings:" + hashlib.sha1(request.get_full_path().encode()).hexdigest()[:12],
                        at, False)
        return conditional(request, etag, lambda: self.page(request, at, start, shared(request)))

    def page(self, request: HttpRequest, at: str, start: float, anonymous: bool) -> HttpResponse:
        filters, problems = read_filters(request)
        everyone = cached_table(tables.Filters(), at)
        rows = cached_table(filters, at) if filters != tables.Filters() else everyone
        search = normal_key(request.GET.get("q", "")[:100])  # as the registry compares names: case, ё/е, spaces
        if search:
            rows = [r for r in rows if search in normal_key(r.name) or search in normal_key(r.nickname)]
        page = Paginator(rows, PAGE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        return render(request, "public/ratings.html", {
            "page": page, "filters": filters, "problems": problems, "search": request.GET.get("q", ""),
            "clubs": sorted({r.club for r in everyone if r.club}),
            "cities": sorted({r.city for r in everyone if r.city}),
            "query": query.urlencode(), "total": len(rows), "start": start, "shared": anonymous,
        })


class RatingPlayerView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest, player: int) -> HttpResponseBase:
        at, start = version()
        return conditional(request, etag_for(request, f"rating-player-{player}", at, False),
                           lambda: self.page(request, player, start, shared(request)))

    def page(self, request: HttpRequest, pk: int, start: float, anonymous: bool) -> HttpResponse:
        player = Player.objects.filter(pk=pk).first()
        if player is None:
            raise Http404(pk)
        history = tables.player_history(player)
        days = [day for day, _value in history.points]
        first, last = (date_format(days[0], "SHORT_DATE_FORMAT"), date_format(days[-1], "SHORT_DATE_FORMAT")) \
            if days else ("", "")
        picture = chart.chart([value for _day, value in history.points], start, first, last)
        roles = [(ROLES.get(Role(line.role), line.role) if line.role in Role._value2member_map_ else line.role, line)
                 for line in history.roles]
        return render(request, "public/rating_player.html", {
            "history": history, "chart": picture, "roles": roles, "player": player, "shared": anonymous,
        })
