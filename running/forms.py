"""Forms of the stage and round pages: how to seat, and penalties."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.models import Participant, SeatingMethod
from tournaments.numbers import TypedNumberField

MAX_BLOCK = 12


class PlanForm(forms.Form):
    """The method (the stage's planned one proposed), a block of rounds (balanced), the tables."""

    method = forms.ChoiceField(label=gettext_lazy("seating method"), choices=SeatingMethod.choices)
    rounds = forms.IntegerField(label=gettext_lazy("rounds to seat"), min_value=1, max_value=MAX_BLOCK, initial=1,
                                help_text=gettext_lazy("Several rounds at once only with the balanced method."))
    tables = forms.IntegerField(label=gettext_lazy("tables"), min_value=1, required=False,
                                help_text=gettext_lazy("Blank: as many full tables as the players fill."))

    def __init__(self, *args: Any, players: int, table_size: int, block: bool = True, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players, self.table_size = players, table_size
        if not block:
            del self.fields["rounds"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("rounds", 1) > 1 and data.get("method") != SeatingMethod.BALANCED:
            self.add_error("rounds", _("Only the balanced method seats several rounds at once."))
        tables = data.get("tables")
        if tables and tables * self.table_size > self.players:
            self.add_error("tables", _("%(tables)s tables of %(size)s need %(need)s players; the stage has "
                                       "%(players)s.") % {"tables": tables, "size": self.table_size,
                                                          "need": tables * self.table_size, "players": self.players})
        return data


class PenaltyForm(forms.Form):
    participant = forms.ModelChoiceField(label=gettext_lazy("player"), queryset=Participant.objects.none())
    points = TypedNumberField(label=gettext_lazy("points"), decimal_places=6, min_value=-9999, max_value=9999,
                              help_text=gettext_lazy("Negative to take points away, e.g. -0.5."))
    reason = forms.CharField(label=gettext_lazy("reason"), max_length=200)

    def __init__(self, *args: Any, players: QuerySet[Participant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["participant"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = players
        field.label_from_instance = lambda p: f"{p.number}. {p.player.full_name}"  # type: ignore[method-assign, assignment]

    def clean_points(self) -> Decimal:
        points: Decimal = self.cleaned_data["points"]
        if points == 0:
            raise forms.ValidationError(_("A penalty of zero points changes nothing."))
        return points


# The groups' bounds (a list a form takes is bounded before it is read whole): tables of the next stage,
# and tables named in all (a stage of a thousand tables is ten times the largest event).
MOST_GROUPS, MOST_GROUPED_TABLES = 200, 1000


class GroupsForm(forms.Form):
    """The groups of tables, one line per table of the next stage: the tables feeding it (``1-4`` or ``1 2 3 4``)."""

    groups = forms.CharField(label=gettext_lazy("groups of tables"), widget=forms.Textarea(attrs={"rows": 3}),
                             help_text=gettext_lazy("Line 1: the tables whose games feed table 1 of the next "
                                                    "stage, line 2 table 2, and so on; e.g. 1-4."))

    def clean_groups(self) -> list[list[int]]:
        lines = [line for line in str(self.cleaned_data["groups"]).splitlines() if line.strip()]
        if len(lines) > MOST_GROUPS:
            raise forms.ValidationError(_("%(lines)s lines: at most %(most)s groups, one a table of the next stage.")
                                        % {"lines": len(lines), "most": MOST_GROUPS})
        groups = []
        for number, line in enumerate(lines, start=1):
            groups.append(self.tables(number, line))
            if sum(map(len, groups)) > MOST_GROUPED_TABLES:
                raise forms.ValidationError(_("Line %(n)s: the groups name more than %(most)s tables in all.")
                                            % {"n": number, "most": MOST_GROUPED_TABLES})
        return groups

    @staticmethod
    def tables(number: int, line: str) -> list[int]:
        out: list[int] = []
        for token in line.replace(",", " ").split():
            first, dash, last = token.partition("-")
            if not first.isdigit() or (dash and not last.isdigit()):
                raise forms.ValidationError(_("Line %(n)s: “%(token)s” is not a table number or a range like 1-4.")
                                            % {"n": number, "token": token})
            low, high = int(first), int(last) if dash else int(first)
            if high < low or high - low > 1000:
                raise forms.ValidationError(_("Line %(n)s: “%(token)s” is not a range of tables.")
                                            % {"n": number, "token": token})
            out += range(low, high + 1)
        return out


def groups_text(groups: list[tuple[int, ...]]) -> str:
    """The groups as the form shows them: a range where the tables follow each other."""
    def line(tables: tuple[int, ...]) -> str:
        if len(tables) > 1 and list(tables) == list(range(tables[0], tables[-1] + 1)):
            return f"{tables[0]}-{tables[-1]}"
        return " ".join(str(table) for table in tables)

    return "\n".join(line(tables) for tables in groups)
