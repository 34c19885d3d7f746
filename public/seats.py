"""Where everyone sits in published rounds: the seating pages, "Where do I sit?" and the API read these."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.models import Bye, Round, Seat, Tournament


@dataclass(frozen=True)
class Place:
    round: Round
    table: int | None  # None: a bye
    seat: int | None
    number: int | None
    player: str  # ext id
    name: str
    nickname: str


def published_rounds(tournament: Tournament) -> list[Round]:
    rows = Round.objects.published().filter(stage__tournament=tournament).select_related("stage")
    return list(rows.order_by("stage__order", "number"))


def places(rounds: list[Round]) -> list[Place]:
    """Every seat and bye of these rounds: two queries whatever their size, read as values (a thousand seats as
    model instances cost more than the page's HTML)."""
    by_pk = {r.pk: r for r in rounds}
    person = ("participant__number", "participant__ext_id", "participant__player__surname",
              "participant__player__first_name", "participant__player__patronymic", "participant__player__nickname")
    seats = (Seat.objects.filter(round__in=by_pk).order_by("table__number", "number")
             .values_list("round_id", "table__number", "number", *person))
    out = [Place(by_pk[round_id], table, seat, number, ext_id, full_name(surname, first, patronymic), nickname)
           for round_id, table, seat, number, ext_id, surname, first, patronymic, nickname in seats]
    byes = Bye.objects.filter(round__in=by_pk).values_list("round_id", *person)  # in their own order
    out += [Place(by_pk[round_id], None, None, number, ext_id, full_name(surname, first, patronymic), nickname)
            for round_id, number, ext_id, surname, first, patronymic, nickname in byes]
    return out


def full_name(*parts: str) -> str:
    """``Player.full_name`` of the parts read."""
    return " ".join(part for part in parts if part)
