"""One way to load a tournament: ``self.tournament`` from the ``slug`` URL argument, once per request.

Every audience builds on it (``tournaments.permissions``: organizers; ``games.views.base``: staff and
a table's judge; ``public.views.base``: anyone; ``paper``: printing and results), and adds its own
check in ``check_access``. DRF views use ``TournamentLoader`` alone (the API answers its own 404s
and 401s, in JSON).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import get_object_or_404

from .models import Tournament


def signed_in(request: HttpRequest) -> User:
    """The user of a request that only signed-in users reach (a login mixin sent the others to the login page):
    the user the services record as having done it."""
    user = request.user
    if not isinstance(user, User):
        raise PermissionDenied
    return user


class TournamentLoader:
    """``load_tournament(slug)``: the tournament or ``Http404``, loaded once per view instance."""

    tournament_related: ClassVar[tuple[str, ...]] = ()  # relations loaded with it (``select_related``)
    tournament: Tournament

    def load_tournament(self, slug: str) -> Tournament:
        if "tournament" not in self.__dict__:
            rows = Tournament.objects.select_related(*self.tournament_related) if self.tournament_related \
                else Tournament.objects.all()
            self.tournament = get_object_or_404(rows, slug=slug)
        return self.tournament


class TournamentMixin(TournamentLoader):
    """Loads ``self.tournament`` (404 when there is none), then ``check_access`` (the audience's check:
    raises ``PermissionDenied``, and may load what it checked, such as the table), and puts the
    tournament in the template context.

    Audience mixins that send anonymous users to the login page put ``LoginRequiredMixin`` before
    this one, so that the login comes before the 404 and the 403.
    """

    request: HttpRequest

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        self.load_tournament(kwargs["slug"])
        self.check_access(request, **kwargs)
        return super().dispatch(request, *args, **kwargs)  # type: ignore[misc,no-any-return]

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        """Anyone may see the tournament; audiences override this."""

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context: dict[str, Any] = super().get_context_data(**kwargs)  # type: ignore[misc]
        context["tournament"] = self.tournament
        return context
