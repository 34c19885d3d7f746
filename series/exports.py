"""The series standings as CSV and XLSX: one table, as the results exports write theirs (``paper.spreadsheets``,
a layer above: the same conventions, written here). In CSV, a Russian reader gets ``;`` and a decimal comma, text
that a spreadsheet would take for a formula a leading ``'``; in XLSX numbers are numbers and text always text."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE, Cell
from openpyxl.styles import Font

from scoring.numbers import format_number
from tournaments.labels import local_number

from .labels import tiebreak_label
from .services import SeriesTable

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def table_rows(table: SeriesTable) -> tuple[list[str], list[list[Any]]]:
    """The header and the rows: place, player, points, tournaments played, each counted tournament's points
    (blank where the player has no place; a result beyond the best N is text saying it is not counted), the chain."""
    counted = table.counted
    header = [_("Place"), _("Player"), _("Points"), _("Tournaments"), *(c.tournament.name for c in counted),
              *(tiebreak_label(t) for t in table.series.tiebreaks)]
    rows = []
    for row in table.rows:
        cells: list[Any] = [row.rank, table.players[row.player].full_name, row.points, row.played]
        for column in counted:
            result = row.results.get(column.tournament.pk)
            cells.append(None if result is None else result.points if result.counted
                         else _("%(points)s (not counted)") % {"points": local_number(result.points)})
        cells += [row.tiebreaks[t] for t in table.series.tiebreaks]
        rows.append(cells)
    return header, rows


def csv_cell(value: Any, decimal: str) -> str:
    if value is None:
        return ""
    if isinstance(value, Fraction | int):
        return format_number(Fraction(value)).replace(".", decimal)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def to_csv(table: SeriesTable) -> str:
    separator, decimal = (";", ",") if (get_language() or "").startswith("ru") else (",", ".")
    header, rows = table_rows(table)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=separator)
    writer.writerow([csv_cell(h, decimal) for h in header])
    writer.writerows([csv_cell(v, decimal) for v in row] for row in rows)
    return "\ufeff" + out.getvalue()


def xlsx_cell(sheet: Any, value: Any) -> Cell:
    if isinstance(value, Fraction):
        value = int(value) if value.denominator == 1 else float(value)
    if isinstance(value, int | float):
        return Cell(sheet, value=value)  # type: ignore[call-arg]  # row and column: None by default (not in the stubs)
    cell = Cell(sheet, value=ILLEGAL_CHARACTERS_RE.sub("\ufffd", "" if value is None else str(value)))  # type: ignore[call-arg]  # as above
    cell.data_type = "s"
    return cell


def to_xlsx(table: SeriesTable) -> bytes:
    header, rows = table_rows(table)
    book = Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = _("Series standings")[:31]
    sheet.append([xlsx_cell(sheet, h) for h in header])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([xlsx_cell(sheet, v) for v in row])
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
