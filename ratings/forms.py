from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _

from .models import RatingRules

K_FIELDS = ["k_club_red", "k_club_black", "k_open_red", "k_open_black", "k_championship_red",
            "k_championship_black"]


class RulesForm(forms.ModelForm):  # type: ignore[type-arg]
    """The rating's K per level and side and the starting rating; K from 0 to 100, the start from 0 to 5000."""

    class Meta:
        model = RatingRules
        fields = [*K_FIELDS, "start"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        for name in K_FIELDS:
            value = data.get(name)
            if value is not None and not 0 <= value <= 100:
                self.add_error(name, _("K must be from 0 to 100."))
        start = data.get("start")
        if start is not None and not 0 <= start <= 5000:
            self.add_error("start", _("The starting rating must be from 0 to 5000."))
        return data
