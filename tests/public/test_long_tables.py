"""The long tables written in Python (``public/long_tables.py``) are the HTML the template language wrote, to the
byte, for every branch a row can take (disqualified with a reason, not eligible, too few games, a need, by lot,
names with markup, fractions, blank metrics, the hidden rest), in both languages; the reference is the template
text the pages used before, kept here."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from django.template import engines
from django.utils import translation

from public import long_tables

ROW_TEMPLATE = (
    '{% load i18n public_tags %}'
    '{% for row in rows %}{% if forloop.counter0 == rest_from %}</tbody><tbody id="standings-rest" hidden>{% endif %}'
    '<tr{% if row.classes %} class="{{ row.classes }}"{% endif %}><td>{{ row.rank|default_if_none:"" }}</td><td>'
    '{% if row.disqualified %}<s>{% endif %}<a{% if row.nickname %} data-nick="{{ row.nickname }}"{% endif %} '
    'href="{% url \'public:player\' slug row.player %}">{{ row.name }}</a>{% if row.disqualified %}</s>{% endif %}'
    '{% if row.number %} <span class="nr">{{ row.number }}</span>{% endif %}{% if row.by_lot %} <span class="badge '
    'text-bg-info by-lot" title="{% translate \'the order among the tied players was drawn by lot\' %}">'
    '{% translate "by lot" %}</span>{% endif %}{% if row.disqualified %} <span class="badge text-bg-danger '
    'disqualified" title="{{ row.note }}">{% translate "disqualified" %}</span>{% if row.reason %} <span '
    'class="small standing-note">{{ row.reason }}</span>{% endif %}{% elif not row.eligible %} <span class="badge '
    'text-bg-warning" title="{{ row.note }}">{% translate "not eligible" %}</span>{% endif %}{% if row.short %} '
    '<span class="badge text-bg-secondary short-of-games" title="{{ row.note }}">{% translate "too few games" %}'
    '</span>{% endif %}{% if row.need.badge and not row.disqualified %} <span class="need need-{{ row.need.status }}"'
    ' title="{{ row.need.words }}">{{ row.need.badge }}</span>{% endif %}</td><td>{{ row.points|points }}</td><td>'
    '{{ row.games }}</td><td>{{ row.wins }}</td>{% if average %}<td>{{ row.average|points }}</td>{% endif %}'
    '{% for value in row.tiebreaks %}<td>{{ value|points }}</td>{% endfor %}</tr>\n{% endfor %}'
)
SEATING_TEMPLATE = (
    '{% load i18n %}{% for number, seats in tables %}\n'
    '  <div class="col table-card"><div class="card"><div class="card-body p-2">\n'
    '    <h3 class="h6 d-flex justify-content-between">{% blocktranslate %}Table {{ number }}{% endblocktranslate %}\n'
    '      {% if number in played %}<a class="small tap py-0" href="{% url \'public:game\' slug stage round_number '
    'number %}">{% translate "protocol" %}</a>{% endif %}</h3>\n'
    '    <table class="table table-sm mb-0 seat-table"><tbody>\n'
    '      {% for p in seats %}<tr><td class="seat-no">{{ p.seat }}</td><td><a href="{% url \'public:player\' slug '
    'p.player %}">{{ p.name }}</a>{% if p.nickname %} <span class="text-secondary small">«{{ p.nickname }}»</span>'
    '{% endif %}</td></tr>{% endfor %}\n'
    '    </tbody></table>\n'
    '  </div></div></div>\n'
    '  {% endfor %}'
    '|{% for p in alphabetical %}<tr><td>{{ p.name }}{% if p.number %} <span class="text-secondary small">'
    '{{ p.number }}</span>{% endif %}</td>\n'
    '    {% if p.table %}<td class="text-end">{{ p.table }}</td><td class="text-end">{{ p.seat }}</td>{% else %}'
    '<td colspan="2" class="text-end text-secondary">{% translate "bye" %}</td>{% endif %}</tr>{% endfor %}'
)


def row(n: int, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "rank": n, "player": f"p{n}", "name": f"Игрок {n}", "number": n, "nickname": None, "points": Fraction(5, 2),
        "games": 10, "wins": 6, "eligible": True, "by_lot": False, "disqualified": False, "note": "", "short": False,
        "average": Fraction(1, 4), "reason": "", "classes": "", "tiebreaks": [Fraction(-1, 2), None, Fraction(1, 15)],
    }
    return {**base, **fields}


ROWS = [
    row(1, classes="table-success", nickname='Ёж "колючий" <b>', by_lot=True,
        need=SimpleNamespace(badge="✓", status="safe", words='Safe & "sound"')),
    row(2, name="O'Brien & <Co>", number=None, eligible=False, note="ineligible: 3 absences"),
    row(3, rank=None, disqualified=True, reason="6.3 «Г»: <угрозы>", note="dq",
        classes="disqualified-row text-secondary", need=SimpleNamespace(badge="!", status="out", words="out of reach")),
    row(4, short=True, note="too few", need=SimpleNamespace(badge="", status="open", words="")),
    row(5, points=Fraction(-3), average=None, tiebreaks=[]),
    row(1000, player="p 1000&ё", points=Fraction(100)),
]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("rest_from", [None, 2])
@pytest.mark.parametrize("average", [True, False])
def test_standings_rows_are_the_templates_html(language: str, rest_from: int | None, average: bool) -> None:
    with translation.override(language):
        reference = engines["django"].from_string(ROW_TEMPLATE).render(
            {"rows": ROWS, "slug": "open-2026", "rest_from": rest_from, "average": average})
        ours = long_tables.standings_rows(ROWS, "open-2026", rest_from, average)
    assert ours == reference
    assert "&lt;b&gt;" in ours and "&quot;колючий&quot;" in ours and "<Co>" not in ours


@dataclass(frozen=True)
class Place:
    table: int | None
    seat: int | None
    number: int | None
    player: str
    name: str
    nickname: str


@pytest.mark.parametrize("language", ["ru", "en"])
def test_seating_tables_are_the_templates_html(language: str) -> None:
    seats = [Place(1, n, n, f"p{n}", f"<Игрок> {n}", "Ёж & ко" if n == 2 else "") for n in range(1, 11)]
    other = [Place(7, n, None, f"q{n}", f"Q {n}", "") for n in range(1, 11)]
    bye = Place(None, None, 99, "p99", "O'Bye", "")
    tables = [(1, seats), (7, other)]
    alphabetical = [bye, *seats]
    with translation.override(language):
        reference = engines["django"].from_string(SEATING_TEMPLATE).render(
            {"tables": tables, "played": {7}, "slug": "open-2026", "stage": "final", "round_number": 3,
             "alphabetical": alphabetical})
        ours = (long_tables.seating_tables(tables, {7}, "open-2026", "final", 3) + "|"
                + long_tables.seating_alphabetical(alphabetical))
    assert ours == reference
    assert "/p/open-2026/games/final/3/7/" in ours and "&lt;Игрок&gt;" in ours


PLAYER_ROWS_TEMPLATE = (
    '{% load i18n public_tags %}{% for e in entries %}\n  <tr>\n    <td>{{ e.round }}</td>\n'
    '    {% if e.kind == "game" %}\n    <td>{% if e.result == "pending" %}{{ e.table }}{% else %}'
    '<a class="tap" href="{% url \'public:game\' slug stage e.round e.table %}'
    '">{{ e.table }}</a>{% endif %}</td><td>{{ e.seat }}</td>\n    <td>{{ e.role|default:"" }}</td>\n'
    '    <td>{% if e.result == "won" %}<span class="text-success">{% translate "won" %}'
    '</span>{% elif e.result == "lost" %}{% translate "lost" %}{% else %}'
    '<span class="text-secondary">{% translate "not yet" %}</span>{% endif %}</td>\n    {% if not hidden %}'
    '<td>{% if e.points %}<strong>{{ e.points.total|points }}</strong>\n      {% if e.points.parts %}'
    '<div class="small text-secondary">{% for label, value in e.points.parts %}'
    '{{ label }} {{ value|signed }}{% if not forloop.last %}, {% endif %}{% endfor %}'
    '{% if e.points.multiplier != 1 %}; × {{ e.points.multiplier|points }}{% endif %}</div>{% endif %}'
    '{% endif %}</td>{% endif %}\n    {% else %}\n    <td colspan="4">{% if e.kind == "bye" %}'
    '{% translate "bye" %}{% elif e.kind == "absent" %}{% translate "absent" %}{% else %}'
    '{% translate "penalty" %}{% if e.reason %}: {{ e.reason }}{% endif %}{% endif %}</td>\n'
    '    {% if not hidden %}<td>{{ e.value|signed }}</td>{% endif %}\n    {% endif %}\n  </tr>\n'
    '  {% endfor %}'
)


def entry(round_: int, kind: str = "game", **fields: Any) -> dict[str, Any]:
    return {"round": round_, "kind": kind, **fields}


PLAYER_ENTRIES = [
    entry(1, table=3, seat=7, role="Шериф", result="won",
          points={"parts": [("Победа", Fraction(1)), ("Доп. <баллы>", Fraction(-1, 3)), ("Ci", Fraction(0))],
                  "multiplier": Fraction(3, 2), "total": Fraction(7, 4)}),
    entry(2, table=10, seat=1, role="Мирный", result="lost",
          points={"parts": [], "multiplier": 1, "total": Fraction(0)}),
    entry(3, table=4, seat=2, role=None, result="pending", points=None),
    entry(4, table=5, seat=9, role="Дон", result="won", points={"parts": [("Win", Fraction(1))], "multiplier": 1,
                                                              "total": Fraction(1)}),
    entry(5, kind="bye", value=Fraction(1, 2)),
    entry(6, kind="absent", value=Fraction(-1)),
    entry(7, kind="penalty", value=Fraction(-1, 2), reason='Фол «4» & <b>"спор"</b>'),
    entry(7, kind="penalty", value=Fraction(0), reason=""),
]


@pytest.mark.parametrize("language", ["ru", "en"])
@pytest.mark.parametrize("hidden", [False, True])
def test_player_games_rows_are_the_templates_html(language: str, hidden: bool) -> None:
    with translation.override(language):
        reference = engines["django"].from_string(PLAYER_ROWS_TEMPLATE).render(
            {"entries": PLAYER_ENTRIES, "slug": "open-2026", "stage": "s-1", "hidden": hidden})
        ours = long_tables.player_games_rows(PLAYER_ENTRIES, "open-2026", "s-1", hidden)
    assert ours == reference
    assert ("/p/open-2026/games/s-1/4/5/" in ours) and "/games/s-1/3/4/" not in ours  # no link while in play
    assert "&lt;b&gt;&quot;спор&quot;&lt;/b&gt;" in ours and ("Доп. &lt;баллы&gt;" in ours) is not hidden
