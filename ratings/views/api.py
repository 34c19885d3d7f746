"""``GET /api/ratings/``: every rated player, highest first, ``[{"player", "name", "rating", "games"}]``
(``?club=``, ``?city=``, ``?since=``/``?until=`` as on the page); ``?tournament=SLUG``: that tournament's players
with ``"change"``, what its games did to their rating, and ``"participant"``, their id in its file. Ratings and
changes to a tenth, as the pages show them."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import Participant, Tournament

from ..services import tables
from .filters import read_filters

ROW = inline_serializer("RatingRow", {
    "player": serializers.IntegerField(), "name": serializers.CharField(), "rating": serializers.FloatField(),
    "games": serializers.IntegerField(),
    "change": serializers.FloatField(required=False, help_text="with ?tournament= only"),
    "participant": serializers.CharField(required=False, help_text="with ?tournament= only"),
}, many=True)


class RatingsView(APIView):
    @extend_schema(
        parameters=[OpenApiParameter(name, str, required=False) for name in ("tournament", "club", "city",
                                                                            "since", "until")],
        responses={200: ROW, 400: OpenApiResponse(description="a date that cannot be read"),
                   403: OpenApiResponse(description="the tournament's standings are hidden"),
                   404: OpenApiResponse(description="no such tournament")})
    def get(self, request: Request) -> Response:
        slug = request.query_params.get("tournament")
        if slug:
            return Response(self.of_tournament(slug))
        django_request: HttpRequest = request._request
        filters, problems = read_filters(django_request)
        if problems:
            raise ValidationError({"detail": problems})
        return Response([{"player": r.player, "name": r.name, "rating": round(r.rating, 1), "games": r.games}
                         for r in tables.kept_table(filters, tables.version()[0])])

    def of_tournament(self, slug: str) -> list[dict[str, Any]]:
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise NotFound()
        if tournament.standings_hidden and not tournament.is_organizer(self.request.user):
            raise PermissionDenied(_("The standings of this tournament are hidden."))
        ext = dict(Participant.objects.filter(tournament=tournament).values_list("player_id", "ext_id"))
        return [{"player": r.player, "name": r.name, "rating": round(r.rating, 1), "games": r.games,
                 "change": round(r.change or 0.0, 1), "participant": ext.get(r.player)}
                for r in tables.tournament_table(tournament)]
