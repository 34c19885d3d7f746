"""The rating's public pages: the table (filters: club, city, period; a name search; 100 a page) and a player's
page (their rating as a chart, their tournaments, win rates per role). Both are answered from the rating's
version (one query) with an ETag; an anonymous reader's page is kept whole per version, language and address,
and the table's rows per version and filters, so a page costs one query and a cache read (bench/rating_history.py)."""

from __future__ import annotations

import hashlib

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import render
from django.utils.formats import date_format
from django.views import View

from public.conditional import conditional, etag_for, shared
from scoring.model import Role
from tournaments.labels import ROLES
from tournaments.models import Player
from tournaments.models.people import normal_key

from ..services import chart, tables
from .filters import read_filters

PAGE = 100


class RatingListView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest) -> HttpResponseBase:
        at, start = tables.version()
        etag = etag_for(request, "ratings:" + hashlib.sha1(request.get_full_path().encode()).hexdigest()[:12],
                        at, False)
        return conditional(request, etag, lambda: self.page(request, at, start, shared(request)))

    def page(self, request: HttpRequest, at: str, start: float, anonymous: bool) -> HttpResponse:
        filters, problems = read_filters(request)
        everyone = tables.kept_table(tables.Filters(), at)
        rows = tables.kept_table(filters, at) if filters != tables.Filters() else everyone
        search = normal_key(request.GET.get("q", "")[:100])  # as the registry compares names: case, ё/е, spaces
        if search:
            rows = [r for r in rows if search in normal_key(r.name) or search in normal_key(r.nickname)]
        page = Paginator(rows, PAGE).get_page(request.GET.get("page"))
        query = request.GET.copy()
        query.pop("page", None)
        return render(request, "ratings/list.html", {
            "page": page, "filters": filters, "problems": problems, "search": request.GET.get("q", ""),
            "clubs": sorted({r.club for r in everyone if r.club}),
            "cities": sorted({r.city for r in everyone if r.city}),
            "query": query.urlencode(), "total": len(rows), "start": start, "shared": anonymous,
        })


class RatingPlayerView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest, player: int) -> HttpResponseBase:
        at, start = tables.version()
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
        return render(request, "ratings/player.html", {
            "history": history, "chart": picture, "roles": roles, "player": player, "shared": anonymous,
        })
