"""A result table as CSV (UTF-8 with a BOM, so spreadsheet programs read Cyrillic) and tables as
an XLSX workbook (openpyxl), one sheet each; points as exact decimal text in CSV, numbers in XLSX.

A CSV is written for its reader's language: in Russian separated by ``;`` with a decimal comma (``2,25``), as
Excel in a Russian locale reads it (a ``,`` file opens there as one column); in English by ``,`` with a point.
Its first line is the header (a spreadsheet program or a script takes it for the columns' names); below the rows,
each block after an empty line: the final results' title with the winners and the champion team under it (as the
PDF and the XLSX have them), the awards, and a ``notice`` (the organizer's copy of hidden standings: "not for
publication"; the file's name says "not-for-publication" too); in XLSX the notice comes first, above the header,
on every sheet.

Text is never a formula (a player named ``=HYPERLINK(...)``): every cell goes through
``csv_cell`` or ``xlsx_cell``. In CSV a text cell starting with ``= + - @``, a tab or a carriage return
gets a leading ``'`` (OWASP's advice; our own numbers, such as ``-0.5``, are written as they are); in
XLSX every text cell is stored as a string, exactly as it is, and numbers as numbers."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from typing import Any

from django.utils.translation import get_language, gettext
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from .results import ResultTable, number_text


def cell_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, Fraction | int) and not isinstance(value, bool):
        return number_text(value)
    return str(value)


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def is_number(value: Any) -> bool:
    return isinstance(value, Fraction | int | float) and not isinstance(value, bool)


def csv_cell(value: Any, decimal: str = ".") -> str:
    """A CSV cell: a number as exact decimal text (``decimal``: the separator of the reader's language); text
    that a spreadsheet program would read as a formula with a leading ``'``."""
    if value is None:
        return ""
    if is_number(value):
        return number_text(value).replace(".", decimal)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def csv_dialect() -> tuple[str, str]:
    """(the separator, the decimal separator) of a CSV for the current language: ``;`` and ``,`` in Russian."""
    return (";", ",") if (get_language() or "").startswith("ru") else (",", ".")


def to_csv(table: ResultTable, notice: str = "") -> str:
    separator, decimal = csv_dialect()
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator)
    writer.writerow([csv_cell(c.label) for c in table.columns])
    for row in table.rows:
        writer.writerow([csv_cell(row.get(c.key), decimal) for c in table.columns])
    # below the rows, as the PDF and XLSX have them: the title heading the winners and the champion team
    summary = [[line] for line in (table.heading,) if line]
    if table.winners:
        summary.append([gettext("Winners"), ", ".join(table.winners)])
    if table.champion_teams:
        summary.append([gettext("Champion team"), ", ".join(table.champion_teams)])
    if summary:
        writer.writerow([])
        writer.writerows([csv_cell(cell) for cell in line] for line in summary)
    if table.awards:
        writer.writerow([])
        writer.writerow([csv_cell(gettext("Award")), csv_cell(gettext("Recipient")), csv_cell(gettext("Note"))])
        for award in table.awards:
            writer.writerow([csv_cell(award.title), csv_cell(award.recipients), csv_cell(award.note)])
    if notice:
        writer.writerow([])
        writer.writerow([csv_cell(notice)])
    return "\ufeff" + out.getvalue()


def cell_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else float(value)
    return "" if value is None else value


def xlsx_cell(sheet: Any, value: Any) -> Cell:
    """A worksheet cell: a number as a number, anything else as a string (never a formula, whatever
    it starts with); characters a workbook's XML cannot hold become U+FFFD."""
    value = cell_value(value)
    if is_number(value):
        return Cell(sheet, value=value)  # type: ignore[call-arg]  # row and column: None by default (not in the stubs)
    cell = Cell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("\ufffd", str(value)))  # type: ignore[call-arg]  # as above
    cell.data_type = "s"
    return cell


def append(sheet: Any, values: list[Any]) -> None:
    sheet.append([xlsx_cell(sheet, v) for v in values])


def sheet_title(title: str, used: set[str]) -> str:
    """Excel's rules: at most 31 characters, none of ``[]:*?/\\``, unique in the workbook."""
    base = re.sub(r"[\[\]:*?/\\]", " ", title).strip()[:31] or "Sheet"
    name, n = base, 2
    while name.casefold() in used:
        suffix = f" ({n})"
        name, n = base[: 31 - len(suffix)] + suffix, n + 1
    used.add(name.casefold())
    return name


def awards_sheet(book: Any, table: ResultTable, used: set[str]) -> None:
    sheet = book.create_sheet(sheet_title(gettext("Awards"), used))
    append(sheet, [gettext("Award"), gettext("Recipient"), gettext("Note")])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for award in table.awards:
        append(sheet, [award.title, award.recipients, award.note])
    for letter in "ABC":
        sheet.column_dimensions[letter].width = 40


def to_xlsx(tables: list[ResultTable], notice: str = "") -> bytes:
    """A sheet per table, then the stages' team tables, each on its own sheet."""
    book = Workbook()
    book.remove(book.worksheets[0])  # the empty sheet a new workbook has
    used: set[str] = set()
    for table in tables + [t.teams for t in tables if t.teams is not None]:
        sheet = book.create_sheet(sheet_title(table.title, used))
        if notice:
            append(sheet, [notice])
            sheet["A1"].font = Font(bold=True, color="C00000")
        append(sheet, [c.label for c in table.columns])
        header = sheet.max_row
        for cell in sheet[header]:
            cell.font = Font(bold=True)
        for row in table.rows:
            append(sheet, [row.get(c.key) for c in table.columns])
        for index, column in enumerate(table.columns, start=1):
            width = max([len(column.label)] + [len(cell_text(r.get(column.key))) for r in table.rows])
            sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 6), 50)
        sheet.freeze_panes = f"A{header + 1}"
        if table.winners:
            sheet.append([])
            append(sheet, [gettext("Winners"), ", ".join(table.winners)])
        if table.champion_teams:
            append(sheet, [gettext("Champion team"), ", ".join(table.champion_teams)])
        if table.awards:
            awards_sheet(book, table, used)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
