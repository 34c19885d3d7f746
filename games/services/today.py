"""The tables a judge has to record now: where the login takes a judge (``views.start``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judges.models import Judge
from tournaments.models import Table

from ..models import Game, GameState
from ..permissions import assigned_tables

if TYPE_CHECKING:
    from base.users import User


def tables_to_record(user: User, tournament_id: int | None = None) -> list[tuple[Table, Game | None]]:
    """The tables of published rounds this user hosts as a judge (in one tournament, if given) whose protocol is
    not submitted yet (none opened, or a draft), the latest round first; what is submitted is the chief judge's."""
    found = Judge.objects.filter(user=user).prefetch_related("assignments")
    if tournament_id is not None:
        found = found.filter(tournament_id=tournament_id)
    judges = list(found)
    if not judges:
        return []
    condition = assigned_tables(judges[0])
    for judge in judges[1:]:
        condition |= assigned_tables(judge)
    tables = list(Table.objects.published().filter(condition, round__stage__tournament__in=[j.tournament_id
                                                                                           for j in judges])
                  .select_related("round__stage__tournament")
                  .order_by("-round__stage__tournament__starts", "-round__stage__order", "-round__number", "number"))
    games = {g.table_id: g for g in Game.objects.filter(table__in=[t.pk for t in tables])}
    return [(table, games.get(table.pk)) for table in tables
            if table.pk not in games or games[table.pk].state == GameState.DRAFT]
