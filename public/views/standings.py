"""Standings of a stage: ranks, points, the tie-break columns, the qualification line, teams,
winners; while standings are hidden, only the stage's players in alphabetical order."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from running.final import named_winners
from scoring.model import StageKind
from scoring.rulesets import Ruleset
from scoring.teams import cut_line_after
from tournaments.labels import (
    METRIC_SHORT,
    chain_columns,
    metric_label,
    short_of_games,
    short_of_games_note,
    shows_average,
    standing_note,
)
from tournaments.models import Stage
from tournaments.summaries import HOW_TIES

from ..explanations import needs_legend, needs_of, rounds_left
from ..snapshot import Snapshot, final_done
from .base import PublicTournamentView


def stage_players(snapshot: Snapshot, stage: Stage) -> list[str]:
    # with a round in play, its seated players too: the hidden standings list them as the open ones do
    players = snapshot.model.stage_participants(snapshot.model_stage(stage.ext_id))
    if not players and stage == snapshot.stages[0]:
        players = [p.id for p in snapshot.model.players]
    return snapshot.alphabetical(players)


def how_ties(ruleset: Ruleset, chain: tuple[str, ...], rank_by: str) -> str:
    """The chain in words: the regulation's own text where it has one and the tournament keeps its chain."""
    if ruleset.params.tiebreaks is None and ruleset.id in HOW_TIES:
        return str(HOW_TIES[ruleset.id])
    steps = ", ".join(metric_label(metric) for metric in chain)
    if not steps:
        return _("equal places are drawn by lots.")
    if rank_by == "average":
        return _("equal averages are broken by %(steps)s, then by lots.") % {"steps": steps}
    return _("equal points are broken by %(steps)s, then by lots.") % {"steps": steps}


def standings_context(snapshot: Snapshot, stage: Stage) -> dict[str, Any]:
    standings = snapshot.table_standings(stage.ext_id)
    # Before the stage's first result everyone has 0 points: the engine's cut would mark the first N by number
    # as going on, which no game decided.
    played = any(row.tally.games for row in standings.rows)
    advance = set(standings.advance) if played else set()
    prefix = 0
    while prefix < len(standings.rows) and standings.rows[prefix].player in advance:
        prefix += 1
    line_after = prefix if prefix and prefix == len(advance) and prefix < len(standings.rows) else None
    columns = chain_columns(standings.chain, standings.rank_by)
    by_lot = snapshot.decided_by_lot(stage.ext_id)
    limit = snapshot.ruleset.params.ineligible_after_absences
    # The engine lists the disqualified last, without a rank, and leaves them out of ``advance``.
    team_names = {team.team: team.name for team in standings.teams or ()}
    players = snapshot.players
    rows = [
        {
            "rank": row.rank, "player": row.player, "name": row.name, "number": snapshot.numbers.get(row.player),
            # searched by "find me" (static/js/find-me.js), not shown: a data- attribute of the name's link
            "nickname": players[row.player].nickname if row.player in players else None,
            "points": row.points, "games": row.tally.games, "wins": row.tally.wins, "eligible": row.eligible,
            "advances": row.player in advance, "by_lot": row.player in by_lot,
            "disqualified": row.disqualified is not None, "note": standing_note(row, limit, standings.min_games),
            "short": short_of_games(row, standings.min_games), "average": row.tally.average,
            "reason": row.disqualified or "",  # beside the "disqualified" badge: the reason alone
            "line": index + 1 == line_after,
            # None where a metric does not apply (head-to-head outside a tied group): the filter shows it blank
            "tiebreaks": [row.tiebreaks.get(metric) for metric in columns],
        }
        for index, row in enumerate(standings.rows)
    ]
    for row_ in rows:  # the row's classes, one attribute or none (a thousand rows: no empty class="")
        row_["classes"] = " ".join(name for name, on in (
            ("table-success", row_["advances"]), ("qualification-line", row_["line"]),
            ("disqualified-row text-secondary", row_["disqualified"])) if on)
    named = named_winners(standings, standings.kind is StageKind.FINAL and final_done(snapshot, stage))
    winners = None if named is None else [snapshot.name(pid) for pid in named]
    return {
        "rows": rows,
        "chain": [(METRIC_SHORT.get(m, m), metric_label(m)) for m in columns],
        # the points per game where they rank the stage: a column after the wins, in the legend first
        "average": ((METRIC_SHORT["points_average"], metric_label("points_average"))
                    if shows_average(standings.rank_by) else None),
        "teams": standings.teams,
        "team_line": cut_line_after(standings.teams),
        "team_cut": standings.team_cut,
        "champion_teams": (None if standings.champion_teams is None or not final_done(snapshot, stage)
                           else [team_names.get(tid, tid) for tid in standings.champion_teams]),
        "winners": winners,
        "how_ties": how_ties(snapshot.ruleset, standings.chain, standings.rank_by),
        "advance_count": len(advance),
        "any_result": played, "before_games": not played and standings.kind is not StageKind.FINAL,
        "any_ineligible": any(not row["eligible"] for row in rows),
        "any_by_lot": bool(by_lot),
        "short_note": short_of_games_note(standings.min_games) if any(row["short"] for row in rows) else "",
    }


# The rows a standings page shows at first: a phone styles and lays out a thousand rows in seconds, so
# the rest wait, unstyled, in a hidden part of the table that "Show all" (or "find me") opens; ``?all=1`` shows them
# all at once, without a script.
FIRST_ROWS = 100
MOST_TIE_ROWS = 50


def rest_from(rows: list[dict[str, Any]]) -> int | None:
    """Where the hidden part of a long table begins: after ``FIRST_ROWS`` rows and the rest of the tie at the last
    of them (a group of equal places is not split, up to ``MOST_TIE_ROWS`` more: before the first game everyone
    shares the first place), or None when the table is not longer."""
    index, most = FIRST_ROWS, min(len(rows), FIRST_ROWS + MOST_TIE_ROWS)
    while index < most and rows[index]["rank"] is not None and rows[index]["rank"] == rows[index - 1]["rank"]:
        index += 1
    return index if index < len(rows) else None


class StandingsView(PublicTournamentView):
    page_template = "public/standings_page.html"  # page.html with "find me" (static/js/find-me.js)
    fragment_template = "public/standings.html"
    live = True
    tab = "standings"
    query_keys = ("all",)

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        snapshot = self.snapshot
        stage = snapshot.stage(kwargs["stage"]) if kwargs.get("stage") else snapshot.default_stage()
        context: dict[str, Any] = {"stage": stage, "stages": snapshot.stages}
        if stage is None:
            return context
        if snapshot.hidden:
            players = stage_players(snapshot, stage)
            known = snapshot.players
            context["players"] = [(snapshot.numbers.get(pid), pid, snapshot.name(pid),
                                   known[pid].nickname if pid in known else None) for pid in players]
            return context
        context.update(standings_context(snapshot, stage))
        if self.request.GET.get("all") != "1":
            context["rest_from"] = rest_from(context["rows"])
        answers = needs_of(snapshot, stage)  # while rounds are left: safe, out of reach, the points needed
        for row in context["rows"]:
            row["need"] = answers.get(row["player"]) if answers else None
        shown_needs = [row["need"] for row in context["rows"] if row["need"] and row["need"].badge]
        left = rounds_left(snapshot, stage)
        if shown_needs and left:
            context["needs_legend"] = needs_legend(shown_needs[0].target, left, {n.status for n in shown_needs})
        if stage == snapshot.default_stage():
            context["results_title"] = snapshot.results_title()
            awards = snapshot.awards_when_final()
            if awards is not None:
                context["awards"] = awards
        return context
