"""The write side of the API: a staff member reads and changes a table's protocol, submits and
confirms it, through ``games.services.protocol`` (the web form's services: the same validation,
permissions, states, history and version checks).

The chief judge reopens a confirmed protocol with a reason (it is submitted again).

Authentication: ``Authorization: Token <key>`` (a key from ``POST /api/token/``) or the site's
session. Answers: 400 with the problems (each naming its seat), 401 without credentials, 403 for
someone who may not open this table (a judge of another table) or confirm, 404 for no such table,
409 when the protocol changed meanwhile (the version) or its state does not allow the action.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.exceptions import ParseError, PermissionDenied
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Game, GameSeat
from games.permissions import Staff, staff_of, table_to_open
from games.services import protocol as service
from tournaments.mixins import TournamentLoader
from tournaments.models import Table, Tournament
from tournaments.problem_text import problem_text

from . import protocol_serializers as s

if TYPE_CHECKING:
    from base.users import AuthenticatedRequest

ERRORS = {
    400: OpenApiResponse(s.RejectedSerializer, description="the protocol breaks a rule; nothing was saved"),
    401: OpenApiResponse(description="no credentials"),
    403: OpenApiResponse(description="not the judge of this table, the chief judge or an organizer"),
    404: OpenApiResponse(description="no such tournament or table"),
    409: OpenApiResponse(s.ConflictSerializer, description="changed meanwhile (version) or the state forbids it"),
}


def seats_shown() -> Prefetch[Any, Any, Any]:
    """Each seat of a protocol with its player, in seat order."""
    return Prefetch("seats", queryset=GameSeat.objects.select_related("seat__participant__player")
                    .order_by("seat__number"))


class ProtocolAPIBase(TournamentLoader, APIView):
    """The table's protocol for its staff: the web's ``TableAccessMixin`` checks, answered by DRF
    (authentication first: 401 before 403/404; a 404 in JSON)."""

    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [IsAuthenticated]
    request: AuthenticatedRequest  # IsAuthenticated: a request without a user was answered 401
    tournament: Tournament
    table: Table
    staff: Staff

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)  # authentication first: 401 before 403/404
        self.load_tournament(kwargs["slug"])
        self.staff = staff_of(request.user, self.tournament)
        self.table = table_to_open(self.tournament, kwargs["table"])
        if not self.staff.may("open", self.table):
            raise PermissionDenied(_("Only the judge of this table, the chief judge or an organizer may."))

    def game(self) -> Game:
        return service.open_protocol(self.table, self.request.user)

    def shown(self) -> QuerySet[Game]:
        """The protocols as the answer shows them: with who changed them last and each seat's player."""
        return Game.objects.select_related("changed_by").prefetch_related(seats_shown())

    def answer(self, game: Game, code: int = status.HTTP_200_OK, *, read: bool = True) -> Response:
        """The protocol as it is now: ``game`` read again (``read``), or as the service saved it (its row, read
        under its lock and written: only its seats are read), or as ``shown`` read it."""
        if read:
            game = self.shown().get(pk=game.pk)
        elif not hasattr(game, "_prefetched_objects_cache"):
            prefetch_related_objects([game], seats_shown())
        game.table = self.table  # with its round and stage (``table_to_open``): the same rows, not joined again
        data = s.ProtocolOutSerializer(game).data
        return Response(data, status=code)

    def handle_exception(self, exc: Exception) -> Response:
        if isinstance(exc, ParseError):  # a body that is not JSON (found by tests/api/test_schema.py)
            return Response({"detail": str(exc.detail), "problems": []}, status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, service.ProtocolRejected):
            problems: list[dict[str, Any]] = [{"seat": p.location.seat, "message": problem_text(p, with_location=False)}
                        for p in exc.problems]
            detail = "; ".join((_("Seat %(n)s: %(problem)s") % {"n": p["seat"], "problem": p["message"]})
                               if p["seat"] else p["message"] for p in problems)
            return Response({"detail": detail, "problems": problems}, status=status.HTTP_400_BAD_REQUEST)
        if isinstance(exc, service.ProtocolError):
            current = Game.objects.filter(table=self.table).values_list("version", "state").first()
            return Response({"detail": str(exc), "version": current[0] if current else None,
                             "state": current[1] if current else ""}, status=status.HTTP_409_CONFLICT)
        return super().handle_exception(exc)


def invalid(errors: Any) -> Response:
    return Response({"detail": _("The request is not valid; nothing was saved."), "problems": [],
                     "fields": errors}, status=status.HTTP_400_BAD_REQUEST)


class ProtocolView(ProtocolAPIBase):
    """``GET`` the protocol (opened as a draft from the published seating on first use); ``PUT``
    all its facts, based on ``version``."""

    @extend_schema(responses={200: s.ProtocolOutSerializer, **{k: v for k, v in ERRORS.items() if k != 400}},
                   summary="A table's protocol")
    def get(self, request: AuthenticatedRequest, slug: str, table: int) -> Response:
        game = self.shown().filter(table=self.table).first()  # opened already: read once, as it is shown
        if game is None:
            return self.answer(service.create_protocol(self.table, request.user))
        return self.answer(game, read=False)

    @extend_schema(request=s.ProtocolInSerializer, responses={200: s.ProtocolOutSerializer, **ERRORS},
                   summary="Change a protocol's facts (a draft or a submitted one)")
    def put(self, request: AuthenticatedRequest, slug: str, table: int) -> Response:
        game = self.game()
        numbers = sorted(game.seats.values_list("seat__number", flat=True))
        data = s.ProtocolInSerializer(data=request.data, context={"seat_numbers": numbers})
        if not data.is_valid():
            return invalid(data.errors)
        row = service.change(game, request.user, data.validated_data["version"], data.apply)
        return self.answer(row, read=False)


class SubmitView(ProtocolAPIBase):
    @extend_schema(request=s.ActionSerializer, responses={200: s.ProtocolOutSerializer, **ERRORS},
                   summary="Submit a draft protocol (it must have a result and break no rule)")
    def post(self, request: AuthenticatedRequest, slug: str, table: int) -> Response:
        data = s.ActionSerializer(data=request.data)
        if not data.is_valid():
            return invalid(data.errors)
        game = service.submit(self.game(), request.user, data.validated_data["version"])
        return self.answer(game, read=False)


class ConfirmView(ProtocolAPIBase):
    @extend_schema(request=s.ActionSerializer, responses={200: s.ProtocolOutSerializer, **ERRORS},
                   summary="Confirm a submitted protocol (chief judge or organizer); it is locked then")
    def post(self, request: AuthenticatedRequest, slug: str, table: int) -> Response:
        if not self.staff.may("confirm"):
            raise PermissionDenied(_("Only the chief judge or an organizer can confirm a protocol."))
        data = s.ActionSerializer(data=request.data)
        if not data.is_valid():
            return invalid(data.errors)
        game = service.confirm(self.game(), self.staff, request.user, data.validated_data["version"])
        return self.answer(game, read=False)


class ReopenView(ProtocolAPIBase):
    @extend_schema(request=s.ReopenSerializer, responses={200: s.ProtocolOutSerializer, **ERRORS},
                   summary="Reopen a confirmed protocol (chief judge, with a reason); it is submitted again")
    def post(self, request: AuthenticatedRequest, slug: str, table: int) -> Response:
        if not self.staff.may("reopen"):
            raise PermissionDenied(_("Only the chief judge can reopen a confirmed protocol."))
        data = s.ReopenSerializer(data=request.data)
        if not data.is_valid():
            return invalid(data.errors)
        game = service.reopen(self.game(), self.staff, request.user, data.validated_data["version"],
                              data.validated_data["reason"])
        return self.answer(game, read=False)
