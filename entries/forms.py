"""The public registration form and the organizer's settings of it."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.conf import settings
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Player, Tournament
from tournaments.rules import ruleset_for
from tournaments.services.registration import age_problem, city_problem

from .models import SelfRegistration

MOMENT = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")
TELEGRAM = re.compile(r"^[A-Za-z][A-Za-z0-9_]{4,31}$")
# digits with the usual separators: 6 (a city number) to 15 (E.164's longest)
PHONE = re.compile(r"^\+?(?:[\s()-]*\d){6,15}[\s()-]*$")
# the hidden field a person never sees nor fills; a form that fills it is a bot's
HONEYPOT = "website"


def ages_words(youngest: int | None, oldest: int | None) -> str:
    """The regulation's ages as the registration form says them before anyone is refused."""
    if youngest is not None and oldest is not None:
        return _("The regulation admits players aged %(min)s to %(max)s on the first day.") % {
            "min": youngest, "max": oldest}
    if youngest is not None:
        return _("The regulation admits players from %(min)s on the first day.") % {"min": youngest}
    return _("The regulation admits players up to %(max)s on the first day.") % {"max": oldest}


class RegistrationForm(forms.ModelForm[Player]):
    """Name, nickname, club, city, the birth date where the regulation limits ages, an e-mail and/or a Telegram
    name, consent to the rules; and a field left empty by people (``HONEYPOT``)."""

    email = forms.EmailField(label=gettext_lazy("E-mail"), required=False)
    telegram = forms.CharField(label=gettext_lazy("Telegram"), max_length=64, required=False,
                               help_text=gettext_lazy("Your user name, such as @ivan_petrov."))
    consent = forms.BooleanField(label=gettext_lazy("I have read the tournament's rules and agree to them"))
    website = forms.CharField(label=gettext_lazy("Leave this field empty"), required=False)

    class Meta:
        model = Player
        fields = ["surname", "first_name", "patronymic", "nickname", "club", "city", "birth_date", "phone"]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                   "phone": forms.TextInput(attrs={"type": "tel", "inputmode": "tel"})}

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        ruleset = ruleset_for(tournament)
        self.fields["first_name"].required = True
        if ruleset.takes_applications:  # an application carries the patronymic and a phone (kostroma, annex 1.1)
            self.fields["patronymic"].required = self.fields["phone"].required = True
            self.fields["phone"].help_text = _("The regulation's application form asks for it; only the organizer "
                                               "sees it.")
        else:
            del self.fields["phone"]
        if ruleset.min_age is None and ruleset.max_age is None:
            del self.fields["birth_date"]
        else:
            self.fields["birth_date"].required = True
            self.fields["birth_date"].help_text = ages_words(ruleset.min_age, ruleset.max_age)
        if ruleset.residents_only:
            self.fields["city"].required = True
            self.fields["city"].help_text = (
                _("The city you live in: the regulation admits residents of %(city)s only.") % {"city": tournament.city}
                if tournament.city else _("The city of residence: the regulation admits residents only."))
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        if settings.TELEGRAM_BOT_TOKEN:
            self.fields["telegram"].widget.attrs.update({"autocomplete": "off", "autocapitalize": "none"})
        else:  # no bot on this site: a Telegram name alone would be promised messages that never come
            del self.fields["telegram"]
            self.fields["email"].required = True
            self.fields["email"].help_text = _("The organizer tells you your seat there.")
            self.fields["email"].error_messages["required"] = _("Give an e-mail: the organizer tells you your seat "
                                                                "there.")
        self.fields[HONEYPOT].widget.attrs.update({"autocomplete": "off", "tabindex": "-1"})
        for name, value in (("surname", "family-name"), ("first_name", "given-name"),
                            ("patronymic", "additional-name"), ("nickname", "nickname"),
                            ("club", "organization"), ("city", "address-level2"), ("birth_date", "bday"),
                            ("phone", "tel")):
            if name in self.fields:
                self.fields[name].widget.attrs["autocomplete"] = value

    def clean_telegram(self) -> str:
        value = str(self.cleaned_data.get("telegram") or "").strip()
        value = re.sub(r"^(https?://)?(t\.me/|telegram\.me/)", "", value).lstrip("@")
        if value and not TELEGRAM.match(value):
            raise forms.ValidationError(_("A Telegram user name has 5 to 32 Latin letters, digits or '_', starting "
                                          "with a letter."))
        return value

    def clean_city(self) -> str:
        # «кострома» typed on a phone is the organizer's «Кострома»: lists and the ratings' filter showed both
        value = " ".join(str(self.cleaned_data.get("city") or "").split())
        return capfirst(value) if value.islower() else value

    def clean_phone(self) -> str:
        value = " ".join(str(self.cleaned_data.get("phone") or "").split())
        if value and not PHONE.match(value):
            raise forms.ValidationError(_("A phone number has 6 to 15 digits, such as +7 900 123-45-67."))
        return value

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "telegram" in self.fields and not data.get("email") and not data.get("telegram") \
                and "email" not in self.errors and "telegram" not in self.errors:
            self.add_error("email", _("Give an e-mail or a Telegram name: the organizer tells you your seat there."))
        # the regulation's age and residence, with the form's own errors: every mistake at once, not one a send
        if "birth_date" in self.fields and data.get("birth_date") and "birth_date" not in self.errors:
            problem = age_problem(self.tournament, data["birth_date"])
            if problem:
                self.add_error("birth_date", problem)
        if data.get("city") and "city" not in self.errors:
            problem = city_problem(self.tournament, data["city"], yourself=True)
            if problem:
                self.add_error("city", problem)
        return data

    def _post_clean(self) -> None:
        """The player row is not saved by the form (the registration service makes it): no model validation."""

    def details(self) -> dict[str, Any]:
        data = self.cleaned_data
        birth = data.get("birth_date")
        return {**{name: data.get(name) or "" for name in ("surname", "first_name", "patronymic", "nickname",
                                                            "club", "city", "phone")},
                "birth_date": birth.isoformat() if birth else None}


class SettingsForm(forms.ModelForm[SelfRegistration]):
    class Meta:
        model = SelfRegistration
        fields = ["opens", "closes", "coming_names"]
        widgets = {"opens": MOMENT, "closes": MOMENT}
        help_texts = {"opens": gettext_lazy("Empty: the form is closed."),
                      "closes": gettext_lazy("Empty: open until you close it.")}

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        opens, closes = data.get("opens"), data.get("closes")
        if opens and closes and closes <= opens:
            self.add_error("closes", _("Registration cannot close before it opens."))
        return data
