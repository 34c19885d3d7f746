"""The ruleset parameters as an organizer edits them: on the new-tournament page and, later, on the tournament's
parameters page (docs/rules/parameters.md).

One field per parameter that applies to the regulation (those marked – for it are left out, as the file refuses
them); each labelled and explained in the organizer's language. Numbers are typed as numbers (``0,5`` or ``0.5``),
the chain as a row of choices, ``rank_by`` as a choice; the structured values (points per side, by blacks named,
by role, allowed extra points) as JSON. Only the values that differ from the regulation's defaults are kept
(``overrides``), each checked by ``scoring`` and refused with its own words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django import forms
from django.utils.formats import get_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scoring.errors import InvalidTournament
from scoring.fileio import read_json
from scoring.metrics import METRICS
from scoring.numbers import to_file_number, to_fraction
from scoring.params import (
    CHAIN,
    CHOICE,
    INT,
    NUMBER,
    OPT_INT,
    OPT_NUMBER,
    PARAM_KINDS,
    RANK_BY,
    Params,
)
from scoring.rulesets import get_ruleset

from ..labels import metric_label, param_label
from ..numbers import written
from ..param_words import regulation_words
from ..problem_text import message_text

CHAIN_SLOTS = 10  # more tie-breaks than any real regulation lists
SCALAR_KINDS = (INT, OPT_INT, NUMBER, OPT_NUMBER)
OPTIONAL_KINDS = (OPT_INT, OPT_NUMBER)

# What each structured value looks like, shown under its field.
JSON_HINTS: dict[str, Any] = {
    "win points": gettext_lazy('A number for every side, or per side: {"red": 3, "black": 4}.'),
    "values": gettext_lazy('A list, e.g. [0, 0.5, 1], or a range: {"min": -2, "max": 2, "step": 0.5}.'),
    "points by count": gettext_lazy('Points by the number of black players named: {"2": 0.25, "3": 0.5}; {} for none.'),
    "points by role": gettext_lazy('By role, for a win and a loss: {"don": {"win": 0.5, "loss": -0.5}}; {} for none.'),
}
# A comma between two digits: a Russian keyboard's decimal comma (0,5), or JSON's separator written without a space.
DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")


class AmbiguousComma(ValueError):
    """The text reads as JSON both ways, with the comma between digits a separator or a decimal comma."""


def typed_json(text: str) -> object:
    """A structured parameter as an organizer types it: JSON, where 0,5 may be a half (``[0, 0,5]``, the decimal
    comma of a Russian keyboard, read as JSON was ``[0, 0, 5]``: a 5 allowed and the half not). With a comma between
    digits the text is read both ways: the one that is JSON wins; if both are, the decimal reading wins when the
    other commas separate values with a space (``[0, 0,5]``), and ``[0,5]`` alone is refused as ambiguous. Raises
    InvalidTournament (the tournament file's reader: NaN, Infinity, 1e400 and 5,000-digit numbers refused too)."""
    if not DECIMAL_COMMA.search(text):
        return read_json(text)
    readings = []
    for candidate in (text, DECIMAL_COMMA.sub(".", text)):
        try:
            readings.append(read_json(candidate))
        except InvalidTournament as refused:
            readings.append(refused)
    as_is, decimal = readings
    if isinstance(as_is, InvalidTournament) or isinstance(decimal, InvalidTournament):
        if isinstance(as_is, InvalidTournament) and isinstance(decimal, InvalidTournament):
            raise as_is
        return decimal if isinstance(as_is, InvalidTournament) else as_is
    if as_is == decimal:
        return as_is
    if text.count(",") > len(DECIMAL_COMMA.findall(text)):  # other commas separate: these are decimal
        return decimal
    raise AmbiguousComma(text)


def shown_json(value: object) -> str:
    """A structured value as its field and the history show it: JSON, with the reader's decimal comma (``[0, 0,5]``
    in Russian) wherever ``typed_json`` reads the text back as the same value; with a point where it would not
    (``[0.5]`` alone: ``[0,5]`` is refused as ambiguous), so that a page saved unchanged never changes a value."""
    text = json.dumps(value, ensure_ascii=False)
    separator = str(get_format("DECIMAL_SEPARATOR"))
    if separator == "." or not re.search(r"\d\.\d", text):
        return text
    local = re.sub(r"(?<=\d)\.(?=\d)", separator, text)
    try:
        return local if typed_json(local) == typed_json(text) else text
    except (AmbiguousComma, InvalidTournament):
        return text


RANK_BY_LABELS = {"points": gettext_lazy("by points"), "average": gettext_lazy("by points per game (average)")}


def input_number(text: object) -> str:
    """A parameter's number in the file's notation, as its field shows it: ``0,5`` in Russian, ``0.5`` in English,
    ``1/3`` kept exact (``labels.local_number`` would round it for reading; a field is read back)."""
    return str(text).replace(".", str(get_format("DECIMAL_SEPARATOR")))


def value_text(name: str, value: object) -> str:
    """A parameter's value in the file's notation as the parameters page's history shows it: numbers in the
    organizer's notation, the chain by its metrics' names, ``null`` in words."""
    kind = PARAM_KINDS.get(name, ("", ""))[0]
    if value is None:
        if kind == CHAIN:
            return _("the regulation's chain")
        if name == "ci_cap":
            return _("the rate")
        return _("no limit") if kind in OPTIONAL_KINDS else "—"
    if kind == CHAIN and isinstance(value, list):
        return " → ".join(metric_label(str(metric)) for metric in value) or _("the regulation's chain")
    if kind == CHOICE:
        return str(RANK_BY_LABELS.get(str(value), value))
    if isinstance(value, int | float | str) and not isinstance(value, bool):
        return input_number(value).replace("-", "−")
    return shown_json(value)


class ChainWidget(forms.MultiWidget):
    template_name = "tournaments/widgets/chain.html"  # numbered slots, wide enough for the metrics' names

    def __init__(self, choices: list[tuple[str, str]]) -> None:
        super().__init__([forms.Select(choices=choices, attrs={"class": "form-select form-select-sm"})
                          for _slot in range(CHAIN_SLOTS)])

    def get_context(self, name: str, value: Any, attrs: dict[str, Any] | None) -> dict[str, Any]:
        """Each slot's select named by the field's label and its number (``chain-label``: the label of
        tournaments/_params_fields.html; a label has one field, the chain ten)."""
        context = super().get_context(name, value, attrs)
        for slot in context["widget"]["subwidgets"]:
            if slot["attrs"].get("id"):
                slot["number_id"] = f"{slot['attrs']['id']}-number"
                slot["attrs"]["aria-labelledby"] = f"chain-label {slot['number_id']}"
        return dict(context)

    def decompress(self, value: Any) -> list[str]:
        items = list(value or [])
        return items + [""] * (CHAIN_SLOTS - len(items))


class ChainField(forms.MultiValueField):
    """The tie-break chain: metric ids in order; empty slots are skipped, all empty is the regulation's chain."""

    def __init__(self, **kwargs: Any) -> None:
        choices = [("", "—"), *sorted(((m, metric_label(m)) for m in METRICS), key=lambda item: item[1])]
        fields = [forms.ChoiceField(choices=choices, required=False) for _slot in range(CHAIN_SLOTS)]
        super().__init__(fields, widget=ChainWidget(choices), require_all_fields=False, required=False, **kwargs)

    def compress(self, data_list: list[str]) -> list[str]:
        return [item for item in data_list if item]


class ParamsForm(forms.Form):
    """``current``: the overrides in force (a preset's, or the tournament's); the fields start from them."""

    def __init__(self, *args: Any, ruleset_id: str, current: Mapping[str, object] | None = None,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ruleset = get_ruleset(ruleset_id)
        self.defaults: Params = self.ruleset.defaults
        self.default_json = self.defaults.to_json()
        self.current = dict(current or {})
        self.overrides: dict[str, Any] = {}
        for name, (kind, _doc) in PARAM_KINDS.items():
            if name in self.ruleset.not_applicable:
                continue
            value = self.current.get(name, self.default_json[name])
            self.fields[name] = self.field_for(name, kind, value)

    def field_for(self, name: str, kind: str, value: object) -> forms.Field:
        label = param_label(name)
        default = self.default_json[name]
        if kind == CHAIN:
            own, varies = self.own_chain()
            help_text = _("Empty: the regulation's own chain. Lots always come last.")
            return ChainField(label=label, help_text=help_text,
                              initial=value if value is not None else ([] if varies else own))
        if kind == CHOICE:
            return forms.ChoiceField(label=label, choices=[(v, RANK_BY_LABELS[v]) for v in RANK_BY],
                                     initial=value, required=False)
        if kind in SCALAR_KINDS:
            shown = "" if value is None else input_number(value)
            if name == "ci_cap":  # empty is no cap above the rate itself
                help_text = _("Empty: at most the rate. The regulation: %(default)s.") % {
                    "default": _("the rate") if default is None else input_number(default)}
            elif kind in OPTIONAL_KINDS:
                help_text = _("Empty: no limit. The regulation: %(default)s.") % {
                    "default": _("no limit") if default is None else input_number(default)}
            else:
                help_text = _("The regulation: %(default)s.") % {"default": input_number(default)}
            return forms.CharField(label=label, initial=shown, required=False, help_text=help_text,
                                   widget=forms.TextInput(attrs={"inputmode": "decimal"}))
        regulation = _("In the regulation: %(words)s") % {"words": regulation_words(self.ruleset, name)}
        help_text = f"{JSON_HINTS[kind]} {regulation}"
        return forms.CharField(label=label, initial=shown_json(value), required=False, help_text=help_text)

    def value_of(self, name: str, kind: str, raw: object) -> tuple[bool, object]:
        """(given, the value in the file's notation) of one posted field; adds the field's error if it is bad.
        A field left out of the post keeps the value in force."""
        posted = self.add_prefix(name) + ("_0" if kind == CHAIN else "")  # a chain posts one select per slot
        if posted not in self.data:
            return False, None
        if kind == CHAIN:
            chain = [str(item) for item in raw] if isinstance(raw, list) else []
            return True, (chain or None)
        if kind == CHOICE:
            return (True, raw) if raw else (False, None)
        text = str(raw or "").strip()
        if kind in SCALAR_KINDS:
            if not text:
                return (True, None) if kind in OPTIONAL_KINDS else (False, None)
            if text == "null" and kind in OPTIONAL_KINDS:
                return True, None
            number = written(text)  # 0,5, −3, 1/15 as the file writes them
            if number is None:
                self.add_error(name, _("Write a number, e.g. 2, 0,5 or −3."))
                return False, None
            return True, to_file_number(to_fraction(number))
        if not text:
            return False, None
        number = written(text)  # 0,5, −3, 1/15 as the file writes them
        if number is not None:  # a number for every side
            return True, to_file_number(to_fraction(number))
        try:
            return True, typed_json(text)
        except AmbiguousComma:
            self.add_error(name, _("%(text)s: a comma between digits may be a decimal comma or separate two "
                                   "values. Separate the values with a comma and a space, e.g. [0, 0.5] or "
                                   "[0, 5].") % {"text": text})
            return False, None
        except InvalidTournament:
            self.add_error(name, _("Write a JSON value, e.g. 2, 0.5, null, [0, 1] or {\"red\": 3}."))
            return False, None

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        wanted = dict(self.current)
        for name in self.fields:
            given, value = self.value_of(name, PARAM_KINDS[name][0], data.get(name))
            if given:
                wanted[name] = value
        # Only what differs from the regulation is an override: the file stays as short as the rules allow.
        overrides = {name: value for name, value in wanted.items() if not self.same_as_default(name, value)}
        _params, errors = self.ruleset.parse_params(overrides)
        for error in errors:
            text = message_text(error.problem)
            if error.name in self.fields:
                self.add_error(error.name, text)
            else:
                self.add_error(None, f"{param_label(error.name)}: {text}")
        self.overrides = overrides
        return data

    def own_chain(self) -> tuple[list[str], bool]:
        """The regulation's tie-break chain, and whether it varies (zvezdy's follows the sides' wins so far)."""
        ruleset = self.ruleset()
        own = list(ruleset.tiebreak_chain(0, 0))
        return own, own != list(ruleset.tiebreak_chain(0, 1))

    def same_as_default(self, name: str, value: object) -> bool:
        default = self.default_json.get(name)
        if value == default:
            return True
        if name == "tiebreaks":  # the regulation's own chain, chosen again, is no change
            own, varies = self.own_chain()
            return not varies and value == own
        try:  # 0.50 and "0.5" are the default 0.5: compared as the ruleset reads them
            parsed, errors = self.ruleset.parse_params({name: value})
        except (TypeError, ValueError):
            return False
        return not errors and getattr(parsed, name) == getattr(self.defaults, name)

    def changes(self) -> list[tuple[str, object, object]]:
        """(parameter, before, after) in the file's notation, read back by the ruleset (``0.50`` is ``0.5``),
        for every parameter the post changes."""
        before, _errors = self.ruleset.parse_params(self.current)
        after, _errors = self.ruleset.parse_params(self.overrides)
        old, new = before.to_json(), after.to_json()
        return [(name, old[name], new[name]) for name in PARAM_KINDS if old[name] != new[name]]
