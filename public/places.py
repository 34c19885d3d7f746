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
    """Every seat and bye of these rounds: two queries whatever their size."""
    by_pk = {r.pk: r for r in rounds}
    seats = Seat.objects.filter(round__in=by_pk).select_related("participant__player", "table")
    out = [
        Place(by_pk[s.round_id], s.table.number, s.number, s.participant.number, s.participant.ext_id,
              s.participant.player.full_name, s.participant.player.nickname)
        for s in seats.order_by("table__number", "number")
    ]
    for bye in Bye.objects.filter(round__in=by_pk).select_related("participant__player"):
        p = bye.participant
        out.append(Place(by_pk[bye.round_id], None, None, p.number, p.ext_id, p.player.full_name, p.player.nickname))
    return out


