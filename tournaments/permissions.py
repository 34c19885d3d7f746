"""Who may do what: checked on the server by every view that changes a tournament."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.mixins import LoginRequiredMixin, PermissionRequiredMixin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseRedirect

from .mixins import TournamentMixin


class OrganizerRequiredMixin(LoginRequiredMixin, TournamentMixin):
    """Loads ``self.tournament`` from the ``slug`` URL argument; only its organizers get further.

    Anonymous users are sent to the login page; logged-in users who do not organise this
    tournament get 403.
    """

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        if not self.tournament.is_organizer(request.user):
            raise PermissionDenied


class CanCreateTournamentMixin(PermissionRequiredMixin):
    """Creating tournaments and editing the player registry: users given that permission."""

    permission_required = "tournaments.add_tournament"
    raise_exception = False
    request: HttpRequest  # the view's

    def handle_no_permission(self) -> HttpResponseRedirect:
        if self.request.user.is_authenticated:
            raise PermissionDenied
        return super().handle_no_permission()


class MergePlayersMixin(LoginRequiredMixin, PermissionRequiredMixin):
    """The registry's duplicates, merging players and a player's record: superusers and users given
    ``tournaments.merge_player`` (organizing tournaments is not enough: a merge changes other organizers'
    tournaments)."""

    permission_required = "tournaments.merge_player"
    raise_exception = False
    request: HttpRequest  # the view's

    def handle_no_permission(self) -> HttpResponseRedirect:
        if self.request.user.is_authenticated:
            raise PermissionDenied
        return super().handle_no_permission()
