"""Players, participants, teams and the CSV list of players."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.http import QueryDict
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ..models import Player, Team, Tournament
from ..rules import ruleset_for, team_size_limit, uses_applications
from ..services.registration import age_problem, cap_problem, city_problem
from ..services.registry import Match, Typed, Verdict, answer, match_many
from ..services.teams import next_team_id


class PlayerForm(forms.ModelForm[Player]):
    class Meta:
        model = Player
        fields = ["surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date", "phone"]
        widgets = {"birth_date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}


class RegisterForm(PlayerForm):
    """A new player of the registry, registered in the tournament at once."""

    team = forms.ModelChoiceField(queryset=Team.objects.none(), required=False, label=gettext_lazy("team"))
    guest = forms.BooleanField(required=False, label=gettext_lazy("guest"))
    user = forms.CharField(
        label=gettext_lazy("user account"), max_length=150, required=False,
        help_text=gettext_lazy("The player's user name on this site, if they have one: a judge of the tournament "
                               "cannot be its participant."))

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        team = self.fields["team"]
        assert isinstance(team, forms.ModelChoiceField)
        team.queryset = tournament.teams.all()
        if not tournament.teams.exists():
            del self.fields["team"]
        if self.instance.pk and self.instance.user is not None:
            self.initial.setdefault("user", self.instance.user.get_username())
        if ruleset_for(tournament).residents_only:
            self.fields["city"].required = True
            self.fields["city"].help_text = _("The city of residence: the regulation admits residents only.")

    def clean_user(self) -> Any:
        name = (self.cleaned_data.get("user") or "").strip()
        if not name:
            return None
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(_("There is no user with this name."))
        return user

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "birth_date" in data and not self.has_error("birth_date"):
            problem = age_problem(self.tournament, data.get("birth_date"))
            if problem:
                self.add_error("birth_date", problem)
        if "city" in data and not self.has_error("city"):
            problem = city_problem(self.tournament, data["city"])
            if problem:
                self.add_error("city", problem)
        return data


def shown(match: Match) -> str:
    """The candidates the organizer was shown, as the form carries them back: an answer given to other candidates
    (the name was changed meanwhile, or someone registered) is asked again."""
    return ",".join(str(c.player.pk) for c in match.candidates)


def same_person(match: Match, data: QueryDict) -> tuple[bool, Player | None]:
    """The registration form's answer to "Is this the same person?": unanswered while the candidates shown are
    not the candidates found now."""
    if match.candidates and data.get("shown") != shown(match):
        return False, None
    return answer(data.get("same_person", ""), match)


class TeamForm(forms.ModelForm[Team]):
    class Meta:
        model = Team
        fields = ["name", "ext_id"]

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["ext_id"].required = False
        self.fields["ext_id"].label = _("id in the tournament file")
        self.fields["ext_id"].help_text = _("Optional: left empty, the app gives the team one.")

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if self.tournament.teams.filter(name=name).exists():
            raise forms.ValidationError(_("A team of that name exists already."))
        return name

    def clean_ext_id(self) -> str:
        ext_id: str = self.cleaned_data.get("ext_id") or ""
        if not ext_id:
            ext_id = next_team_id(self.tournament)
        elif self.tournament.teams.filter(ext_id=ext_id).exists():
            raise forms.ValidationError(_("This id is taken."))
        return ext_id


# The largest list read, pasted or uploaded (2 MB; a list of 1,000 players is about 100 KB): an upload past
# it is refused by its size before it is read.
MAX_CSV_BYTES = 2_000_000
# The most players a list adds at once: reading and matching take a worker time in proportion to the rows, so the
# largest list is previewed within seconds (bench/README.md); a longer one is refused by its line count before any
# row is read (100,000 rows held a worker past its timeout).
MAX_CSV_ROWS = 2_000
DELIMITERS = ",;\t"

CSV_COLUMNS = ["surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date", "phone", "team"]
# The headers Russian organizers' spreadsheets write, each read as its column (compared as ``header_key`` makes
# them: lower case, ё as е, spaces, hyphens and underscores alike).
RUSSIAN_COLUMNS = {
    "фамилия": "surname", "имя": "first_name", "отчество": "patronymic", "ник": "nickname",
    "никнейм": "nickname", "псевдоним": "nickname", "игровой ник": "nickname", "город": "city", "клуб": "club",
    "дата рождения": "birth_date", "телефон": "phone", "команда": "team",
}
HEADERS = {**{column.replace("_", " "): column for column in CSV_COLUMNS}, **RUSSIAN_COLUMNS}
# What a spreadsheet saved as CSV is written in: UTF-8 (with or without its mark), else Windows-1251 (Excel's
# "CSV" on a Russian Windows).
ENCODINGS = ("utf-8-sig", "cp1251")


def header_key(cell: str) -> str:
    return " ".join(cell.strip().lower().replace("ё", "е").replace("_", " ").replace("-", " ").split())


def decoded(raw: bytes) -> str | None:
    """The list's text in the first of ``ENCODINGS`` that reads it; None when none does."""
    for encoding in ENCODINGS:
        try:
            return raw.decode(encoding)
        except UnicodeDecodeError:
            continue
    return None


@dataclass
class CsvRow:
    line: int
    values: dict[str, str]
    errors: list[str] = field(default_factory=list)
    form: PlayerForm | None = None
    team: Team | None = None
    new_team: str = ""  # a team the list names that the tournament has not yet: made with the import
    match: Match = field(default_factory=Match)  # the registry's players this row may be (services/registry.py)
    choice: str = ""  # the organizer's answer for a matched row: a candidate's id or NEW_PLAYER
    player: Player | None = None  # the existing player the row is, once answered

    @property
    def choice_name(self) -> str:
        return f"player-{self.line}"

    @property
    def selected(self) -> str:
        """The answer shown selected: the organizer's, else the single exact match (proposed, never hidden)."""
        if self.choice:
            return self.choice
        proposed = self.match.proposed
        return str(proposed.player.pk) if proposed and not proposed.registered_here else ""


class CsvForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Paste the list"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 8, "class": "font-monospace"}),
        help_text=gettext_lazy(
            "A header line, then one player a line. Columns: surname, first_name, patronymic, nickname, "
            "city, club, birth_date (YYYY-MM-DD), phone, team, or in Russian: фамилия, имя, отчество, ник, "
            "город, клуб, дата рождения, телефон, команда; only the surname is required. Teams the list names "
            "are made. Commas, semicolons or tabs; UTF-8 or Windows-1251; at most 2 MB and 2,000 players."
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
        too_large = _("The list is larger than %(megabytes)s MB, the most read at once; split it.") \
            % {"megabytes": f"{MAX_CSV_BYTES / 1e6:g}"}
        if upload:
            if upload.size is not None and upload.size > MAX_CSV_BYTES:
                raise forms.ValidationError(too_large)
            raw = upload.read(MAX_CSV_BYTES + 1)
            if len(raw) > MAX_CSV_BYTES:
                raise forms.ValidationError(too_large)
            found = decoded(raw)
            if found is None:
                raise forms.ValidationError(_("The file is neither UTF-8 nor Windows-1251 text."))
            data["text"] = text = found
        elif len(text) > MAX_CSV_BYTES:
            raise forms.ValidationError(too_large)
        if not text.strip():
            raise forms.ValidationError(_("Paste a list or choose a file."))
        lines = sum(1 for line in text.splitlines()[1:] if line.strip())
        if lines > MAX_CSV_ROWS:
            raise forms.ValidationError(
                _("The list has %(lines)s lines of players; at most %(most)s are added at once: split it.")
                % {"lines": lines, "most": MAX_CSV_ROWS})
        self.rows = self.parse(text)
        return data

    @staticmethod
    def delimiter(header_line: str) -> str:
        """The delimiter the header line uses most; none (a list of one column, ``surname``): a comma.
        (``csv.Sniffer`` cannot tell the delimiter of a line without one and raised.)"""
        found = max(DELIMITERS, key=header_line.count)
        return found if header_line.count(found) else ","

    def parse(self, text: str) -> list[CsvRow]:
        reader = csv.reader(io.StringIO(text), delimiter=self.delimiter(text.splitlines()[0]))
        try:
            header = [HEADERS.get(header_key(h), h.strip().lower()) for h in next(reader, [])]
        except csv.Error as error:  # a header cell past csv's field limit (131,072 characters)
            raise forms.ValidationError(_("Line 1: %(problem)s") % {"problem": csv_problem(error)}) from None
        unknown = [h for h in header if h not in CSV_COLUMNS]
        if unknown or "surname" not in header:
            raise forms.ValidationError(
                _("Line 1: the header must name columns among %(columns)s, surname included; unknown: %(bad)s")
                % {"columns": f"{', '.join(CSV_COLUMNS)} ({', '.join(RUSSIAN_COLUMNS)})",
                   "bad": ", ".join(unknown) or "—"}
            )
        teams = {t.name: t for t in self.tournament.teams.all()}
        sizes = {t.name: t.members.count() for t in teams.values()}
        limit = team_size_limit(self.tournament)
        rows: list[CsvRow] = []
        line = 1
        while True:
            line += 1
            try:
                cells = next(reader)
            except StopIteration:
                break
            except csv.Error as error:  # a cell past csv's field limit: a bad row, the reader goes on
                rows.append(CsvRow(line, {}, [csv_problem(error, header, reader.line_num, text)]))
                continue
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
                problem = city_problem(self.tournament, form.cleaned_data.get("city") or "")
                if problem:
                    row.errors.append(f"{_('city')}: {problem}")
            team_name = row.values.get("team", "")
            if team_name:
                row.team = teams.get(team_name)
                row.new_team = "" if row.team is not None else team_name
                sizes[team_name] = sizes.get(team_name, 0) + 1
                if limit is not None and sizes[team_name] > limit:
                    row.errors.append(_("team: %(name)s would have more than %(limit)s players, the most this "
                                        "regulation allows") % {"name": team_name, "limit": limit})
            row.form = form
            rows.append(row)
        if not rows:
            raise forms.ValidationError(_("The list has no players."))
        valid = [row for row in rows if row.form is not None and not row.form.errors]
        for row, match in zip(valid, match_many([Typed.of(row.form.cleaned_data) for row in valid if row.form],
                                                self.tournament), strict=True):
            row.match = match
        if not uses_applications(self.tournament):  # applications are counted when they are accepted
            problem = cap_problem(self.tournament, len(rows))
            if problem:
                raise forms.ValidationError(problem)
        return rows

    @property
    def bad_rows(self) -> list[CsvRow]:
        return [row for row in self.rows if row.errors]

    def choose(self, data: QueryDict) -> list[str]:
        """Reads the answers of the preview's matched rows (``player-LINE``); the problems, each naming its line:
        a row not answered, an answer not among its candidates, a player already registered or chosen twice."""
        problems: list[str] = []
        taken: dict[int, str | int] = {}
        for row in self.rows:
            if not row.match.candidates:
                continue
            row.choice = data.get(row.choice_name, "")
            answered, player = answer(row.choice, row.match)
            if not answered:
                problems.append(_("Line %(line)s: choose whether this is one of the players found or a new "
                                  "player.") % {"line": row.line})
                continue
            if player is None:
                continue
            candidate = row.match.candidate(player.pk)
            if candidate and candidate.registered_here:
                problems.append(_("Line %(line)s: %(name)s is registered in this tournament already.")
                                % {"line": row.line, "name": player.display_name})
            elif player.pk in taken:
                problems.append(_("Lines %(first)s and %(line)s are both %(name)s.")
                                % {"first": taken[player.pk], "line": row.line, "name": player.display_name})
            else:
                taken[player.pk] = row.line
                row.player = player
        return problems

    @property
    def verdicts(self) -> dict[str, int]:
        """How many rows are existing players, new ones and undecided, for the preview's summary."""
        counts = {v.value: 0 for v in Verdict}
        for row in self.rows:
            counts[row.match.verdict.value] += 1
        return counts


def csv_problem(error: csv.Error, header: list[str] | None = None, physical_line: int = 0, text: str = "") -> str:
    """What ``csv`` refused in a row, in words; a cell past its field limit is named by its column when the
    line shows which (each cell split at the delimiter)."""
    limit = csv.field_size_limit()
    if "field larger than field limit" not in str(error):
        return _("not a CSV row: %(error)s") % {"error": error}
    column = ""
    if header and physical_line:
        lines = text.split("\n")  # as csv reads the text's lines
        if 0 < physical_line <= len(lines):
            raw = lines[physical_line - 1]
            for delimiter in DELIMITERS:
                cells = raw.split(delimiter)
                long_cells = [i for i, cell in enumerate(cells) if len(cell) > limit]
                if len(cells) > 1 and long_cells and long_cells[0] < len(header):
                    column = header[long_cells[0]]
                    break
            else:
                if len(header) == 1:
                    column = header[0]
    if column:
        return _("%(column)s: a cell of more than %(limit)s characters") % {"column": column, "limit": limit}
    return _("a cell of more than %(limit)s characters") % {"limit": limit}
