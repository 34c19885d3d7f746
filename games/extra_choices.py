"""The extra points a judge chooses from on the table screen: the regulation's allowed values as a list (a long
range is typed instead), per seat once the winner is known."""

from __future__ import annotations

from fractions import Fraction

from scoring.params import ValueSet
from scoring.rulesets import Ruleset
from tournaments.fields import exact_text
from tournaments.labels import local_number as number

from .services.discipline import side_of
from .services.facts import ProtocolFacts

MOST_EXTRA_CHOICES = 41  # a range of allowed extra points longer than this is typed, not chosen


def allowed(values: ValueSet) -> set[Fraction] | None:
    if values.minimum is not None and values.maximum is not None and values.step:
        count = (values.maximum - values.minimum) / values.step + 1
        if count > MOST_EXTRA_CHOICES:
            return None
        return {values.minimum + k * values.step for k in range(int(count))}
    return set(values.values)


def extra_choices(ruleset: Ruleset) -> list[tuple[str, str]]:
    """What a judge may give (a winner's values and a loser's together; scoring checks which applies), as
    (value, shown); empty: a number is typed instead."""
    p = ruleset.params
    winner, loser = allowed(p.extra_values_winner), allowed(p.extra_values_loser)
    if winner is None or loser is None:
        return []
    return [(exact_text(value), number(value)) for value in sorted(winner | loser | {Fraction(0)})]


def sides_differ(ruleset: Ruleset) -> bool:
    """Whether the winning and the losing side may get different extra points (fiim: 0 or 1 against 0 or 0.5)."""
    return ruleset.params.extra_values_winner != ruleset.params.extra_values_loser


def seat_extra_choices(ruleset: Ruleset, facts: ProtocolFacts) -> list[list[tuple[str, str]]]:
    """Each seat's extra points to choose from: once the winner is recorded, what its side may get (the winner's
    values or the loser's); before, both. A value already given stays in its list, so that the screen never shows
    another one than the protocol holds (scoring refuses it, naming the seat)."""
    p = ruleset.params
    winner, loser = allowed(p.extra_values_winner), allowed(p.extra_values_loser)
    if winner is None or loser is None:
        return [[] for _seat in facts.seats]
    rows = []
    for seat in facts.seats:
        values = winner | loser
        if facts.winner and seat.role:
            values = winner if side_of(seat) == facts.winner else loser
        values = values | {Fraction(0), seat.extra or Fraction(0)}
        rows.append([(exact_text(value), number(value)) for value in sorted(values)])
    return rows


def extra_row(seat: int, saved: Fraction, choices: list[tuple[str, str]], posted: str | None
              ) -> tuple[int, str, str, list[tuple[str, str]]]:
    """A seat's row of the extra points form: (seat, the option's value, the typed text, the choices). Where the form
    was refused (nothing of it saved), what the judge posted, kept among the choices; else the saved value."""
    if posted is None:
        return seat, exact_text(saved), number(saved), choices
    known = not choices or any(value == posted for value, _shown in choices)
    return seat, posted, posted, choices if known else [*choices, (posted, posted)]
