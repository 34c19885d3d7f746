"""Blank protocol forms of a round: one page per table, pre-filled with the tournament, stage,
round, table, judge, seats and players; the fields follow the tournament's regulation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.forms import role_choices, side_choices
from games.services.facts import tracks_days
from tournaments.models import Round
from tournaments.rules import protests_enabled, ruleset_for

from .seating import RoundSheets, round_sheets

CIRCLE_ROWS = 4  # speech circles printed for the circle marks (zvezdy)


@dataclass(frozen=True)
class FormLayout:
    """Which parts a regulation's form has."""

    ruleset: str
    roles: list[Any]  # (id, label) of the roles a seat may have
    sides: list[Any]  # (id, label) of the possible winners
    extra: bool  # extra points per seat
    days: bool  # days survived and the subjective mark (tomsk)
    circles: int  # rows of circle marks (zvezdy), 0 for none
    circle_marks: int
    protest: bool  # the protest box with its time (kostroma, unless its organizer turned protests off)


def layout(round_: Round) -> FormLayout:
    ruleset = ruleset_for(round_.stage.tournament)
    p = ruleset.params
    return FormLayout(
        ruleset=ruleset.id,
        roles=[(value, label) for value, label in role_choices(ruleset) if value],
        sides=side_choices(ruleset),
        extra=bool(p.extra_max_players),
        days=tracks_days(ruleset),
        circles=CIRCLE_ROWS if p.circle_max_marks else 0,
        circle_marks=p.circle_max_marks,
        protest=ruleset.id == "kostroma" and protests_enabled(round_.stage.tournament),
    )


def forms_context(round_: Round) -> dict[str, Any]:
    sheets: RoundSheets = round_sheets(round_)
    form = layout(round_)
    return {"sheets": sheets, "form": form, "foul_boxes": range(4),
            "circle_rows": range(1, form.circles + 1),
            "compact": form.circles > 0 or any(len(t.seats) > 10 for t in sheets.tables)}
