"""Results as tables: each stage's standings and the final results, for CSV, XLSX and print.

Everything comes from ``scoring`` through ``public.snapshot.Snapshot`` (the figures the public
standings show). The final results [ours]: the players of the last stage with games in its
order, then those who stopped in the stage before in that stage's order, and so on; a place is
shared by players with the same rank in the stage that placed them. The order is the engine's
(``scoring.standings``): in the final the players not eligible for prize places come after the
eligible ones, so no table lists them above a winner; the disqualified come last of all, with no
place, struck out, with the reason (docs/rules/tournament.md). Every output (print, PDF, CSV,
XLSX) takes these tables, so they all say the same; the places come from ``scoring.places`` (as the series's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _

from public.snapshot import Snapshot, final_done
from running.final import named_winners
from scoring.lots import decided_by_lot
from scoring.metrics import Value
from scoring.model import StageKind
from scoring.places import final_places
from scoring.standings import Standings
from tournaments.labels import chain_columns, metric_label, shows_average, standing_note
from tournaments.models import Stage


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    numeric: bool = False


@dataclass
class ResultTable:
    """One sheet: a title, its columns and its rows (values by column key)."""

    key: str
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]]
    winners: list[str] = field(default_factory=list)
    teams: ResultTable | None = None  # a stage's team table, where the tournament has teams
    champion_teams: list[str] = field(default_factory=list)  # the team competition's champion (tomsk)
    awards: list[AwardLine] = field(default_factory=list)
    heading: str = ""  # the final results' title: a line below the rows in CSV (its first line is the header)


@dataclass(frozen=True)
class AwardLine:
    """An award as the documents print it."""

    title: str
    recipients: str  # names, comma-separated; empty: nobody
    note: str  # "tied", or the reason of a choice by hand


def number_text(value: Value | None) -> str:
    """Exact points as a decimal text: ``2.25``; a repeating fraction to 6 places."""
    if value is None:
        return ""
    f = Fraction(value)
    if f.denominator == 1:
        return str(f.numerator)
    text = f"{float(f):.6f}".rstrip("0")
    return text


def player_columns(snapshot: Snapshot) -> list[Column]:
    cols = [Column("place", _("Place"), True), Column("number", _("No."), True),
            Column("player", _("Player id")), Column("name", _("Player"))]
    if snapshot.model.teams:  # None or empty: no team column
        cols.append(Column("team", _("Team")))
    return cols


def teams_of(snapshot: Snapshot) -> dict[str, str]:
    names = {t.id: t.name for t in snapshot.model.teams or ()}
    return {p.id: names.get(p.team or "", "") for p in snapshot.model.players}


def stage_table(snapshot: Snapshot, stage: Stage) -> ResultTable:
    standings = snapshot.standings(stage.ext_id)
    advance = set(standings.advance)
    teams = teams_of(snapshot)
    columns = [
        *player_columns(snapshot),
        Column("points", _("Points"), True), Column("games", _("Games"), True), Column("wins", _("Wins"), True),
        *metric_columns(standings),
        Column("eligible", _("Ranked")),
    ]
    if advance:
        columns.append(Column("advances", _("Advances")))
    by_lot = decided_by_lot(standings)
    if by_lot:  # only where a draw decided an order: most stages need no such column
        columns.append(Column("by_lot", _("Place by lot")))
    limit = snapshot.ruleset.params.ineligible_after_absences
    rows = []
    for row in standings.rows:
        values: dict[str, Any] = {
            "place": row.rank, "number": snapshot.numbers.get(row.player), "player": row.player,
            "name": row.name, "team": teams.get(row.player, ""), "points": row.points,
            "games": row.tally.games, "wins": row.tally.wins,
            "eligible": _("yes") if row.eligible else _("no"),
            "advances": _("yes") if row.player in advance else "",
            "by_lot": _("by lot") if row.player in by_lot else "",
            "note": standing_note(row, limit, standings.min_games), "disqualified": row.disqualified is not None,
            "average": row.tally.average,
        }
        values.update({f"tb_{m}": row.tiebreaks.get(m) for m in chain_columns(standings.chain, standings.rank_by)})
        rows.append(values)
    if any(row["note"] for row in rows):  # only where someone cannot take a place: the print is narrow
        columns.append(Column("note", _("Note")))
    winners, champions = [], []
    if standings.kind is StageKind.FINAL and final_done(snapshot, stage):
        winners = [snapshot.name(pid) for pid in named_winners(standings, True) or ()]
        names = {t.team: t.name for t in standings.teams or ()}
        champions = [names.get(tid, tid) for tid in standings.champion_teams or ()]
    return ResultTable(stage.ext_id, str(stage), columns, rows, winners, team_table(stage, standings), champions)


def metric_columns(standings: Standings) -> list[Column]:
    """The points per game where they rank the stage, then a column per metric of the chain (``chain_columns``)."""
    # a column's heading, capitalised as its neighbours («Прожито дней» beside «Победы»; the labels are phrases)
    average = [Column("average", capfirst(metric_label("points_average")), True)] \
        if shows_average(standings.rank_by) else []
    return [*average, *(Column(f"tb_{m}", capfirst(metric_label(m)), True)
                        for m in chain_columns(standings.chain, standings.rank_by))]


def team_table(stage: Stage, standings: Standings) -> ResultTable | None:
    """The stage's team table: place, team, points and, with a team competition, who goes on."""
    if not standings.teams:
        return None
    columns = [Column("place", _("Place"), True), Column("team_id", _("Team id")), Column("team", _("Team")),
               Column("points", _("Points"), True)]
    if standings.team_cut is not None:
        columns.append(Column("status", _("Team competition")))
    rows = [{"place": t.rank, "team_id": t.team, "team": t.name, "points": t.points,
             "status": _("goes on") if t.advances else "" if t.contending else _("out of the team competition")}
            for t in standings.teams]
    return ResultTable(f"{stage.ext_id}-teams", _("Teams · %(stage)s") % {"stage": stage}, columns, rows)


def played(snapshot: Snapshot, stage: Stage) -> bool:
    return any(r.games for r in snapshot.model_stage(stage.ext_id).rounds)


def award_lines(snapshot: Snapshot) -> list[AwardLine]:
    """The given awards once the results are final (before that a candidate may still change)."""
    if not snapshot.final_over:
        return []
    return [AwardLine(a.title, ", ".join(a.names),
                      _("tied: not decided yet") if a.tied else (_("chosen by the organizer: %(reason)s")
                                                                 % {"reason": a.reason} if a.by_hand else ""))
            for a in snapshot.awards]


def final_table(snapshot: Snapshot, stages: list[ResultTable]) -> ResultTable:
    """The whole tournament's order: later stages first (see the module's docstring); titled "final results"
    only once the final is over, before that "standings after round N"."""
    by_key = {t.key: t for t in stages}
    placed: set[str] = set()
    rows: list[dict[str, Any]] = []
    disqualified: list[dict[str, Any]] = []  # last of all, from the last stage they played in
    winners: list[str] = []
    champions: list[str] = []
    metrics: dict[str, Column] = {}  # the stages' average and chain columns: each row's values from its stage
    places = {p.player: p.place for p in final_places(snapshot.model, snapshot.standings)}
    for stage in reversed(snapshot.stages):
        if not played(snapshot, stage):
            continue
        table = by_key[stage.ext_id]
        metrics.update((c.key, c) for c in table.columns if is_metric(c.key) and c.key not in metrics)
        winners = winners or table.winners
        champions = champions or table.champion_teams
        fresh = [r for r in table.rows if r["player"] not in placed]
        rows += [{**final_cells(row), "place": places[row["player"]], "stage": table.title}
                 for row in fresh if not row["disqualified"]]
        disqualified += [{**final_cells(row), "place": None, "stage": table.title}
                         for row in fresh if row["disqualified"]]
        placed.update(row["player"] for row in fresh)
    rows += disqualified
    columns = [*player_columns(snapshot), Column("stage", _("Placed by the stage")),
               Column("points", _("Points in that stage"), True), *metrics.values()]
    if any(row["by_lot"] for row in rows):  # the place a lot decided in the stage that placed the player
        columns.append(Column("by_lot", _("Place by lot")))
    if any(row["note"] for row in rows):
        columns.append(Column("note", _("Note")))
    title = snapshot.results_title()
    return ResultTable("final", title, columns, rows, winners, champion_teams=champions,
                       awards=award_lines(snapshot), heading=title)


def is_metric(key: str) -> bool:
    """A stage table's column the final table keeps beside the points: the games and the wins (every regulation's
    chain ranks by one or the other before the metrics: a row placed above another with the same points must show
    why), the points per game, a chain's metric."""
    return key in ("games", "wins", "average") or key.startswith("tb_")


def final_cells(row: dict[str, Any]) -> dict[str, Any]:
    return {c: row.get(c) for c in ("number", "player", "name", "team", "points", "by_lot", "note", "disqualified")} | \
        {key: value for key, value in row.items() if is_metric(key)}


def all_tables(snapshot: Snapshot) -> tuple[ResultTable, list[ResultTable]]:
    """The final results and each stage's standings, in stage order."""
    stages = [stage_table(snapshot, stage) for stage in snapshot.stages]
    return final_table(snapshot, stages), stages
