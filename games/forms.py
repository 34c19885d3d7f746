"""The protocol form: every seat's facts and the game's, parsed here, checked by ``scoring``.

The form only parses values; the rules are checked on the whole protocol by
``services.protocol.change`` (``scoring.validation.game_problems``), so nothing is half-saved.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from django import forms
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring import model as m
from scoring.rulesets import Ruleset
from tournaments.numbers import TypedNumberField

from .models import Left, Role, Side
from .reasons import recorded_foul_choices, removal_choices
from .services.facts import ProtocolFacts, tracks_days

BLANK: list[tuple[str, str | Promise]] = [("", "—")]


def role_choices(ruleset: Ruleset) -> list[tuple[str, Any]]:
    roles = {m.Role.CIVILIAN, *ruleset.special_roles}
    if ruleset.allows_extra_characters:
        roles |= set(m.EXTRA_CHARACTERS)
    return BLANK + [(value, label) for value, label in Role.choices if m.Role(value) in roles]


def side_choices(ruleset: Ruleset) -> list[tuple[str, Any]]:
    sides = {m.Side.RED, m.Side.BLACK} | ({m.Side.MANIAC} if m.Role.MANIAC in ruleset.special_roles else set())
    return [(value, label) for value, label in Side.choices if m.Side(value) in sides]


def parse_seats(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text or "")]


class ProtocolForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    winner = forms.ChoiceField(label=_("winner"), required=False)
    best_move = forms.CharField(label=_("best move: seats named"), required=False, max_length=20,
                                help_text=_("up to 3 seat numbers, e.g. 2 5 7"))
    mafia_missed_three_nights = forms.BooleanField(label=_("mafia missed three nights"), required=False)
    notes = forms.CharField(label=_("notes"), required=False, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args: Any, facts: ProtocolFacts, ruleset: Ruleset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.facts, self.ruleset = facts, ruleset
        p = ruleset.params
        winner = self.fields["winner"]
        assert isinstance(winner, forms.ChoiceField)
        winner.choices = BLANK + side_choices(ruleset)
        self.days = tracks_days(ruleset)
        if self.days:
            self.fields["last_day"] = forms.IntegerField(label=_("last day of the game"), min_value=1, max_value=12)
        self.circle_count = len(facts.circles) + 2 if p.circle_max_marks else 0
        for i in range(1, self.circle_count + 1):
            self.fields[f"circle{i}_best"] = forms.CharField(required=False, max_length=20,
                                                             label=_("circle %(n)s: best") % {"n": i})
            self.fields[f"circle{i}_worst"] = forms.CharField(required=False, max_length=20,
                                                              label=_("circle %(n)s: worst") % {"n": i})
        fouls = BLANK + recorded_foul_choices(ruleset.id)
        for seat in facts.seats:
            n = seat.number
            self.fields[f"s{n}_role"] = forms.ChoiceField(label=_("role"), choices=role_choices(ruleset))
            if ruleset.allows_extra_characters:
                self.fields[f"s{n}_side"] = forms.ChoiceField(label=_("side"), required=False,
                                                              choices=BLANK + side_choices(ruleset))
            for k in range(1, 5):
                self.fields[f"s{n}_foul{k}"] = forms.ChoiceField(label=_("foul %(k)s") % {"k": k},
                                                                 required=False, choices=fouls)
            self.fields[f"s{n}_removal"] = forms.ChoiceField(label=_("removed for"), required=False,
                                                             choices=[*BLANK, *removal_choices(ruleset.id)])
            self.fields[f"s{n}_left"] = forms.ChoiceField(label=_("left the table"), required=False,
                                                          choices=BLANK + list(Left.choices))
            self.fields[f"s{n}_left_number"] = forms.IntegerField(label=_("day/night"), required=False,
                                                                  min_value=1, max_value=12)
            if p.extra_max_players:
                self.fields[f"s{n}_extra"] = TypedNumberField(label=_("extra points"), required=False,
                                                              min_value=-9999, max_value=9999)
            self.fields[f"s{n}_best"] = forms.BooleanField(label=_("named best"), required=False)
            if self.days:
                self.fields[f"s{n}_subjective"] = TypedNumberField(label=_("subjective mark"), required=False,
                                                                   min_value=-9999, max_value=9999)
        if not self.is_bound:
            self.initial.update(self.initial_from(facts))

    def initial_from(self, facts: ProtocolFacts) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "winner": facts.winner,
            "best_move": " ".join(str(n) for n in facts.best_move),
            "mafia_missed_three_nights": facts.mafia_missed_three_nights,
            "notes": facts.notes,
            "last_day": facts.day,
        }
        for i, circle in enumerate(facts.circles, start=1):
            initial[f"circle{i}_best"] = " ".join(str(n) for n in circle.get("best", ()))
            initial[f"circle{i}_worst"] = " ".join(str(n) for n in circle.get("worst", ()))
        for s in facts.seats:
            n = s.number
            initial.update({f"s{n}_role": s.role, f"s{n}_side": s.side, f"s{n}_removal": s.removal_reason,
                            f"s{n}_left": s.left, f"s{n}_left_number": s.left_number, f"s{n}_best": s.best,
                            f"s{n}_extra": s.extra if s.extra else None, f"s{n}_subjective": s.subjective})
            for k, reason in enumerate(s.foul_reasons[:4], start=1):
                initial[f"s{n}_foul{k}"] = reason
        return initial

    def seat_rows(self) -> list[tuple[Any, list[Any]]]:
        """Per seat, its bound fields in display order (for the template)."""
        rows = []
        for seat in self.facts.seats:
            prefix = f"s{seat.number}_"
            rows.append((seat, [self[name] for name in self.fields if name.startswith(prefix)]))
        return rows

    def circle_rows(self) -> list[tuple[Any, Any]]:
        return [(self[f"circle{i}_best"], self[f"circle{i}_worst"]) for i in range(1, self.circle_count + 1)]

    def apply(self, facts: ProtocolFacts) -> None:
        """Writes the cleaned values into ``facts`` (the service validates the result)."""
        data = self.cleaned_data
        facts.winner = data["winner"]
        facts.best_move = parse_seats(data["best_move"])
        facts.mafia_missed_three_nights = data["mafia_missed_three_nights"]
        facts.notes = data["notes"]
        if self.days:
            facts.phase = 2 * data["last_day"] - 1
        facts.circles = [
            {"best": parse_seats(data[f"circle{i}_best"]), "worst": parse_seats(data[f"circle{i}_worst"])}
            for i in range(1, self.circle_count + 1)
        ]
        for seat in facts.seats:
            n = seat.number
            seat.role = data[f"s{n}_role"]
            seat.side = data.get(f"s{n}_side", "") or ""
            seat.foul_reasons = [data[f"s{n}_foul{k}"] for k in range(1, 5) if data[f"s{n}_foul{k}"]]
            seat.removal_reason = data[f"s{n}_removal"]
            seat.left = data[f"s{n}_left"]
            seat.left_number = data[f"s{n}_left_number"] if seat.left else None
            extra = data.get(f"s{n}_extra")
            seat.extra = Fraction(extra) if extra is not None else Fraction(0)
            seat.best = data[f"s{n}_best"]
            if self.days:
                subjective = data.get(f"s{n}_subjective")
                seat.subjective = None if subjective is None else Fraction(subjective)
