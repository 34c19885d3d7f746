"""Numbers as people type them, the one reader for every typed number of the site.

A Russian phone's decimal keyboard offers only the comma, an English one the point: both are read in either
language (``1,5``, ``1.5``), with a typographic minus (``−0,5``), a plus, spaces between thousands, and an exact
fraction (``1/3``) where the value is kept exact. What cannot be read is refused, never guessed: ``1,234.5`` has
two separators and is not a number here. Numbers are shown back in the reader's own format
(``tournaments.labels.local_number``)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.numbers import is_number, to_fraction

from .labels import local_number

LONGEST = 40  # no number anyone types needs more; a 5,000-digit one is refused as the file's reader refuses it
SPACES = dict.fromkeys(map(ord, " \u00a0\u202f\u2009"), None)


def written(text: str) -> str | None:
    """The number typed, as the tournament file writes it (``"−1,5"`` → ``"-1.5"``), or None if it is not one."""
    plain = str(text).strip().translate(SPACES).replace("\u2212", "-").replace(",", ".")
    plain = plain.removeprefix("+")
    if plain.startswith((".", "-.")):  # ",5" is a half, as a phone's keyboard lets it be typed
        plain = plain.replace(".", "0.", 1)
    return plain if plain and len(plain) <= LONGEST and is_number(plain) else None


def typed_number(text: str) -> Fraction:
    """The number typed, exactly; ValueError if it is not one."""
    plain = written(text)
    if plain is None:
        raise ValueError(f"not a number: {text!r}")
    return to_fraction(plain)


class TypedNumberField(forms.Field):
    """A form's number field reading ``typed_number`` and showing the value in the reader's format: a
    ``Fraction``, or with ``decimal_places`` a ``Decimal`` of at most that many places; ``min_value`` and
    ``max_value`` inclusive."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})
    default_error_messages = {
        "invalid": _("Enter a number, e.g. 1,5 or -0.5."),
        "places": _("At most %(places)s digits after the decimal separator."),
        "min_value": _("At least %(limit)s."),
        "max_value": _("At most %(limit)s."),
    }

    def __init__(self, *, decimal_places: int | None = None, min_value: Fraction | Decimal | int | None = None,
                 max_value: Fraction | Decimal | int | None = None, **kwargs: Any) -> None:
        self.decimal_places, self.min_value, self.max_value = decimal_places, min_value, max_value
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> Fraction | Decimal | None:
        if value in self.empty_values:
            return None
        if isinstance(value, Fraction | Decimal | int):
            number = Fraction(value)
        else:
            try:
                number = typed_number(str(value))
            except ValueError:
                raise forms.ValidationError(self.error_messages["invalid"], code="invalid") from None
        if self.min_value is not None and number < self.min_value:
            raise forms.ValidationError(self.error_messages["min_value"], code="min_value",
                                        params={"limit": local_number(Fraction(self.min_value))})
        if self.max_value is not None and number > self.max_value:
            raise forms.ValidationError(self.error_messages["max_value"], code="max_value",
                                        params={"limit": local_number(Fraction(self.max_value))})
        if self.decimal_places is None:
            return number
        if (10 ** self.decimal_places) % number.denominator:
            raise forms.ValidationError(self.error_messages["places"], code="places",
                                        params={"places": self.decimal_places})
        return Decimal(number.numerator) / Decimal(number.denominator)

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, Fraction | Decimal | int | float) and not isinstance(value, bool):
            return local_number(Fraction(str(value)) if isinstance(value, float) else Fraction(value))
        return value
