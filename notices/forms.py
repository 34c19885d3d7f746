from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from .models import Audience


class BroadcastForm(forms.Form):
    audience = forms.ChoiceField(label=_("To"), choices=Audience.choices, initial=Audience.EVERYONE)
    text = forms.CharField(label=_("Message"), widget=forms.Textarea(attrs={"rows": 4}), max_length=3000,
                           error_messages={"required": _("Write the message.")},
                           help_text=_("Sent by e-mail and Telegram, as each person chose; at most 3,000 characters."))

    def clean_text(self) -> str:
        text = str(self.cleaned_data["text"]).strip()
        if not text:
            raise forms.ValidationError(_("Write the message."))
        return text
