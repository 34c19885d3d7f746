"""The series' pages: the list, a new series, the organizer's page (settings and tournaments), the public
standings and their CSV and XLSX. Thin: the forms parse, ``services`` changes, ``series_table`` computes."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournaments.errors import UserError
from tournaments.filenames import attachment
from tournaments.mixins import signed_in
from tournaments.models import Tournament
from tournaments.permissions import CanCreateTournamentMixin

from . import services
from .exports import to_csv, to_xlsx
from .forms import AddTournamentForm, EntryForm, SeriesForm
from .labels import tiebreak_label, tiebreak_short
from .models import Series

if TYPE_CHECKING:
    from django.http.response import HttpResponseBase

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class SeriesListView(View):
    """The public series, and the series of the organizer signed in."""

    def get(self, request: HttpRequest) -> HttpResponse:
        shown = Q(public=True)
        if request.user.is_authenticated:
            shown |= Q(organizers=request.user)
        series = Series.objects.filter(shown).distinct().order_by("-created")
        mine = (set(Series.objects.filter(organizers=request.user.pk).values_list("pk", flat=True))
                if request.user.is_authenticated else set())
        return render(request, "series/list.html", {
            "series_list": series, "mine": mine,
            "may_create": request.user.has_perm("tournaments.add_tournament")})


class CreateSeriesView(CanCreateTournamentMixin, View):
    """Who may create tournaments may create a series."""

    def get(self, request: HttpRequest) -> HttpResponse:
        return render(request, "series/create.html", {"form": SeriesForm()})

    def post(self, request: HttpRequest) -> HttpResponse:
        form = SeriesForm(request.POST)
        if not form.is_valid():
            return render(request, "series/create.html", {"form": form}, status=400)
        series = services.create_series(form.save(commit=False), signed_in(request))
        messages.success(request, _("The series is created: add its tournaments."))
        return redirect("series:edit", series=series.slug)


class SeriesMixin:
    """Loads ``self.series`` from the ``series`` URL argument."""

    series: Series

    def load(self, slug: str) -> Series:
        self.series = get_object_or_404(Series, slug=slug)
        return self.series


class EditSeriesView(LoginRequiredMixin, SeriesMixin, View):
    """The organizer's page: the settings form, the tournaments with their weights and order, adding one. Each
    action of the page is one small handler."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.user.is_authenticated:
            self.load(kwargs["series"])
            if not self.series.is_organizer(request.user):
                raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get(self, request: HttpRequest, series: str) -> HttpResponse:
        return self.page(request)

    def post(self, request: HttpRequest, series: str) -> HttpResponse:
        handler = {"save": self.save, "add": self.add, "entries": self.entries,
                   "remove": self.remove}.get(request.POST.get("action", ""))
        if handler is None:
            return HttpResponseBadRequest(_("Unknown action."))
        try:
            return handler(request)
        except UserError as error:
            messages.error(request, str(error))
            return self.page(request, status=400)

    def page(self, request: HttpRequest, status: int = 200, **forms: Any) -> HttpResponse:
        entries = list(self.series.entries.select_related("tournament").order_by("order", "pk"))
        return render(request, "series/edit.html", {
            "series": self.series, "form": forms.get("form") or SeriesForm(instance=self.series),
            "example_weight": Fraction(3, 2),
            "add_form": forms.get("add_form") or AddTournamentForm(choices=self.choices(request)),
            "entries": [(e, forms.get(f"entry_{e.pk}") or EntryForm(prefix=f"e{e.pk}", initial={
                "weight": e.weight, "order": e.order})) for e in entries],
        }, status=status)

    def choices(self, request: HttpRequest) -> Any:
        """The tournaments the organizer organizes, not in the series yet."""
        user = signed_in(request)
        mine = Tournament.objects.all() if user.is_superuser else Tournament.objects.filter(organizers=user)
        return mine.exclude(series_entries__series=self.series).order_by("-starts", "name")

    def save(self, request: HttpRequest) -> HttpResponse:
        form = SeriesForm(request.POST, instance=self.series)
        if not form.is_valid():
            return self.page(request, status=400, form=form)
        services.update_series(form.save(commit=False))
        messages.success(request, _("Saved."))
        return redirect("series:edit", series=self.series.slug)

    def add(self, request: HttpRequest) -> HttpResponse:
        form = AddTournamentForm(request.POST, choices=self.choices(request))
        if not form.is_valid():
            return self.page(request, status=400, add_form=form)
        services.add_tournament(self.series, form.cleaned_data["tournament"], signed_in(request))
        messages.success(request, _("The tournament is added."))
        return redirect("series:edit", series=self.series.slug)

    def entries(self, request: HttpRequest) -> HttpResponse:
        entries = list(self.series.entries.all())
        forms = {f"entry_{e.pk}": EntryForm(request.POST, prefix=f"e{e.pk}") for e in entries}
        if not entries or not all(f.is_valid() for f in forms.values()):
            return self.page(request, status=400, **forms)
        services.set_entries(self.series, {e.pk: (forms[f"entry_{e.pk}"].cleaned_data["weight"],
                                                  forms[f"entry_{e.pk}"].cleaned_data["order"]) for e in entries})
        messages.success(request, _("Saved."))
        return redirect("series:edit", series=self.series.slug)

    def remove(self, request: HttpRequest) -> HttpResponse:
        try:
            entry = int(request.POST.get("entry", ""))
        except ValueError:
            return HttpResponseBadRequest(_("No tournament chosen."))
        services.remove_tournament(self.series, entry)
        messages.success(request, _("The tournament is removed from the series."))
        return redirect("series:edit", series=self.series.slug)


class PublicSeriesMixin(SeriesMixin):
    """A series that is not public is seen only by its organizers (404 for anyone else: it does not exist for
    them)."""

    def table(self, request: HttpRequest, slug: str) -> services.SeriesTable:
        series = self.load(slug)
        if not series.public and not series.is_organizer(request.user):
            raise Http404(slug)
        return services.series_table(series)


class SeriesView(PublicSeriesMixin, View):
    def get(self, request: HttpRequest, series: str) -> HttpResponse:
        table = self.table(request, series)
        chain = [(tiebreak_short(t), tiebreak_label(t)) for t in table.series.tiebreaks]
        counted = table.counted
        rows = [{"rank": r.rank, "name": table.players[r.player].full_name, "points": r.points, "played": r.played,
                 "results": [r.results.get(c.tournament.pk) for c in counted],
                 "tiebreaks": [r.tiebreaks[t] for t in table.series.tiebreaks]} for r in table.rows]
        return render(request, "series/detail.html", {
            "series": table.series, "columns": table.columns, "counted": counted, "rows": rows, "chain": chain,
            "points_table": table.series.rules({}).points,
            "is_organizer": table.series.is_organizer(request.user)})


class SeriesCsvView(PublicSeriesMixin, View):
    def get(self, request: HttpRequest, series: str) -> HttpResponse:
        table = self.table(request, series)
        response = HttpResponse(to_csv(table), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = attachment(table.series.slug, "series.csv")
        return response


class SeriesXlsxView(PublicSeriesMixin, View):
    def get(self, request: HttpRequest, series: str) -> HttpResponse:
        table = self.table(request, series)
        response = HttpResponse(to_xlsx(table), content_type=XLSX)
        response["Content-Disposition"] = attachment(table.series.slug, "series.xlsx")
        return response
