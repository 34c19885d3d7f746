"""A model field for points kept exactly as the tournament file keeps them.

Points are finite decimals almost always (0.5, −3, 0.25), but real regulations have values no decimal writes:
a penalty of 1/15 of a win, an extra point split three ways. The file writes those as ``"1/15"`` and ``scoring``
computes with fractions; a decimal column would have to round them (and the import refused them). This field
stores the exact value as text, ``"0.5"``, ``"-3"`` or ``"1/15"``, and reads back a ``Fraction``.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import Combinable
from django.utils.translation import gettext_lazy as _

from scoring.numbers import is_finite_decimal, is_number, known_fraction, to_fraction


def exact_text(value: Fraction) -> str:
    """``Fraction(1, 2)`` → ``"0.5"``, ``Fraction(-3)`` → ``"-3"``, ``Fraction(1, 15)`` → ``"1/15"``."""
    if value.denominator == 1:
        return str(value.numerator)
    if is_finite_decimal(value):
        text = format(Decimal(value.numerator) / Decimal(value.denominator), "f")
        return text.rstrip("0").rstrip(".") if "." in text else text
    return f"{value.numerator}/{value.denominator}"


def as_fraction(value: Any) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, Decimal):
        return Fraction(value)
    if isinstance(value, str) and not is_number(value.strip()):
        raise ValidationError(_("%(value)s is not a number."), params={"value": value}, code="invalid")
    return to_fraction(value.strip() if isinstance(value, str) else value)


class ExactNumberField(models.CharField):  # type: ignore[type-arg]
    # what django-stubs' plugin reads: the types of assignment and of reading (a nullable field adds None)
    _pyi_private_set_type: Fraction | Decimal | int | str | Combinable  # type: ignore[assignment]
    _pyi_private_get_type: Fraction  # type: ignore[assignment]

    description = _("An exact number (a decimal or a fraction)")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 64)  # "-" and two 30-digit parts: what the file's reader accepts
        super().__init__(*args, **kwargs)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Fraction | None:
        # A decimal column converted by the migration reads "0.500000": the same number.
        return None if value is None else known_fraction(value)  # each distinct text read once

    def to_python(self, value: Any) -> Fraction | None:
        if value is None or value == "":
            return None
        try:
            return as_fraction(value)
        except (TypeError, ValueError) as error:
            raise ValidationError(_("%(value)s is not a number."), params={"value": value}, code="invalid") from error

    def get_prep_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return exact_text(as_fraction(value))

    def value_to_string(self, obj: Any) -> str:
        value = self.value_from_object(obj)
        return "" if value is None else exact_text(as_fraction(value))
