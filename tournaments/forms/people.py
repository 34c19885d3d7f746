"""Players, participants, teams and the CSV list of players."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Player, Team, Tournament
from ..services.registration import age_problem


class PlayerForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Player
        fields = ["surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date", "phone"]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}


class RegisterForm(PlayerForm):
    """A new player of the registry, registered in the tournament at once."""

    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False, label=gettext_lazy("team"))
    guest = forms.BooleanField(required=False, label=gettext_lazy("guest"))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["team"].queryset = tournament.teams.all()  # type: ignore[attr-defined]
        if not tournament.teams.exists():
            del self.fields["team"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "birth_date" in data and not self.has_error("birth_date"):
            problem = age_problem(self.tournament, data.get("birth_date"))
            if problem:
                self.add_error("birth_date", problem)
        return data


class TeamForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = Team
        fields = ["name", "ext_id"]

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["ext_id"].required = False
        self.fields["ext_id"].help_text = _("Left empty: t1, t2, …")

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if self.tournament.teams.filter(name=name).exists():
            raise forms.ValidationError(_("A team of that name exists already."))
        return name

    def clean_ext_id(self) -> str:
        ext_id: str = self.cleaned_data.get("ext_id") or ""
        if not ext_id:
            n = self.tournament.teams.count() + 1
            while self.tournament.teams.filter(ext_id=f"t{n}").exists():
                n += 1
            ext_id = f"t{n}"
        elif self.tournament.teams.filter(ext_id=ext_id).exists():
            raise forms.ValidationError(_("This id is taken."))
        return ext_id


CSV_COLUMNS = ["surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date", "phone", "team"]


@dataclass
class CsvRow:
    line: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)
    form: PlayerForm | None = None
    team: Team | None = None


class CsvForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace"}),
        help_text=gettext_lazy(
            "A header line, then one player a line. Columns: surname, first_name, patronymic, nickname, "
            "city, club, birth_date (YYYY-MM-DD), phone, team; only surname is required. Commas or "
            "semicolons."
        ),
    )
    upload = forms.FileField(label=gettext_lazy("or upload a CSV file"), required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.rows: list[CsvRow] = []

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        text = data.get("text") or ""
        upload = data.get("upload")
        if upload:
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
            data["text"] = text
        if not text.strip():
            raise forms.ValidationError(_("Paste a list or choose a file."))
        self.rows = self.parse(text)
        return data

    def parse(self, text: str) -> list[CsvRow]:
        dialect = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t") if text.strip() else csv.excel
        reader = csv.reader(io.StringIO(text), dialect)
        header = [h.strip().lower() for h in next(reader, [])]
        unknown = [h for h in header if h not in CSV_COLUMNS]
        if unknown or "surname" not in header:
            raise forms.ValidationError(
                _("Line 1: the header must name columns among %(columns)s, surname included; unknown: %(bad)s")
                % {"columns": ", ".join(CSV_COLUMNS), "bad": ", ".join(unknown) or "—"}
            )
        teams = {t.name: t for t in self.tournament.teams.all()}
        rows: list[CsvRow] = []
        for line, cells in enumerate(reader, start=2):
            if not any(c.strip() for c in cells):
                continue
            row = CsvRow(line, {h: (cells[i].strip() if i < len(cells) else "") for i, h in enumerate(header)})
            if len(cells) > len(header):
                row.errors.append(_("%(n)s cells, the header has %(h)s") % {"n": len(cells), "h": len(header)})
            values = {k: v for k, v in row.values.items() if k != "team"}
            form = PlayerForm(data=values)
            if not form.is_valid():
                for name, errors in form.errors.items():
                    label = form.fields[name].label if name in form.fields else name
                    row.errors += [f"{label}: {e}" for e in errors]
            else:
                problem = age_problem(self.tournament, form.cleaned_data.get("birth_date"))
                if problem:
                    row.errors.append(f"{_('birth date')}: {problem}")
            team_name = row.values.get("team", "")
            if team_name:
                row.team = teams.get(team_name)
                if row.team is None:
                    row.errors.append(_("team: no team named “%(name)s”") % {"name": team_name})
            row.form = form
            rows.append(row)
        if not rows:
            raise forms.ValidationError(_("The list has no players."))
        return rows

    @property
    def bad_rows(self) -> list[CsvRow]:
        return [row for row in self.rows if row.errors]
