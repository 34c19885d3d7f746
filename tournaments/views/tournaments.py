"""The list of tournaments and a tournament's organizer dashboard."""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Q, QuerySet
from django.views.generic import DetailView, ListView

from .. import background
from ..models import ParticipantStatus, Tournament
from ..permissions import OrganizerRequiredMixin


class TournamentListView(ListView[Tournament]):
    model = Tournament
    template_name = "tournaments/tournament_list.html"
    context_object_name = "tournaments"

    def get_queryset(self) -> QuerySet[Tournament]:
        return Tournament.objects.annotate(
            accepted=Count("participants", filter=Q(participants__status=ParticipantStatus.ACCEPTED))
        ).order_by("-starts", "-created")

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        user = self.request.user
        if user.is_authenticated:
            organized = set(user.organized_tournaments.values_list("pk", flat=True))
            context["organized"] = organized
            # A judge's way to their tables: the list is where the login lands.
            context["judging"] = set(user.judging.values_list("tournament_id", flat=True))
            context["is_superuser"] = user.is_superuser
        return context


class TournamentDetailView(OrganizerRequiredMixin, DetailView[Tournament]):
    """The organizer's dashboard: stages, rounds, registration figures."""

    template_name = "tournaments/tournament_detail.html"
    context_object_name = "tournament"

    def get_object(self, queryset: QuerySet[Tournament] | None = None) -> Tournament:
        return self.tournament

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        t = self.tournament
        context["stages"] = list(
            t.stages.annotate(round_count=Count("rounds")).prefetch_related("rounds").order_by("order")
        )
        counts = dict(
            t.participants.values_list("status").annotate(n=Count("id")).values_list("status", "n")
        )
        context["counts"] = {status: counts.get(status, 0) for status in ParticipantStatus.values}
        context["guests"] = t.participants.filter(status=ParticipantStatus.ACCEPTED, guest=True).count()
        context["background"] = background.health()
        return context
