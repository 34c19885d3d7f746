"""A judge's private link: ``/t/<slug>/j/<token>/`` signs its holder in as the judge, for that tournament only."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect
from django.views import View

from ..middleware import SESSION_KEY
from ..services.links import link_in_force


class PrivateLinkView(View):
    """A link in force signs in (whoever was signed in before is signed out) and opens the judge's tables; an
    unknown or revoked one is a 404, as if there were no such page."""

    def get(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        link = link_in_force(slug, token)
        if link is None:
            raise Http404
        user = link.judge.user
        if request.session.get(SESSION_KEY) != link.pk or request.user.pk != user.pk:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            request.session[SESSION_KEY] = link.pk
        return redirect("games:protocols", slug=slug)
