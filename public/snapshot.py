"""What public pages read: a tournament's published data, loaded once per request.

Everything is computed by ``scoring`` from the adapter's model (a fixed number of queries);
the few facts the model does not hold (participant numbers, stage names, publication times)
come from one query each. Protocol visibility is decided here, in one place.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from exchange.reading import to_model
from running.awards import AwardResult, award_tallies, resolve_awards
from running.final import final_over, round_played, rounds_in_play, tables_in_play
from scoring import model as m
from scoring.lots import decided_by_lot
from scoring.standings import Standings, compute_standings, without_seats
from scoring.tally import ScoredSeat, StageScoring
from tournaments.labels import short_of_games, shows_average
from tournaments.models import Round, RoundState, Stage, Tournament
from tournaments.rules import ruleset_for

from . import model_cache


def protocol_is_public(game: m.Game) -> bool:
    """Players and spectators see a protocol once it has a result."""
    return game.has_result


@dataclass(frozen=True)
class PublishedRound:
    stage: Stage
    number: int
    published_at: Any
    games: tuple[m.Game, ...]
    starts_at: Any = None
    in_play: bool = False  # a table of it is still in play (the model holds only the games with a result)

    @property
    def finished(self) -> bool:
        return round_played(self.games, self.in_play)  # a game with a result is public (protocol_is_public)


class Snapshot:
    """One tournament's public data; each part computed on first use."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.hidden = tournament.standings_hidden
        self._kept: model_cache.LocalModel | None = None

    @property
    def kept(self) -> model_cache.LocalModel:
        """The adapter's model of the version served and what this process computed from it
        (``public.model_cache``): after a change the first page builds it, every other page reuses it. For a
        tournament no request settled (a player's private page, a results document), the loaded version's, built
        under the build lock or waited for (``model_cache.newest``). Kept by hand, not a ``cached_property``: on
        Python 3.11 that holds one lock for every instance while it computes, and this may wait for another
        worker's build."""
        if self._kept is None:
            self._kept = (model_cache.model_of(self.tournament, self.build) if model_cache.settled(self.tournament)
                          else model_cache.newest(self.tournament, self.build, self.prepare))
        return self._kept

    @property
    def model(self) -> m.Tournament:
        return self.kept.model

    def settle(self) -> None:
        """Chooses the version this request serves (``model_cache.settle``): call it before reading the version."""
        model_cache.settle(self.tournament, self.build, self.prepare)

    def build(self) -> m.Tournament:
        return to_model(self.tournament)

    def prepare(self, kept: model_cache.LocalModel) -> None:
        """What the pages of a version read from its ranking (each stage's table standings, who was placed by lot,
        the players' totals), computed by the request that builds the model under the build lock (``settle``'s or
        ``newest``'s), before the model is shared. The requests that settle meanwhile serve the version before and
        wait for no ranking: on a tournament day the first pages of every version in every worker waited for one
        worker to rank (a 1,000-player stage: a few hundred milliseconds, every second)."""
        # this request's model from now on: asked through ``kept``, the model (not shared yet) would be built again
        self._kept = kept
        if self.hidden:
            return  # the public sees no ranking: nothing to compute ahead
        for stage in kept.model.stages:
            self.table_standings(stage.id)
            self.decided_by_lot(stage.id)
            self.totals(stage.id)

    @cached_property
    def ruleset(self) -> Any:
        return ruleset_for(self.tournament)

    @cached_property
    def stages(self) -> list[Stage]:
        """The stages in order. Once this process has the version's model, from their rows read once per version
        and process (renaming, closing or planning a stage bumps the version), as new instances for each request:
        the public pages are rendered again for every version, and this was a query on each. Without the model at
        hand (a page that does not read it, a version not built yet) they are read as before, building nothing."""
        if not model_cache.current(self.tournament) or (  # 0: a version never bumped
                self._kept is None and not model_cache.has_model(self.tournament)):
            return list(self.tournament.stages.order_by("order"))
        names = [field.attname for field in Stage._meta.concrete_fields]
        rows = model_cache.derived(self.kept, "stage-rows", lambda: list(
            self.tournament.stages.order_by("order").values_list(*names)))
        stages = [Stage.from_db(self.tournament._state.db, names, row) for row in rows]
        for stage in stages:
            stage.tournament = self.tournament  # as the related manager's rows have it: no query to reach it
        return stages

    def stage(self, ext_id: str) -> Stage:
        for stage in self.stages:
            if stage.ext_id == ext_id:
                return stage
        raise Http404(ext_id)

    @cached_property
    def numbers(self) -> dict[str, int | None]:
        """Each participant's number: once per model and process (a thousand rows; a renumbering bumps the version)."""
        return model_cache.derived(self.kept, "numbers",
                                   lambda: dict(self.tournament.participants.values_list("ext_id", "number")))

    @cached_property
    def players(self) -> dict[str, m.Player]:
        return self.model.players_by_id()

    @cached_property
    def rounds(self) -> list[PublishedRound]:
        """Published rounds in order, with their games as the model has them."""
        stages = {s.pk: s for s in self.stages}
        rows = Round.objects.published().filter(stage__tournament=self.tournament)
        in_play = rounds_in_play(self.model)
        out = []
        for stage_pk, number, published_at, starts_at in rows.order_by("stage__order", "number").values_list(
            "stage_id", "number", "published_at", "starts_at"
        ):
            stage = stages[stage_pk]
            games = next((r.games for r in self.model_stage(stage.ext_id).rounds if r.number == number), ())
            out.append(PublishedRound(stage, number, published_at, tuple(sorted(games, key=lambda g: g.table)),
                                      starts_at, (stage.ext_id, number) in in_play))
        return out

    @cached_property
    def scheduled(self) -> dict[int, list[tuple[int, Any]]]:
        """Rounds not published yet that have a start time: (number, time) by stage pk. Their
        seating stays private; only that they are planned, and when, is public."""
        rows = Round.objects.filter(stage__tournament=self.tournament, starts_at__isnull=False).exclude(
            state=RoundState.PUBLISHED)
        out: dict[int, list[tuple[int, Any]]] = {}
        for stage_pk, number, starts_at in rows.order_by("number").values_list("stage_id", "number", "starts_at"):
            out.setdefault(stage_pk, []).append((number, starts_at))
        return out

    def current_rounds(self) -> tuple[PublishedRound | None, PublishedRound | None]:
        """The round being played (the first published one not finished, else the last) and the
        next one when it is published already."""
        rounds = self.rounds
        if not rounds:
            return None, None
        index = next((i for i, r in enumerate(rounds) if not r.finished), len(rounds) - 1)
        return rounds[index], rounds[index + 1] if index + 1 < len(rounds) else None

    def model_stage(self, ext_id: str) -> m.Stage:
        try:
            return self.model.stage(ext_id)
        except KeyError:
            raise Http404(ext_id) from None

    def default_stage(self) -> Stage | None:
        """The last stage with a result, else the first (as the standings command chooses)."""
        for stage in reversed(self.stages):
            if any(protocol_is_public(g) for r in self.model_stage(stage.ext_id).rounds for g in r.games):
                return stage
        return self.stages[0] if self.stages else None

    def standings(self, ext_id: str) -> Standings:
        """The stage's whole standings, each tally with its scored seats: what "why am I ranked here?" and the
        documents read; ranked once per version in each process that asks. The tables read ``table_standings``."""
        self.model_stage(ext_id)
        return model_cache.derived(self.kept, f"standings:{self.rules_key}:{ext_id}",
                                   lambda: compute_standings(self.model, ext_id, self.ruleset,
                                                             model_cache.scored_games_for(self.kept)))

    def table_standings(self, ext_id: str) -> Standings:
        """The stage's standings without the tallies' seats (``without_seats``): all the standings tables, the
        hall screen, the API and the players' totals show. Ranked once per version by one worker and read by the
        others from the shared cache, so a new version costs the workers one ranking, not one each."""
        self.model_stage(ext_id)
        return model_cache.shared(self.tournament, self.kept, f"table-standings:{self.rules_key}:{ext_id}",
                                  lambda: without_seats(self.standings(ext_id)))

    def decided_by_lot(self, ext_id: str) -> frozenset[str]:
        """The players whose place among equals a lot decided (it ranks the stage again from the whole standings:
        once per version, shared like ``table_standings``)."""
        self.model_stage(ext_id)
        return model_cache.shared(self.tournament, self.kept, f"by-lot:{self.rules_key}:{ext_id}",
                                  lambda: decided_by_lot(self.standings(ext_id)))

    @cached_property
    def rules_key(self) -> str:
        return json.dumps([self.tournament.ruleset, self.tournament.params or {}], sort_keys=True, default=str)

    @cached_property
    def scoring(self) -> StageScoring:
        """The model's scoring, kept with the model in this process: what it computes once (a stage's first kills
        for fiim's Ci, every game of the stage) serves every player's page of the version."""
        return model_cache.derived(self.kept, f"scoring:{self.rules_key}",
                                   lambda: StageScoring(self.model, self.ruleset,
                                                        model_cache.scored_games_for(self.kept)))

    def games_of(self, player: str) -> dict[tuple[str, int], list[tuple[m.Game, m.Seat]]]:
        """The player's games with a result and their seat in each, by (stage, round), in table order: every
        player's found in one pass over the model's seats, once per version and process (a player's page looked
        through a thousand-player tournament's 12,000 seats for its own dozen)."""
        return model_cache.derived(self.kept, "games-by-player", self.games_by_player).get(player, {})

    def games_by_player(self) -> dict[str, dict[tuple[str, int], list[tuple[m.Game, m.Seat]]]]:
        found: dict[str, dict[tuple[str, int], list[tuple[m.Game, m.Seat]]]] = {}
        for stage in self.model.stages:
            for round_ in stage.rounds:
                for game in round_.games:
                    for seat in game.seats:
                        found.setdefault(seat.player, {}).setdefault((stage.id, round_.number), []).append(
                            (game, seat))
        return found

    def seated_in_play(self, player: str) -> dict[tuple[str, int], list[tuple[int, int]]]:
        """Where the player sits at a table still in play, by (stage, round): (table, seat) pairs in table order,
        from the model's tables in play, so of the same version as the rest of the page; every player's found in
        one pass, once per version and process (it was a query on every player's page)."""
        return model_cache.derived(self.kept, "in-play-by-player", lambda: in_play_by_player(self.model)).get(
            player, {})

    def scored_seat(self, ext_id: str, round_: int, table: int, player: str) -> ScoredSeat | None:
        """One player's scored seat in one game (None without a result): scored as
        ``StageScoring.scored_seats`` scores it, without scoring the whole stage for one page."""
        stage = self.model_stage(ext_id)
        for r in stage.rounds:
            if r.number != round_:
                continue
            for game in r.games:
                if game.table != table or not game.has_result:
                    continue
                for seat in game.seats:
                    if seat.player == player:
                        return self.scoring.score_seat(stage, round_, game, seat)
        return None

    def totals(self, ext_id: str) -> dict[str, dict[str, Any]]:
        """Rank, points, games, wins and eligibility of each player of a stage's standings (with the points per
        game where they rank, and ``min_games`` where the player is short of it), computed once per version by one
        worker and shared: player pages need these few figures, a thousand of them after every change."""
        return model_cache.shared(self.tournament, self.kept, f"totals:{self.rules_key}:{ext_id}",
                                  lambda: self.compute_totals(ext_id))

    def compute_totals(self, ext_id: str) -> dict[str, dict[str, Any]]:
        standings = self.table_standings(ext_id)
        return {row.player: {"rank": row.rank, "points": row.points, "eligible": row.eligible,
                             "disqualified": row.disqualified,
                             "tally": {"games": row.tally.games, "wins": row.tally.wins},
                             # the points per game where they rank the stage; short of ``min_games``
                             "average": row.tally.average if shows_average(standings.rank_by) else None,
                             "short": standings.min_games if short_of_games(row, standings.min_games) else 0}
                for row in standings.rows}

    def awards_when_final(self) -> list[AwardResult] | None:
        """``awards`` once the results are final, else None; the awards' rows are read either way (a page's queries
        do not depend on the tournament's state), but their candidates only when shown: their tallies score every
        seat of the tournament (0.6 s for 1,000 players, per worker and version)."""
        if self.final_over:
            return self.awards
        resolve_awards(self.tournament, self.model, candidates=False)
        return None

    @cached_property
    def awards(self) -> list[AwardResult]:
        """The given awards with their recipients (one query; the candidates from the model)."""
        tallies = model_cache.derived(self.kept, "award-tallies", lambda: award_tallies(self.model))
        return resolve_awards(self.tournament, self.model, tallies=tallies)

    @cached_property
    def final_over(self) -> bool:
        """Whether the results are final: the last stage is a final (by kind or position) and it is over, or the
        organizer closed the last stage (a tournament of one stage)."""
        if not self.stages:
            return False
        last = self.stages[-1]
        if last.closed:
            return True
        return self.scoring.kind(self.model_stage(last.ext_id)) is m.StageKind.FINAL and final_done(self, last)

    @cached_property
    def rounds_played(self) -> int:
        """Rounds with a game with a result, every stage counted: "standings after round N"."""
        return sum(1 for stage in self.model.stages for r in stage.rounds if any(g.has_result for g in r.games))

    def results_title(self) -> str:
        """"Final results" once the final is over, else "Standings after round N" (docs/rules/awards.md)."""
        if self.final_over:
            return _("Final results")
        if not self.rounds_played:
            return _("Standings")
        return _("Standings after round %(n)s") % {"n": self.rounds_played}

    def name(self, player: str) -> str:
        p = self.players.get(player)
        return p.name if p else player

    def alphabetical(self, players: list[str]) -> list[str]:
        return sorted(players, key=lambda pid: (self.name(pid).casefold(), pid))


def in_play_by_player(model: m.Tournament) -> dict[str, dict[tuple[str, int], list[tuple[int, int]]]]:
    """Player → (stage, round) → their (table, seat) at each table the model's file lists as still in play."""
    found: dict[str, dict[tuple[str, int], list[tuple[int, int]]]] = {}
    for table in tables_in_play(model):
        if not (isinstance(table.get("table"), int) and isinstance(table.get("seats"), list)):
            continue
        for seat in table["seats"]:
            if isinstance(seat, dict) and isinstance(seat.get("player"), str) and isinstance(seat.get("seat"), int):
                found.setdefault(seat["player"], {}).setdefault((table["stage"], table["round"]), []).append(
                    (table["table"], seat["seat"]))
    return found


def final_done(snapshot: Snapshot, stage: Stage) -> bool:
    """The final is over (``running.final.final_over``), from the rounds published."""
    return final_over(stage, snapshot.ruleset, [r.finished for r in snapshot.rounds if r.stage.pk == stage.pk])
