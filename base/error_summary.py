"""The errors of a long form, listed at its top: each names its field and links to it, so that a mistake 2,500 px
down the page (a stage's row, a parameter) is not missed by someone who sees only the top of the page again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.forms.formsets import BaseFormSet


@dataclass(frozen=True)
class FieldError:
    anchor: str  # the field's id, "" for a form's error about no one field
    label: str
    message: str


def form_errors(form: forms.BaseForm, where: str = "", *, general: bool = True) -> list[FieldError]:
    """``form``'s errors in its fields' order; ``where`` goes before each label ("Stage 2: rounds"); ``general``:
    with its errors about no one field (left out where the page shows them at the top already)."""
    found: list[FieldError] = []
    prefix = f"{where}: " if where else ""
    for message in form.non_field_errors() if general else ():
        found.append(FieldError("", where, str(message)))
    for name, field in form.fields.items():
        for message in form.errors.get(name, ()):
            bound = form[name]
            anchor = bound.auto_id or ""
            if anchor and isinstance(field.widget, forms.MultiWidget):  # a row of selects: its first one
                anchor = f"{anchor}_0"
            found.append(FieldError(anchor, f"{prefix}{field.label or name}", str(message)))
    return found


def formset_errors(formset: BaseFormSet[Any], row_label: str) -> list[FieldError]:
    """A formset's errors; ``row_label`` names a row, with ``%(n)s`` its number from 1."""
    found = [FieldError("", "", str(message)) for message in formset.non_form_errors()]
    for index, form in enumerate(formset.forms, start=1):
        if form.errors:
            found += form_errors(form, row_label % {"n": index})
    return found

