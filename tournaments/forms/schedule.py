"""The scheduled start of a round (a date and time in the tournament's time zone)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class RoundStartForm(forms.Form):
    starts_at = forms.DateTimeField(
        label=_("Starts at"), required=False, input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Shown in the public program; leave empty to remove."),
        error_messages={"invalid": _("Enter a date and time, e.g. 2026-05-01 14:30.")},
    )
