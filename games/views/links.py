"""A judge's private link: ``/t/<slug>/j/<token>/`` signs its holder in as the judge, for that tournament only."""

from __future__ import annotations

from django.contrib.auth import login
from django.http import Http404, HttpRequest, HttpResponseBase
from django.shortcuts import redirect, render
from django.views import View

from judges.middleware import SESSION_KEY
from judges.models import PrivateLink
from judges.services.links import link_in_force

from ..services.today import tables_to_record


class PrivateLinkView(View):
    """A link in force signs in and opens the judge's tables, in one tap on a judge's phone. Someone else signed in
    on this browser (the organizer trying the QR code) is asked first, since they would be signed out. An unknown
    or revoked link is a 404, as if there were no such page."""

    def link(self, slug: str, token: str) -> PrivateLink:
        link = link_in_force(slug, token)
        if link is None:
            raise Http404
        return link

    def get(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        link = self.link(slug, token)
        if request.user.is_authenticated and request.user.pk != link.judge.user_id:
            return render(request, "games/private_link.html", {"tournament": link.judge.tournament, "link": link})
        return self.sign_in(request, link)

    def post(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        return self.sign_in(request, self.link(slug, token))

    def sign_in(self, request: HttpRequest, link: PrivateLink) -> HttpResponseBase:
        """The judge signed in already (by their password, or by this link) stays as they are."""
        if request.user.pk != link.judge.user_id:
            login(request, link.judge.user, backend="django.contrib.auth.backends.ModelBackend")
            request.session[SESSION_KEY] = link.pk
        tournament = link.judge.tournament
        tables = tables_to_record(link.judge.user, tournament.pk)
        if len(tables) == 1:  # one tap from the QR code to the table being played
            return redirect("games:table", slug=tournament.slug, table=tables[0][0].pk)
        return redirect("games:protocols", slug=tournament.slug)
