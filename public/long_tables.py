"""The long lists of the public pages written as HTML here, not in the template language: the standings' rows and
the seating's tables. The template language costs about a millisecond a row of a dozen cells (each variable
resolved, escaped and localized through several layers, a URL reversed per link), which a 1,000-player table and
an 84-table seating multiply into most of a page's render (bench/README.md "Cheaper long tables"); built here they
cost a tenth. The HTML is the one the templates wrote before, to the byte; everything is escaped as the templates
escape it (``escape``), and every word is translated as they translated it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction
from typing import Any
from urllib.parse import quote

from django.urls import reverse
from django.utils.formats import get_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from tournaments.fields import exact_text

# What ``reverse`` leaves unquoted in a path (RFC 3986's sub-delimiters and ``/~:@``), so a link built from a
# pattern is the link ``{% url %}`` writes.
PATH_SAFE = "!$&'()*+,;=/~:@"
MARK = "9081726354"


def link_maker(name: str, last: str, **fixed: Any) -> Callable[[object], str]:
    """``reverse(name, kwargs={**fixed, last: value})``, escaped for an attribute, for many values at the cost of one
    reverse: the path is reversed once with a mark for the last part (digits, which every converter takes), then
    the mark is replaced; where the mark would be ambiguous, each value is reversed."""
    pattern = reverse(name, kwargs={**fixed, last: MARK})
    if pattern.count(MARK) != 1:
        return lambda value: escape(reverse(name, kwargs={**fixed, last: value}))
    before, after = pattern.split(MARK)
    return lambda value: escape(before + quote(str(value), safe=PATH_SAFE) + after)


def number_writer() -> Callable[[Fraction | int | None], str]:
    """``labels.local_number`` with the reader's separator read once, each value written once per render."""
    separator = str(get_format("DECIMAL_SEPARATOR"))
    written: dict[Fraction | int, str] = {}

    def write(value: Fraction | int | None) -> str:
        if value is None:
            return ""
        text = written.get(value)
        if text is None:
            text = written[value] = exact_text(Fraction(value)).replace("-", "−").replace(".", separator)
        return text

    return write


def text(value: object) -> str:
    """A value as ``{{ value }}`` writes it: escaped; numbers as they are (no thousands separator here)."""
    return escape(value)


def standings_rows(rows: Iterable[Mapping[str, Any]], slug: str, rest_from: int | None, average: bool) -> SafeString:
    """The standings table's rows (``public/standings.html``), the hidden part from ``rest_from`` on."""
    link = link_maker("public:player", "player", slug=slug)
    number = number_writer()
    by_lot = (f' <span class="badge text-bg-info by-lot" title="'
              f'{escape(gettext("the order among the tied players was drawn by lot"))}">{escape(gettext("by lot"))}'
              f'</span>')
    disqualified, not_eligible, too_few = (escape(gettext("disqualified")), escape(gettext("not eligible")),
                                           escape(gettext("too few games")))
    out: list[str] = []
    for index, row in enumerate(rows):
        if index == rest_from:
            out.append('</tbody><tbody id="standings-rest" hidden>')
        out.append(f'<tr class="{text(row["classes"])}">' if row["classes"] else "<tr>")
        rank = row["rank"]
        out.append(f'<td>{"" if rank is None else text(rank)}</td><td>')
        out.append("<s>" if row["disqualified"] else "")
        nick = f' data-nick="{text(row["nickname"])}"' if row["nickname"] else ""
        out.append(f'<a{nick} href="{link(row["player"])}">{text(row["name"])}</a>')
        out.append("</s>" if row["disqualified"] else "")
        if row["number"]:
            out.append(f' <span class="nr">{text(row["number"])}</span>')
        if row["by_lot"]:
            out.append(by_lot)
        if row["disqualified"]:
            out.append(f' <span class="badge text-bg-danger disqualified" title="{text(row["note"])}">'
                       f'{disqualified}</span>')
            if row["reason"]:
                out.append(f' <span class="small standing-note">{text(row["reason"])}</span>')
        elif not row["eligible"]:
            out.append(f' <span class="badge text-bg-warning" title="{text(row["note"])}">{not_eligible}</span>')
        if row["short"]:
            out.append(f' <span class="badge text-bg-secondary short-of-games" title="{text(row["note"])}">'
                       f'{too_few}</span>')
        need = row.get("need")
        if need is not None and need.badge and not row["disqualified"]:
            out.append(f' <span class="need need-{text(need.status)}" title="{text(need.words)}">'
                       f'{text(need.badge)}</span>')
        out.append(f'</td><td>{number(row["points"])}</td><td>{text(row["games"])}</td><td>{text(row["wins"])}</td>')
        if average:
            out.append(f'<td>{number(row["average"])}</td>')
        out.extend(f"<td>{number(value)}</td>" for value in row["tiebreaks"])
        out.append("</tr>\n")
    return mark_safe("".join(out))  # every value above is escaped


def seating_tables(tables: Iterable[tuple[int, Iterable[Any]]], played: set[int], slug: str, stage: str,
                   round_number: int) -> SafeString:
    """The seating's cards, a table each with its seats (``public/seating.html``)."""
    player = link_maker("public:player", "player", slug=slug)
    game = link_maker("public:game", "table", slug=slug, stage=stage, number=round_number)
    protocol = escape(gettext("protocol"))
    out: list[str] = []
    for number, seats in tables:
        out.append('\n  <div class="col table-card"><div class="card"><div class="card-body p-2">\n'
                   f'    <h3 class="h6 d-flex justify-content-between">'
                   f'{escape(gettext("Table %(number)s") % {"number": number})}\n      ')
        if number in played:
            out.append(f'<a class="small tap py-0" href="{game(number)}">{protocol}</a>')
        out.append('</h3>\n    <table class="table table-sm mb-0 seat-table"><tbody>\n      ')
        for place in seats:
            nick = (f' <span class="text-secondary small">«{text(place.nickname)}»</span>' if place.nickname else "")
            out.append(f'<tr><td class="seat-no">{text(place.seat)}</td><td><a href="{player(place.player)}">'
                       f'{text(place.name)}</a>{nick}</td></tr>')
        out.append("\n    </tbody></table>\n  </div></div></div>\n  ")
    return mark_safe("".join(out))  # every value above is escaped


def seating_alphabetical(places: Iterable[Any]) -> SafeString:
    """The seating's alphabetical list: name, number, table and seat (or a bye)."""
    bye = escape(gettext("bye"))
    out: list[str] = []
    for place in places:
        number = f' <span class="text-secondary small">{text(place.number)}</span>' if place.number else ""
        where = (f'<td class="text-end">{text(place.table)}</td><td class="text-end">{text(place.seat)}</td>'
                 if place.table else f'<td colspan="2" class="text-end text-secondary">{bye}</td>')
        out.append(f"<tr><td>{text(place.name)}{number}</td>\n    {where}</tr>")
    return mark_safe("".join(out))  # every value above is escaped


def player_games_rows(entries: Iterable[Mapping[str, Any]], slug: str, stage: str, hidden: bool) -> SafeString:
    """A player's rows of one stage (``public/player.html``): each game with its table, seat, role, result and the
    points broken down (hidden with the standings), each bye, absence and penalty. A player's page is rendered
    again for every results version a reader asks for (about 200 pages a version on a busy day), so its rows are
    written here too."""
    number = number_writer()

    def signed(value: Fraction | int) -> str:
        written = number(value)
        return written if written.startswith("−") or value == 0 else f"+{written}"

    won, lost, not_yet = escape(gettext("won")), escape(gettext("lost")), escape(gettext("not yet"))
    out: list[str] = []
    for entry in entries:
        out.append(f'\n  <tr>\n    <td>{text(entry["round"])}</td>\n    ')
        if entry["kind"] == "game":
            result = entry["result"]
            if result == "pending":
                table = text(entry["table"])
            else:
                link = escape(reverse("public:game", kwargs={"slug": slug, "stage": stage,
                                                             "number": entry["round"], "table": entry["table"]}))
                table = f'<a class="tap" href="{link}">{text(entry["table"])}</a>'
            outcome = (f'<span class="text-success">{won}</span>' if result == "won" else lost if result == "lost"
                       else f'<span class="text-secondary">{not_yet}</span>')
            out.append(f'\n    <td>{table}</td><td>{text(entry["seat"])}</td>\n    <td>{text(entry["role"] or "")}'
                       f'</td>\n    <td>{outcome}</td>\n    ')
            if not hidden:
                out.append("<td>")
                points = entry["points"]
                if points:
                    out.append(f'<strong>{number(points["total"])}</strong>\n      ')
                    if points["parts"]:
                        parts = ", ".join(f"{text(label)} {signed(value)}" for label, value in points["parts"])
                        times = f'; × {number(points["multiplier"])}' if points["multiplier"] != 1 else ""
                        out.append(f'<div class="small text-secondary">{parts}{times}</div>')
                out.append("</td>")
        else:
            kind, what = entry["kind"], ""
            if kind == "bye":
                what = escape(gettext("bye"))
            elif kind == "absent":
                what = escape(gettext("absent"))
            else:
                reason = f': {text(entry["reason"])}' if entry.get("reason") else ""
                what = f'{escape(gettext("penalty"))}{reason}'
            out.append(f'\n    <td colspan="4">{what}</td>\n    ')
            if not hidden:
                out.append(f'<td>{signed(entry["value"])}</td>')
        out.append("\n    \n  </tr>\n  ")
    return mark_safe("".join(out))  # every value above is escaped
