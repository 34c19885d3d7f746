"""Who may do what: checked on the server by every view that changes a tournament."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from .models import Tournament


class OrganizerRequiredMixin(LoginRequiredMixin):
    """Loads ``self.tournament`` from the ``slug`` URL argument; only its organizers get further.

    Anonymous users are sent to the login page; logged-in users who do not organise this
    tournament get 403.
    """

    tournament: Tournament
    request: HttpRequest

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = get_object_or_404(Tournament, slug=kwargs["slug"])
        if not self.tournament.is_organizer(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["tournament"] = self.tournament
        return context


class CanCreateTournamentMixin(PermissionRequiredMixin):
    """Creating tournaments and editing the player registry: users given that permission."""

    permission_required = "tournaments.add_tournament"
    raise_exception = False

    def handle_no_permission(self) -> HttpResponseBase:
        if self.request.user.is_authenticated:  # type: ignore[attr-defined]
            raise PermissionDenied
        return super().handle_no_permission()
