"""Stage standings, advancement, winners and team tables (docs/rules/tournament.md and each ruleset's page).

``compute_standings`` is the one entry point the CLI, the API and the web pages call.

Who is out of the running [ours, each ruleset's docstring says how its regulation reads]: a player
disqualified from the tournament (``Tournament.disqualified``) keeps their games, so they count in
everyone else's points and tie-breaks, but is ranked after all the others with no rank (``rank is
None``), never goes on and never wins; the next player takes the place. In a final, players not
eligible for awards (fiim's absences) are ranked after the eligible ones: the final's places are the
awards, so the order never puts them above a winner.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from .errors import UnknownStage
from .metrics import METRICS, Value
from .model import Side, Stage, StageKind, Tournament
from .numbers import to_json_number
from .ranking import TIER_FACTS, RankingStep, lot_key, primary_key, rank_in_tiers, tier_facts, tier_key
from .rulesets import Ruleset
from .tally import PlayerTally, ScoredGames, StageScoring
from .teams import TeamRow, team_table
from .validation import ruleset_for


@dataclass(frozen=True)
class StandingRow:
    rank: int | None  # None: disqualified, not ranked
    player: str
    name: str
    eligible: bool  # may receive an award: False for the disqualified too
    tally: PlayerTally
    tiebreaks: Mapping[str, Value | None]
    disqualified: str | None = None  # the reason ("" when none was given); None: not disqualified

    @property
    def points(self) -> Fraction:
        return self.tally.points


@dataclass(frozen=True)
class Standings:
    ruleset: str
    stage: str
    kind: StageKind
    chain: tuple[str, ...]
    rows: tuple[StandingRow, ...]
    teams: tuple[TeamRow, ...] | None
    advance: tuple[str, ...]
    winners: tuple[str, ...] | None
    # The team competition (tomsk 4.5), where the ruleset has one: how many teams this stage sends on, which
    # (in team-table order), and the champion team(s) once the final has a result.
    team_cut: int | None = None
    team_advance: tuple[str, ...] = ()
    champion_teams: tuple[str, ...] | None = None
    rank_by: str = "points"  # what ranks the stage before the chain (``Params.rank_by``)
    min_games: int = 0  # fewer games: ranked after everyone else (``Params.min_games``)
    lots: tuple[str, ...] = ()  # the stage's lots as the ranking used them (``ranking_steps``)

    def row(self, player: str) -> StandingRow | None:
        for row in self.rows:
            if row.player == player:
                return row
        return None


def without_seats(standings: Standings) -> Standings:
    """The standings with each tally's scored seats left out: everything a table of them shows (ranks, points,
    games, wins, the tie-break values already computed, the notes) and ``standings_json`` reads, at a tenth of the
    size, so one process ranks a stage and the others read the result (a thousand players: 17 ms to read against
    0.35 s to rank). What reads the seats (``explain_standings``, ``decided_by_lot``, the role metrics) needs the
    whole standings."""
    return replace(standings, rows=tuple(replace(row, tally=replace(row.tally, seats=[])) for row in standings.rows))


def default_stage(tournament: Tournament) -> Stage:
    """The last stage that has a game with a result, else the first stage (docs/command-line.md)."""
    for stage in reversed(tournament.stages):
        if any(game.has_result for round_ in stage.rounds for game in round_.games):
            return stage
    return tournament.stages[0]


def compute_standings(tournament: Tournament, stage_id: str | None = None,
                      ruleset: Ruleset | None = None, scored_games: ScoredGames | None = None) -> Standings:
    """The standings of one stage (default: ``default_stage``). The tournament must be valid. ``scored_games``: the
    games scored before, for a caller that ranks the same tournament again after a change (``ScoredGames``)."""
    if not tournament.stages:
        raise UnknownStage(stage_id or "(none)")
    if stage_id is None:
        stage = default_stage(tournament)
    else:
        try:
            stage = tournament.stage(stage_id)
        except KeyError:
            raise UnknownStage(stage_id) from None
    if ruleset is None:
        ruleset, _ = ruleset_for(tournament)
    scoring = StageScoring(tournament, ruleset, scored_games)
    players = tournament.players_by_id()
    ranked = [pid for pid in tournament.stage_participants(stage) if not (pid in players and players[pid].guest)]
    tallies = scoring.tallies(scoring.window(stage), ranked)
    wins = scoring.side_wins_so_far(stage)
    chain = ruleset.chain(black_wins=wins[Side.BLACK], red_wins=wins[Side.RED])
    kind = scoring.kind(stage)
    absences = scoring.absences_so_far(stage)
    limit = ruleset.params.ineligible_after_absences
    disqualified = tournament.disqualified()
    eligible = {pid: pid not in disqualified and (limit is None or absences[pid] < limit) for pid in ranked}
    if "previous_stage_rank" in chain:
        _set_previous_ranks(tournament, stage, ruleset, tallies, scored_games)
    tiers = _tiers(ranked, eligible, disqualified, kind, _short_of_games(tallies, ruleset.params.min_games))
    order, values = rank_in_tiers(tiers, tallies, chain, stage.lots or (), _primary(ruleset))
    rows = tuple(
        StandingRow(
            rank=None if pid in disqualified else rank,
            player=pid,
            name=players[pid].name if pid in players else pid,
            eligible=eligible[pid],
            tally=tallies[pid],
            tiebreaks={metric: values[pid].get(metric) for metric in chain},
            disqualified=disqualified.get(pid),
        )
        for rank, pid in order
    )
    teams = team_table(tournament, {row.player: row.points for row in rows}, ruleset.team_advance.get(kind),
                       _team_contenders(tournament, stage, ruleset, scored_games), _has_result(stage))
    return Standings(
        ruleset=ruleset.id,
        stage=stage.id,
        kind=kind,
        chain=chain,
        rows=rows,
        teams=teams.rows,
        advance=tuple(_advancing(scoring, stage, kind, rows)),
        winners=_winners(ruleset, stage, kind, rows),
        team_cut=teams.cut,
        team_advance=teams.advance,
        champion_teams=(teams.best if ruleset.team_advance and kind is StageKind.FINAL and _has_result(stage)
                        else None),
        rank_by=ruleset.params.rank_by,
        min_games=ruleset.params.min_games,
        lots=tuple(stage.lots or ()),
    )


def _primary(ruleset: Ruleset) -> Callable[[PlayerTally], Value]:
    return primary_key(ruleset.params.rank_by)


def _short_of_games(tallies: Mapping[str, PlayerTally], min_games: int) -> frozenset[str]:
    """The players with fewer games than ``min_games``: ranked after everyone else, in their own order."""
    if not min_games:
        return frozenset()
    return frozenset(pid for pid, tally in tallies.items() if tally.games < min_games)


def _set_previous_ranks(tournament: Tournament, stage: Stage, ruleset: Ruleset,
                        tallies: Mapping[str, PlayerTally], scored_games: ScoredGames | None = None) -> None:
    """Each tally's place in the previous stage's standings (metric ``previous_stage_rank``); a first stage,
    or a player not ranked there, has none."""
    index = tournament.stage_index(stage.id)
    if index == 0:
        return
    previous = compute_standings(tournament, tournament.stages[index - 1].id, ruleset, scored_games)
    for row in previous.rows:
        if row.player in tallies:
            tallies[row.player].previous_rank = row.rank


def _tiers(ranked: Sequence[str], eligible: Mapping[str, bool], disqualified: Mapping[str, str],
           kind: StageKind, short_of_games: frozenset[str] = frozenset()) -> list[list[str]]:
    """The groups ranked one after another (``tier_key``): the disqualified last; before them, the players with
    fewer games than ``min_games``; in a final, the players not eligible for awards after the eligible ones (see
    the module's docstring)."""
    keys = {pid: tier_key(tier_facts(kind, pid in disqualified, eligible[pid], pid in short_of_games))
            for pid in ranked}
    return [[pid for pid in ranked if keys[pid] == key] for key in sorted(set(keys.values()), reverse=True)]


def ranking_steps(standings: Standings, row: StandingRow) -> list[RankingStep]:
    """Every comparison that ordered ``row`` in ``standings``, in the order the ranking makes them: the tiers
    (``tier_key``), the ranking value (``primary_key``), the chain's metrics (``Metric.order_key`` of the values the
    ranking kept in ``row.tiebreaks``; a per-group metric's value is the one of the group still tied there), the
    lots (``lot_key``). Two players are ordered by the first step whose keys differ; none: they share a rank."""
    facts = tier_facts(standings.kind, row.disqualified is not None, row.eligible,
                       row.disqualified is None and row.tally.games < standings.min_games)
    keys = tier_key(facts)
    steps = [RankingStep(name, fact, (key,)) for name, fact, key in zip(TIER_FACTS, facts, keys, strict=True)]
    primary = primary_key(standings.rank_by)(row.tally)
    steps.append(RankingStep("average" if standings.rank_by == "average" else "points", primary, (primary,)))
    for metric_id in standings.chain:
        value = row.tiebreaks.get(metric_id)
        steps.append(RankingStep(metric_id, value, (METRICS[metric_id].order_key(value),)))
    lot_place = {pid: index for index, pid in enumerate(standings.lots)}
    place = lot_place.get(row.player)
    steps.append(RankingStep("lots", None if place is None else place + 1, lot_key(lot_place, row.player)))
    return steps


def _has_result(stage: Stage) -> bool:
    return any(game.has_result for round_ in stage.rounds for game in round_.games)


def _team_contenders(tournament: Tournament, stage: Stage, ruleset: Ruleset,
                     scored_games: ScoredGames | None = None) -> frozenset[str] | None:
    """The teams still in the team competition at ``stage``: those the previous stage's team cut sent on
    (carried through a stage without a cut); None: every team (a first stage, or no team competition)."""
    index = tournament.stage_index(stage.id)
    if index == 0 or not ruleset.team_advance or not tournament.teams:
        return None
    previous = compute_standings(tournament, tournament.stages[index - 1].id, ruleset, scored_games)
    if previous.team_cut is not None and previous.team_advance:
        return frozenset(previous.team_advance)
    return frozenset(row.team for row in previous.teams or () if row.contending)


def _advancing(scoring: StageScoring, stage: Stage, kind: StageKind, rows: Sequence[StandingRow]) -> list[str]:
    """Who goes on (docs/rules/tournament.md), in standings order; a final advances nobody."""
    rule = advance_rule(stage, kind, scoring.ruleset)
    if rule is None:
        return []
    mode, count = rule
    if mode == "top":
        # Competition ranks make an unbreakable tie at the cut let every tied player through.
        # The disqualified have no rank: the next player takes their place.
        return [row.player for row in rows if row.rank is not None and row.rank <= count]
    # per_game K: a player goes on when fewer than K ranked players of one of their games with a
    # result in this stage rank above them (tomsk 4.6, 4.7); a disqualified player has no rank, so
    # the next of their game takes their place.
    rank_of = {row.player: row.rank for row in rows if row.rank is not None}
    qualified: set[str] = set()
    for round_ in stage.rounds:
        for game in round_.games:
            if not game.has_result:
                continue
            ranks = sorted(rank_of[seat.player] for seat in game.seats if seat.player in rank_of)
            for seat in game.seats:
                rank = rank_of.get(seat.player)
                if rank is not None and bisect_left(ranks, rank) < count:
                    qualified.add(seat.player)
    return [row.player for row in rows if row.player in qualified]


def advance_rule(stage: Stage, kind: StageKind, ruleset: Ruleset) -> tuple[str, int] | None:
    """How the stage sends players on: ``("top", N)`` or ``("per_game", K)``, the stage's own or its kind's; None:
    nobody (a final, or a format without one)."""
    if kind is StageKind.FINAL:
        return None
    advance = stage.advance
    return (advance.mode, advance.count) if advance else ruleset.stage_format(kind).advance


def _winners(ruleset: Ruleset, stage: Stage, kind: StageKind,
             rows: Sequence[StandingRow]) -> tuple[str, ...] | None:
    """The tournament's winners once the final has a game with a result; else None."""
    games = [(round_.number, game.table, game) for round_ in stage.rounds for game in round_.games
             if game.has_result]
    if kind is not StageKind.FINAL or not games:
        return None
    eligible = [row for row in rows if row.eligible]
    if ruleset.winners_rule == "last_game_side":
        _, _, last = max(games, key=lambda item: (item[0], item[1]))
        side = {seat.player for seat in last.seats if seat.effective_side == last.winner}
        winners = [row.player for row in eligible if row.player in side]
        limit = ruleset.params.max_winners
        return tuple(winners[:limit] if limit is not None else winners)
    if not eligible:
        return ()
    best = eligible[0].rank  # eligible players are ranked first in a final (``_tiers``)
    return tuple(row.player for row in eligible if row.rank == best)


def standings_json(standings: Standings) -> dict[str, object]:
    """The standings JSON of docs/command-line.md."""
    out: dict[str, object] = {
        "ruleset": standings.ruleset,
        "stage": standings.stage,
        "standings": [
            {
                "rank": row.rank,
                "player": row.player,
                "name": row.name,
                "points": to_json_number(row.points),
                "games": row.tally.games,
                "wins": row.tally.wins,
                **({"average": to_json_number(row.tally.average)} if standings.rank_by == "average" else {}),
                "eligible": row.eligible,
                "tiebreaks": {name: _json_value(value) for name, value in row.tiebreaks.items()},
                # Only on a disqualified player's row (with "rank": null): the others' rows keep their keys.
                **({"disqualified": True, "reason": row.disqualified} if row.disqualified is not None else {}),
                # Only on the row of a player short of ``min_games``, ranked after the others.
                **({"short_of_games": True} if row.disqualified is None and row.tally.games < standings.min_games
                   else {}),
            }
            for row in standings.rows
        ],
    }
    if standings.teams is not None:
        out["teams"] = [{"rank": t.rank, "team": t.team, "name": t.name, "points": to_json_number(t.points)}
                        for t in standings.teams]
        if standings.team_cut is not None:
            out["team_cut"] = standings.team_cut
            out["team_advance"] = list(standings.team_advance)
        if standings.champion_teams is not None:
            out["champion_teams"] = list(standings.champion_teams)
    if standings.winners is not None:
        out["winners"] = list(standings.winners)
    return out


def _json_value(value: Value | None) -> int | float | None:
    if value is None:
        return None
    if isinstance(value, int):
        return value
    return to_json_number(value)
