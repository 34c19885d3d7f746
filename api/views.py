"""Read-only endpoints: tournaments, stages, rounds, seatings, games and standings.

Every answer about one tournament carries the ETag of its results version (an unchanged answer
is a 304 after one query) and uses a fixed number of queries. While a tournament's standings are
hidden, the standings endpoint answers 403 without figures to anyone but its organizers. The
answers computed from results read the tournament's model of the version (``public.model_cache``); whole
answers are kept by the reverse proxy in front, for anonymous readers only (``public.conditional``).
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.generics import ListAPIView, RetrieveAPIView
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from public.conditional import conditional, etag_for
from public.model_cache import serves_older, version_tag
from public.seats import places, published_rounds
from public.snapshot import Snapshot, protocol_is_public
from scoring import model as m
from scoring.errors import UnknownStage
from scoring.formats import PLATFORMS
from scoring.standings import Standings, standings_json
from tournaments.filenames import attachment, safe_filename
from tournaments.mixins import TournamentLoader
from tournaments.models import Round, Stage, Tournament

from . import serializers as s


class TournamentListView(ListAPIView):  # type: ignore[type-arg]
    queryset = Tournament.objects.order_by("-starts", "-created")
    serializer_class = s.TournamentSerializer


class OneTournament(TournamentLoader):
    """Loads ``self.tournament`` by slug and answers conditionally on its results version.

    An endpoint that reads the tournament's model (``reads_model``) serves the version whose model is built
    (``Snapshot.settle``: after a change one request builds it while the others serve the newest one built, with
    its ETag). An anonymous reader's answer is marked for the proxy's cache (``public.conditional``)."""

    tournament_related = ("results_version",)
    request: Any  # Django's request until DRF's dispatch wraps it; either reads the same path and query

    def reads_model(self, request: HttpRequest) -> bool:
        """Whether this request's answer is computed from the tournament's model."""
        return False

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            self.load_tournament(kwargs["slug"])
        except Http404:  # answered here, before DRF: in JSON like every other API error, not Django's HTML 404
            return JsonResponse({"detail": str(NotFound.default_detail)}, status=404)
        if self.reads_model(request) and get_conditional_response(request, etag=self.etag(request)) is None:
            Snapshot(self.tournament).settle()  # the version served: a newer one may be being built meanwhile
        return conditional(request, self.etag(request),
                           lambda: super(OneTournament, self).dispatch(request, *args, **kwargs),  # type: ignore[misc]
                           serves_older(self.tournament))

    def etag(self, request: HttpRequest) -> str:
        return etag_for(request, f"api{self.tournament.pk}", version_tag(self.tournament),
                        self.tournament.standings_hidden)


class TournamentDetailView(OneTournament, RetrieveAPIView):  # type: ignore[type-arg]
    serializer_class = s.TournamentSerializer

    def get_object(self) -> Tournament:
        return self.tournament


class StageListView(OneTournament, ListAPIView):  # type: ignore[type-arg]
    serializer_class = s.StageSerializer

    def get_queryset(self) -> QuerySet[Stage]:
        return self.tournament.stages.order_by("order")


class RoundListView(OneTournament, ListAPIView):  # type: ignore[type-arg]
    """Published rounds only, in order."""

    query_keys = ("format", "stage")

    serializer_class = s.RoundSerializer

    def get_queryset(self) -> QuerySet[Round]:
        rounds = Round.objects.published().filter(stage__tournament=self.tournament)
        if stage := self.request.query_params.get("stage"):
            rounds = rounds.filter(stage__ext_id=stage)
        return rounds.select_related("stage").order_by("stage__order", "number")


class SeatingView(OneTournament, APIView):
    @extend_schema(responses=s.SeatingSerializer)
    def get(self, request: Request, slug: str, stage: str, number: int) -> Response:
        chosen = [r for r in published_rounds(self.tournament) if r.stage.ext_id == stage and r.number == number]
        if not chosen:
            raise NotFound(_("No such published round."))
        tables: dict[int, list[dict[str, Any]]] = {}
        byes = []
        for place in places(chosen):
            if place.table is None:
                byes.append(place.player)
                continue
            tables.setdefault(place.table, []).append(
                {"seat": place.seat, "player": place.player, "number": place.number, "name": place.name})
        data = {"stage": stage, "round": number, "byes": byes,
                "tables": [{"table": t, "seats": seats} for t, seats in sorted(tables.items())]}
        return Response(s.SeatingSerializer(data).data)


def game_data(stage: str, round_: int, game: m.Game, hidden: bool = False) -> dict[str, Any]:
    """A public protocol; while standings are hidden without the marks that carry points (best move, best)."""
    return {
        "stage": stage, "round": round_, "table": game.table,
        "winner": game.winner.value if game.winner else None, "first_killed": game.first_killed,
        "best_move": None if hidden else list(game.best_move),
        "seats": [{"seat": x.seat, "player": x.player, "role": x.role.value,
                   "side": x.side.value if x.side else None, "fouls": x.fouls, "removed": x.removed,
                   "best": None if hidden else x.best} for x in game.seats],
        "protests": [{"seat": p.seat, "text": p.text, "decision": p.decision.value if p.decision else None}
                     for p in game.protests],
    }


class GameListView(OneTournament, APIView):
    """Public protocols of published rounds (filter with ``?stage=ID&round=N``); no points here."""

    query_keys = ("format", "stage", "round")

    def reads_model(self, request: HttpRequest) -> bool:
        return True

    @extend_schema(responses={200: s.GameSerializer(many=True), 400: None}, parameters=[
        OpenApiParameter("stage", str), OpenApiParameter("round", int)])
    def get(self, request: Request, slug: str) -> Response:
        stage_filter, round_filter = request.query_params.get("stage"), request.query_params.get("round")
        if round_filter is not None and not round_filter.isdigit():  # found by tests/api/test_schema.py
            raise ValidationError({"round": _("A round is a whole number.")})
        return Response(self.games(stage_filter, round_filter))

    def games(self, stage_filter: str | None, round_filter: str | None) -> Any:
        """The games as the serializer lists them (typed Any: the stubs give a list serializer's data as a dict)."""
        out = []
        for stage in Snapshot(self.tournament).model.stages:
            if stage_filter and stage.id != stage_filter:
                continue
            for round_ in sorted(stage.rounds, key=lambda r: r.number):
                if round_filter and str(round_.number) != round_filter:
                    continue
                out += [game_data(stage.id, round_.number, g, self.tournament.standings_hidden)
                        for g in sorted(round_.games, key=lambda g: g.table) if protocol_is_public(g)]
        return s.GameSerializer(out, many=True).data


class StandingsView(OneTournament, APIView):
    """docs/command-line.md, the standings API: the standings JSON, the same as ``python -m scoring standings``."""

    query_keys = ("format", "stage")

    def reads_model(self, request: HttpRequest) -> bool:
        return not self.tournament.standings_hidden  # else organizers only: they wait for the current one

    @extend_schema(responses={200: s.standings_schema(), 403: None, 404: None},
                   parameters=[OpenApiParameter("stage", str, description="a stage id; default: the last "
                                                "stage with a result")])
    def get(self, request: Request, slug: str) -> Response:
        if self.tournament.standings_hidden and not self.tournament.is_organizer(request.user):
            raise PermissionDenied(_("The standings of this tournament are hidden."))
        stage = request.query_params.get("stage")
        return Response(self.standings(stage))

    def standings(self, stage: str | None) -> dict[str, object]:
        snapshot = Snapshot(self.tournament)
        try:
            standings = snapshot.table_standings(stage) if stage is not None else compute_default(snapshot)
        except (UnknownStage, Http404):
            raise NotFound(_("No such stage.")) from None
        return standings_json(standings)


class AwardsView(OneTournament, APIView):
    """docs/rules/awards.md: the given awards and their recipients (ids and names), with whether the results are
    final; titles in the request's language. Hidden standings: only the organizers, as for the standings."""

    def reads_model(self, request: HttpRequest) -> bool:
        return not self.tournament.standings_hidden

    @extend_schema(responses={200: s.awards_schema(), 403: None, 404: None})
    def get(self, request: Request, slug: str) -> Response:
        if self.tournament.standings_hidden and not self.tournament.is_organizer(request.user):
            raise PermissionDenied(_("The standings of this tournament are hidden."))
        return Response(self.awards())

    def awards(self) -> dict[str, object]:
        snapshot = Snapshot(self.tournament)
        return {
            "final": snapshot.final_over, "rounds_played": snapshot.rounds_played, "title": snapshot.results_title(),
            "awards": [{"kind": a.kind or None, "title": a.title, "players": list(a.players), "names": list(a.names),
                        "by_hand": a.by_hand, "reason": a.reason, "tied": a.tied} for a in snapshot.awards],
        }


class PlatformExportView(OneTournament, APIView):
    """docs/formats.md: the tournament in a rating platform's format (``python -m scoring convert --to``), for a
    tournament whose results are final and public; the document as the platform reads it, not JSON of ours."""

    def reads_model(self, request: HttpRequest) -> bool:
        return not self.tournament.standings_hidden

    @extend_schema(responses={(200, "application/json"): OpenApiTypes.STR, 403: None, 404: None},
                   parameters=[OpenApiParameter("platform", str, OpenApiParameter.PATH,
                                                enum=sorted(PLATFORMS), description="the platform's format")])
    def get(self, request: Request, slug: str, platform: str) -> HttpResponseBase:
        if platform not in PLATFORMS:
            raise NotFound(_("No such format: one of %(formats)s.") % {"formats": ", ".join(sorted(PLATFORMS))})
        if self.tournament.standings_hidden:
            raise PermissionDenied(_("The standings of this tournament are hidden."))
        snapshot = Snapshot(self.tournament)
        if not snapshot.final_over:
            raise PermissionDenied(_("The results are not final yet."))
        chosen = PLATFORMS[platform]
        document = chosen.export(snapshot.model).document
        response = HttpResponse(document, content_type=f"{chosen.media_type}; charset=utf-8")
        response["Content-Disposition"] = attachment(safe_filename(self.tournament.slug,
                                                                   f"{chosen.name}.{chosen.extension}"))
        return response


def compute_default(snapshot: Snapshot) -> Standings:
    """The standings of ``scoring``'s default stage (the last with a result), shared as every stage's are."""
    from scoring.standings import default_stage

    if not snapshot.model.stages:
        raise UnknownStage("(none)")
    return snapshot.table_standings(default_stage(snapshot.model).id)
