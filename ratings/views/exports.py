"""The rating as CSV and XLSX (the table's filters, all pages; or one tournament's players with the change it
brought: ``?tournament=SLUG``), through the same writers as the results (no text is ever a formula)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views import View

from paper.results import Column, ResultTable
from paper.spreadsheets import to_csv, to_xlsx
from tournaments.models import Tournament

from ..services import tables
from .filters import read_filters


def tenths(value: float) -> Fraction:
    """A rating as the pages show it: to a tenth, exactly (the writers print a Fraction as its decimal)."""
    return Fraction(Decimal(f"{value:.1f}"))


def rating_sheet(request: HttpRequest) -> tuple[ResultTable, str]:
    slug = request.GET.get("tournament", "")
    columns = [Column("rank", "#", True), Column("player", _("Player id"), True), Column("name", _("Player")),
               Column("nickname", _("Nickname")), Column("club", _("Club")), Column("city", _("City")),
               Column("rating", _("Rating"), True), Column("games", _("Games"), True)]
    if slug:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None or tournament.standings_hidden:
            raise Http404(slug)
        rows = tables.tournament_table(tournament)
        columns.append(Column("change", _("Change"), True))
        title, name = tournament.name, f"rating-{slug}"
    else:
        filters, _problems = read_filters(request)
        rows = tables.rating_table(filters)
        title, name = _("Rating"), "rating"
    return ResultTable("rating", title, columns, [
        {"rank": r.rank, "player": r.player, "name": r.name, "nickname": r.nickname, "club": r.club,
         "city": r.city, "rating": tenths(r.rating), "games": r.games,
         "change": None if r.change is None else tenths(r.change)} for r in rows]), name


class RatingCsvView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest) -> HttpResponse:
        table, name = rating_sheet(request)
        response = HttpResponse(to_csv(table).encode(), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{name}.csv"'
        return response


class RatingXlsxView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest) -> HttpResponse:
        table, name = rating_sheet(request)
        response = HttpResponse(
            to_xlsx([table]), content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
        response["Content-Disposition"] = f'attachment; filename="{name}.xlsx"'
        return response
