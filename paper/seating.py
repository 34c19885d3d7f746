"""A round's seating as printed: one sheet per table (with its judge) and one alphabetical list."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from judges.models import JudgeAssignment
from tournaments.models import Round


@dataclass(frozen=True)
class SheetSeat:
    seat: int
    number: int | None
    name: str
    nickname: str
    team: str


@dataclass(frozen=True)
class TableSheet:
    table: int
    judge: str
    seats: tuple[SheetSeat, ...]
    link: str = ""  # the judge's private link (the organizer's print only), as a QR code on the sheet


@dataclass(frozen=True)
class Place:
    name: str
    nickname: str
    number: int | None
    table: int
    seat: int


@dataclass(frozen=True)
class RoundSheets:
    round: Round
    tables: tuple[TableSheet, ...]
    places: tuple[Place, ...]  # alphabetical


def judge_name(user: object) -> str:
    full = user.get_full_name() if hasattr(user, "get_full_name") else ""
    return full or str(user)


def judges_by_table(round_: Round) -> dict[int, str]:
    """Table number → judge; a judge assigned for this round wins over one for the whole stage."""
    rows = JudgeAssignment.objects.filter(
        Q(round=round_) | Q(round__isnull=True, stage=round_.stage_id)
    ).select_related("judge__user")
    out: dict[int, str] = {}
    for row in sorted(rows, key=lambda a: a.round_id is not None):
        out[row.table] = judge_name(row.judge.user)  # round rows come last and win
    return out


def round_sheets(round_: Round) -> RoundSheets:
    """Three queries: the seats with their players, the judges."""
    judges = judges_by_table(round_)
    seats = round_.seats.select_related("table", "participant__player", "participant__team").order_by(
        "table__number", "number")
    tables: dict[int, list[SheetSeat]] = {}
    places = []
    for seat in seats:
        player = seat.participant.player
        team = seat.participant.team.name if seat.participant.team else ""
        tables.setdefault(seat.table.number, []).append(
            SheetSeat(seat.number, seat.participant.number, player.full_name, player.nickname, team))
        places.append(Place(player.full_name, player.nickname, seat.participant.number, seat.table.number,
                            seat.number))
    places.sort(key=lambda p: (p.name.casefold(), p.nickname.casefold(), p.number or 0))
    return RoundSheets(
        round=round_,
        tables=tuple(TableSheet(t, judges.get(t, ""), tuple(s)) for t, s in sorted(tables.items())),
        places=tuple(places),
    )
