"""What the organizer's standings page shows of ties at a cut and of the draws (``running.services.lots``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.lots import Cut, CutKind, CutTie
from scoring.standings import Standings
from tournaments.models import LotDraw


def cut_label(cut: Cut, rank: int) -> str:
    """What the line decides, as the organizer reads it: "the best 10 go on", "round 1, table 2: 1 more goes on"."""
    line = rank + cut.through - 1
    if cut.kind is CutKind.ADVANCE:
        return ngettext("the best %(n)s goes on", "the best %(n)s go on", line) % {"n": line}
    if cut.kind is CutKind.GAME:
        return ngettext("round %(round)s, table %(table)s: %(n)s of them goes on",
                        "round %(round)s, table %(table)s: %(n)s of them go on", cut.through) % {
            "round": cut.round, "table": cut.table, "n": cut.through}
    if cut.kind is CutKind.WINNER:
        return ngettext("%(n)s of them wins the tournament", "%(n)s of them win the tournament", cut.through) % {
            "n": cut.through}
    return _("the line under prize place %(n)s") % {"n": line}


def tie_context(tie: CutTie, standings: Standings) -> dict[str, Any]:
    names = {row.player: row.name for row in standings.rows}
    return {
        "players": [(pid, names.get(pid, pid)) for pid in tie.players],
        "names": ", ".join(names.get(pid, pid) for pid in tie.players),
        "first": tie.rank, "last": tie.last,
        "cuts": [cut_label(cut, tie.rank) for cut in tie.cuts],
        "slots": range(1, len(tie.players) + 1),
    }


def draw_history(draws: Iterable[LotDraw], standings: Standings) -> list[dict[str, Any]]:
    """Every draw of the stage, the latest first, with the players' names (one query)."""
    names = {row.player: row.name for row in standings.rows}
    return [
        {"id": draw.pk, "order": ", ".join(names.get(pid, pid) for pid in draw.players),
         "method": draw.get_method_display(), "drawn_at": draw.drawn_at, "drawn_by": draw.drawn_by_name,
         "note": draw.note, "cancelled_at": draw.cancelled_at, "cancelled_by": draw.cancelled_by_name}
        for draw in sorted(draws, key=lambda d: (d.drawn_at, d.pk), reverse=True)
    ]
