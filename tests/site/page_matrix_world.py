"""The page matrix's tournaments (a world: a tournament imported, the truth scoring computes from its file, the
organizer's and an anonymous client) and the readers of its pages (tables, visible text, points as printed)."""

from __future__ import annotations

import copy
import html as html_lib
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from html.parser import HTMLParser
from typing import Any

from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import fileio
from scoring import model as m
from scoring.generate import generate
from scoring.numbers import format_number
from scoring.standings import Standings, compute_standings
from tests.helpers import example_text

RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


# --- reading pages -------------------------------------------------------------------------------------------


class Tables(HTMLParser):
    """The text of every cell of every ``<table>`` of a page, by the table's id (``""`` when it has none)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.stack: list[str] = []
        self.row: list[str] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            name = dict(attrs).get("id") or ""
            self.stack.append(name)
            self.tables.setdefault(name, [])
        elif tag == "tr" and self.stack:
            self.row = []
        elif tag in ("td", "th") and self.row is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.stack:
            self.stack.pop()
        elif tag in ("td", "th") and self.row is not None and self.cell is not None:
            self.row.append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "tr" and self.row is not None and self.stack:
            self.tables[self.stack[-1]].append(self.row)
            self.row = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(text: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(text)
    return parser.tables


def visible_text(text: str) -> str:
    text = re.sub(r"<(script|style)\b.*?</\1>", " ", text, flags=re.S)
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", " ", text)).split())


def rank_cell(row: Any, decided: frozenset[str], blank: str) -> str:
    """A standings row's rank cell: the rank (``blank`` for the disqualified, who have none), then "by lot" where
    a draw decided the player's order."""
    rank = blank if row.rank is None else str(row.rank)
    if row.player not in decided:
        return rank
    with translation.override("ru"):
        return f"{rank} {translation.gettext('by lot')}"


def ru_points(value: Fraction | int) -> str:
    """Points as a Russian reader sees them on the public pages: ``2,25``, ``−0,5``."""
    return format_number(Fraction(value)).replace("-", "−").replace(".", ",")


def organizer_points(value: Fraction | int) -> str:
    """The organizer's standings print points as the public pages do (the reader's number format)."""
    return ru_points(value)


# --- the tournaments -----------------------------------------------------------------------------------------


@dataclass
class World:
    """One tournament in one state, and what ``scoring`` says of the file it was imported from."""

    label: str
    tournament: Any
    truth: m.Tournament
    standings: dict[str, Standings]
    hidden: bool
    in_play: list[dict[str, Any]]  # the tables of the round in play (no protocol submitted)
    organizer: Client
    anonymous: Client
    pdf: bool = True  # PDFs in this state (WeasyPrint is slow: each world renders them in one of its states)
    rated_as: bool | None = None  # the state the rating was last recomputed in (``page_matrix_beyond.rated``)
    # pages read in this state by URL, for a later check of the same page (the public player page of each
    # player's private page, the file the platforms' documents are made of): read once a state
    answers: dict[str, str] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return str(self.tournament.slug)

    def name(self, pid: str) -> str:
        return next(p.name for p in self.truth.players if p.id == pid)


def source_data(source: str, ruleset: str) -> dict[str, Any]:
    if source == "example":
        return dict(json.loads(example_text(f"{ruleset}-example.json")))
    # a generated tournament of two stages: the first with 2 rounds, the final with 2; guests where allowed
    data = fileio.dump(generate(ruleset, players=24 if ruleset != "zvezdy" else 20, rounds=4, seed=11, stages=2,
                                guests=2 if ruleset == "tomsk" else 0))
    # one player disqualified after playing: every page shows them last, struck out, without a rank
    data["tournament"] = {"name": f"Сгенерированный турнир {ruleset}", "starts": "2025-05-01",
                          "disqualifications": [{"player": "p0003", "reason": "Подсказки ночью",
                                                 "at": "2025-05-01T15:00:00+03:00"}]}
    return dict(data)


def with_round_in_play(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The file with the last round of its last stage with games half played: its other tables seated, no
    result (the file's ``tables_in_play``)."""
    data = copy.deepcopy(data)
    stage = next(s for s in reversed(data["stages"]) if s["rounds"])
    round_ = stage["rounds"][-1]
    games = sorted(round_["games"], key=lambda g: g["table"])
    keep = max(1, len(games) // 2) if len(games) > 1 else 0
    in_play = [{"stage": stage["id"], "round": round_["number"], "table": g["table"],
                "seats": [{"seat": s["seat"], "player": s["player"]} for s in g["seats"]]} for g in games[keep:]]
    round_["games"] = games[:keep]
    data["tournament"] = {**data.get("tournament", {}), "tables_in_play": in_play}
    return data, in_play


def truth_of(data: dict[str, Any]) -> tuple[m.Tournament, dict[str, Standings]]:
    """The file's model and standings. The file's ``tables_in_play`` stay: their players are players of the stage
    with 0 games (with round 1 in play, the players of an unplayed table were missing from the public
    standings, and a truth without them agreed)."""
    model = fileio.load(copy.deepcopy(data))
    return model, {stage.id: compute_standings(model, stage.id) for stage in model.stages}


def first_round_in_play(data: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The file cut to its first stage's round 1, half its tables in play, every later round and stage not played
    yet (their stages without players): the tournament day's first hour."""
    data = copy.deepcopy(data)
    first, *later = data["stages"]
    first["rounds"] = first["rounds"][:1]
    first.pop("lots", None)
    for stage in later:
        stage["rounds"] = []
        for key in ("players", "lots"):
            stage.pop(key, None)
    return with_round_in_play(data)


def ranked_neighbours_by_contract(standings: Standings, player: str) -> set[str]:
    """docs/explain.md, read independently of ``scoring.explain``: the player ranked just above (the nearest above
    those sharing P's rank), the one ranked just below, every player on P's points (or average) and everyone
    sharing P's rank."""
    rows = list(standings.rows)
    index = next(i for i, row in enumerate(rows) if row.player == player)
    mine = rows[index]

    def place(i: int) -> object:
        return ("disqualified", i) if rows[i].rank is None else rows[i].rank

    above = [i for i in range(index) if place(i) != place(index)]
    below = [i for i in range(index + 1, len(rows)) if place(i) != place(index)]
    out = {rows[max(above)].player} if above else set()
    out |= {rows[min(below)].player} if below else set()
    value = (lambda r: r.tally.average) if standings.rank_by == "average" else (lambda r: r.points)
    out |= {r.player for r in rows if value(r) == value(mine)}
    out |= {r.player for r in rows if mine.rank is not None and r.rank == mine.rank}
    return out - {player}


def set_hidden(world: World, hidden: bool, capture: Any) -> None:
    """Through the organizer's button, as on the tournament day (the results version bumps on commit)."""
    with capture(execute=True):
        response = world.organizer.post(reverse("public:standings_visibility", args=[world.slug]),
                                        {"hidden": "1" if hidden else "0"})
    assert response.status_code == 302
    world.tournament.refresh_from_db()
    assert world.tournament.standings_hidden is hidden
    world.hidden = hidden
    world.rated_as = None
    world.answers.clear()


# --- the checks, one per URL name ----------------------------------------------------------------------------

Check = Callable[[World], None]


def get(client: Client, url: str, status: int = 200, **headers: str) -> Any:
    response = client.get(url, headers=headers or None)
    assert response.status_code == status, (url, response.status_code, response.content[:600])
    return response


def page(client: Client, url: str, status: int = 200, **headers: str) -> str:
    response = get(client, url, status, **headers)
    return str(response.content.decode())


def stages_of(world: World) -> Iterator[m.Stage]:
    yield from world.truth.stages


def rounds_of(world: World) -> Iterator[tuple[m.Stage, m.Round]]:
    for stage in world.truth.stages:
        for round_ in stage.rounds:
            yield stage, round_


def seated(world: World, stage: m.Stage, round_: m.Round) -> dict[int, list[str]]:
    """Each table of a round: its players in seat order (played games and tables in play)."""
    tables = {g.table: [s.player for s in sorted(g.seats, key=lambda s: s.seat)] for g in round_.games}
    for t in world.in_play:
        if t["stage"] == stage.id and t["round"] == round_.number:
            tables[t["table"]] = [s["player"] for s in sorted(t["seats"], key=lambda s: s["seat"])]
    return tables
