"""What the judges page shows beside its forms: each judge's private link (its address and QR code) and the
allocation grid of the round chosen (``?round=ID``; ``&fill=previous`` fills it from the round before, ``&fill=auto``
with the app's allocation: ``judges.services.allocation.proposal``, nothing saved until the organizer saves)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from tournaments.models import Round, Table, Tournament

from ..forms_allocation import AllocationForm, table_field
from ..models import Judge
from ..services import allocation, links


def private_url(request: HttpRequest, slug: str, token: str) -> str:
    return request.build_absolute_uri(reverse("games:private_link", kwargs={"slug": slug, "token": token}))


def link_urls(request: HttpRequest, tournament: Tournament) -> dict[int, str]:
    """Judge id → the address of their link in force."""
    return {judge: private_url(request, tournament.slug, token) for judge, token in links.links_of(tournament).items()}


def rounds_of(tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(stage__tournament=tournament).select_related("stage")
                .order_by("stage__order", "number"))


def chosen_round(tournament: Tournament, value: str | None, rounds: list[Round] | None = None) -> Round | None:
    """The round ``value`` (an id) of ``tournament``; none given: its last round; a wrong one: none."""
    rounds = rounds_of(tournament) if rounds is None else rounds
    if value in (None, ""):
        return rounds[-1] if rounds else None
    return next((r for r in rounds if str(r.pk) == value), None)


def allocation_context(request: HttpRequest, tournament: Tournament, judges: list[Judge],
                       form: AllocationForm | None) -> dict[str, Any]:
    rounds = rounds_of(tournament)
    round_ = form.round if form is not None else chosen_round(tournament, request.GET.get("round"), rounds)
    if round_ is None:
        round_ = rounds[-1] if rounds else None
    if round_ is None:
        return {"grid_rounds": [], "grid": None}
    tables = list(Table.objects.filter(round=round_).order_by("number"))
    previous = allocation.previous_round(round_)
    filled = request.GET.get("fill") == "previous" and previous is not None
    proposed = allocation.proposal(round_) if form is None and request.GET.get("fill") == "auto" and tables else None
    if form is None:
        if proposed is not None:
            initial = proposed.chosen
        else:
            initial = allocation.chosen_from(round_, previous if filled else None)
        form = AllocationForm(round_=round_, tables=tables, judges=judges, initial_judges=initial)
        chosen = initial
    else:
        chosen = form.chosen() if form.is_bound and not form.errors else allocation.chosen_from(round_)
    rows = allocation.grid(round_, chosen)
    return {
        "grid_rounds": rounds, "grid_round": round_, "grid_previous": previous, "grid_filled": filled,
        "grid_proposed": proposed,
        "grid_form": form, "grid": [(row, form[table_field(row.table.number)]) for row in rows],
    }
