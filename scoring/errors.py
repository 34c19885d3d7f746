"""Problems found in a tournament, each naming where it is (docs/command-line.md)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias


@dataclass(frozen=True)
class Location:
    stage: str | None = None
    round: int | None = None
    table: int | None = None
    seat: int | None = None
    field: str | None = None  # a file path such as "params.win_points" where no stage applies

    def __str__(self) -> str:
        parts: list[str] = []
        if self.field is not None:
            parts.append(self.field)
        if self.stage is not None:
            parts.append(f"stage {self.stage}")
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.table is not None:
            parts.append(f"table {self.table}")
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        return ", ".join(parts)

    def at(
        self,
        *,
        round: int | None = None,
        table: int | None = None,
        seat: int | None = None,
    ) -> Location:
        return Location(
            self.stage,
            self.round if round is None else round,
            self.table if table is None else table,
            self.seat if seat is None else seat,
            self.field,
        )


Field: TypeAlias = "str | int | Message"


@dataclass(frozen=True)
class Message:
    """A user-facing text as an English template with named fields (``messages.py`` lists every
    template), so the web application can translate the template and format the same fields."""

    template: str
    fields: tuple[tuple[str, Field], ...] = ()

    def __str__(self) -> str:
        return self.template.format(**dict(self.fields))


def message(template: str, **fields: Field) -> Message:
    return Message(template, tuple(fields.items()))


@dataclass(frozen=True)
class Problem:
    location: Location
    message: str | Message

    @property
    def text(self) -> str:
        return str(self.message)

    def __str__(self) -> str:
        where = str(self.location)
        return f"{where}: {self.text}" if where else self.text


class ScoringError(Exception):
    """Base of the errors that mean the input is wrong (exit status 2), never a bug."""


class InvalidTournament(ScoringError):
    """The file or the tournament breaks the schema or the ruleset; ``problems`` lists every one."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


class UnknownStage(ScoringError):
    def __init__(self, stage_id: str) -> None:
        self.stage_id = stage_id
        super().__init__(f"stage {stage_id}: no such stage in the tournament")
