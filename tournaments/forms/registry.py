"""The merge of two players of the registry: which one is kept, which one merged into it, and why."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Player


class MergeForm(forms.Form):
    keep = forms.ModelChoiceField(queryset=Player.objects.all(), label=gettext_lazy("kept player"),
                                  widget=forms.NumberInput)
    merge = forms.ModelChoiceField(queryset=Player.objects.all(), label=gettext_lazy("merged player"),
                                   widget=forms.NumberInput)
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=300, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        keep, merge = data.get("keep"), data.get("merge")
        if keep is not None and merge is not None and keep.pk == merge.pk:
            raise forms.ValidationError(_("Choose two different players."))
        return data
