"""What public pages read: a tournament's published data, loaded once per request.

Everything is computed by ``scoring`` from the adapter's model (a fixed number of queries);
the few facts the model does not hold (participant numbers, stage names, publication times)
come from one query each. Protocol visibility is decided here, in one place.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from exchange.reading import to_model
from running.awards import AwardResult, resolve_awards
from scoring import model as m
from scoring.filejson import dump, from_json
from scoring.standings import Standings, compute_standings
from scoring.tally import ScoredSeat, StageScoring
from tournaments.labels import short_of_games, shows_average
from tournaments.models import Round, RoundState, Stage, Tournament
from tournaments.rules import ruleset_for

from .cache import (
    BUILD_SECONDS,
    MODEL_SECONDS,
    building_lock,
    built_key,
    model_key,
    record_newest,
    release_lock,
    serve_older,
    served,
    take_lock,
    totals_key,
)


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

    @property
    def finished(self) -> bool:
        return bool(self.games) and all(protocol_is_public(g) for g in self.games)


class LocalModels:
    """The last few models this process read, by cache key: reading a model from the shared cache
    builds it again from its kept file (``KeptModel``: 0.06 s for 1,000 players over 12 rounds), and each page of a
    new version needs it. A key names one version, so a model kept here is never stale; it is used only
    while the shared cache still holds it (one cheap existence check), so clearing the cache
    clears this too."""

    def __init__(self, size: int = 2) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.models: OrderedDict[str, m.Tournament] = OrderedDict()

    def get(self, key: str) -> m.Tournament | None:
        with self.lock:
            return self.models.get(key)

    def keep(self, key: str, model: m.Tournament) -> None:
        with self.lock:
            self.models[key] = model
            self.models.move_to_end(key)
            while len(self.models) > self.size:
                self.models.popitem(last=False)


LOCAL_MODELS = LocalModels()


@dataclass(frozen=True)
class KeptModel:
    """A model as the shared cache keeps it: the tournament file's JSON when it reads back equal to the model, the
    model itself otherwise. Every worker reads each version's model once; unpickling the dataclasses of 12,000 seats
    took 0.2 s at 1,000 players × 12 rounds, reading the same model back from its file 0.06 s (bench/README.md)."""

    text: str | None = None
    model: m.Tournament | None = None

    @classmethod
    def of(cls, model: m.Tournament) -> KeptModel:
        text = json.dumps(dump(model), separators=(",", ":"))
        # the file carries everything the public pages read; checked here, once per version, rather than assumed
        return cls(text=text) if from_json(json.loads(text)) == model else cls(model=model)

    def read(self) -> m.Tournament:
        if self.model is not None:
            return self.model
        assert self.text is not None
        return from_json(json.loads(self.text))


class LocalStandings:
    """The last few stages' standings this process computed, by the model object they were computed from (and the
    ruleset's name and parameters): a public page that needs the standings beside the player pages' cached totals
    (``reasons.why_ranked``, the "why am I ranked here?" a player's page loads when opened) then computes them once
    per version and process, not once per request (0.4 s each at 1,000 players × 12 rounds; found by
    bench/tournament_day.py). A model object names one version (``LocalModels``), so standings kept here are never
    stale. Kept in the process only: pickled they are larger and slower to read than to compute."""

    def __init__(self, size: int = 6) -> None:
        self.size = size
        self.lock = threading.Lock()
        self.kept: OrderedDict[tuple[int, str, str], tuple[m.Tournament, Standings]] = OrderedDict()

    def get(self, model: m.Tournament, rules: str, stage: str) -> Standings | None:
        with self.lock:
            found = self.kept.get((id(model), rules, stage))
        return found[1] if found is not None and found[0] is model else None

    def clear(self) -> None:
        with self.lock:
            self.kept.clear()

    def keep(self, model: m.Tournament, rules: str, stage: str, standings: Standings) -> None:
        with self.lock:
            key = (id(model), rules, stage)
            self.kept[key] = (model, standings)
            self.kept.move_to_end(key)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)


LOCAL_STANDINGS = LocalStandings()

def refresh_interval(took: float) -> float:
    """How long after a model was built the next version's is built at the earliest: ``PUBLIC_REFRESH_SECONDS``,
    or longer when building took long (a large event on a busy machine: 1,000 players × 12 rounds take 0.4 s
    alone and seconds beside a hundred judges), so that the builds take at most ``1 / PUBLIC_WORK_SHARE`` of one
    core. None of this in development and tests (0): every change is built at once."""
    from django.conf import settings

    refresh = float(settings.PUBLIC_REFRESH_SECONDS)
    return 0.0 if refresh <= 0 else max(refresh, (settings.PUBLIC_WORK_SHARE - 1) * took)


class Snapshot:
    """One tournament's public data; each part computed on first use."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.hidden = tournament.standings_hidden

    @cached_property
    def model(self) -> m.Tournament:
        """The adapter's model, kept in the shared cache under the results version: after a change
        the first page builds it and every other page (any worker, any server) reuses it."""
        from django.core.cache import cache

        key = model_key(self.tournament)
        model = LOCAL_MODELS.get(key) if cache.has_key(key) else None
        if model is None:
            kept = cache.get(key)
            model = kept.read() if isinstance(kept, KeptModel) else None
        if model is None:
            started = time.monotonic()
            model = to_model(self.tournament)
            cache.set(key, KeptModel.of(model), MODEL_SECONDS)
            self.mark_built(time.monotonic() - started)
        LOCAL_MODELS.keep(key, model)
        return model

    def settle(self) -> None:
        """Chooses the version this request serves: the current one, unless another request is
        building its model, or the last model was built less than ``PUBLIC_REFRESH_SECONDS`` ago;
        then the newest version whose model is built (seconds old at most). So a burst of saved
        protocols has the model built once at a time, and at most that often, not by every worker
        after every protocol. Call it before reading the version. The request that finds the
        current model missing and nobody building it builds it here."""
        from django.core.cache import cache

        if served(self.tournament) is None or cache.has_key(model_key(self.tournament)):
            return
        built = cache.get(built_key(self.tournament))
        took = built[3] if built is not None and len(built) > 3 else 0.0  # a stamp of the release before has none
        if built is not None and time.time() - built[2] < refresh_interval(took):
            serve_older(self.tournament, built)
            return
        building = building_lock(self.tournament)
        if take_lock(building, BUILD_SECONDS, cache):
            try:
                self.model  # noqa: B018 - built and shared now
            finally:
                release_lock(building, cache)
            return
        serve_older(self.tournament, built)

    def mark_built(self, took: float) -> None:
        """Records the version whose model is now in the shared cache, when, and how long it took to build
        (unless a newer one is)."""
        from django.core.cache import cache

        stamp = served(self.tournament)
        record_newest(cache, built_key(self.tournament),
                      None if stamp is None else (*stamp, time.time(), took))

    @cached_property
    def ruleset(self) -> Any:
        return ruleset_for(self.tournament)

    @cached_property
    def stages(self) -> list[Stage]:
        return list(self.tournament.stages.order_by("order"))

    def stage(self, ext_id: str) -> Stage:
        for stage in self.stages:
            if stage.ext_id == ext_id:
                return stage
        raise Http404(ext_id)

    @cached_property
    def numbers(self) -> dict[str, int | None]:
        return dict(self.tournament.participants.values_list("ext_id", "number"))

    @cached_property
    def players(self) -> dict[str, m.Player]:
        return self.model.players_by_id()

    @cached_property
    def rounds(self) -> list[PublishedRound]:
        """Published rounds in order, with their games as the model has them."""
        stages = {s.pk: s for s in self.stages}
        rows = Round.objects.published().filter(stage__tournament=self.tournament)
        out = []
        for stage_pk, number, published_at, starts_at in rows.order_by("stage__order", "number").values_list(
            "stage_id", "number", "published_at", "starts_at"
        ):
            stage = stages[stage_pk]
            games = next((r.games for r in self.model_stage(stage.ext_id).rounds if r.number == number), ())
            out.append(PublishedRound(stage, number, published_at, tuple(sorted(games, key=lambda g: g.table)),
                                      starts_at))
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
        if not hasattr(self, "_standings"):
            self._standings: dict[str, Standings] = {}
        if ext_id not in self._standings:
            self.model_stage(ext_id)
            rules = json.dumps([self.tournament.ruleset, self.tournament.params or {}], sort_keys=True, default=str)
            found = LOCAL_STANDINGS.get(self.model, rules, ext_id)
            if found is None:
                found = compute_standings(self.model, ext_id, self.ruleset)
                LOCAL_STANDINGS.keep(self.model, rules, ext_id, found)
            self._standings[ext_id] = found
        return self._standings[ext_id]

    @cached_property
    def scoring(self) -> StageScoring:
        return StageScoring(self.model, self.ruleset)

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
        game where they rank, and ``min_games`` where the player is short of it), kept in the shared cache under
        the results version: player pages need these few figures, and computing the stage's standings for each
        of a thousand pages after every change would not do."""
        from django.core.cache import cache

        key = totals_key(self.tournament, ext_id)
        data: dict[str, dict[str, Any]] | None = cache.get(key)
        if data is None:
            standings = self.standings(ext_id)
            data = {row.player: {"rank": row.rank, "points": row.points, "eligible": row.eligible,
                                 "disqualified": row.disqualified,
                                 "tally": {"games": row.tally.games, "wins": row.tally.wins},
                                 # the points per game where they rank the stage; short of ``min_games``
                                 "average": row.tally.average if shows_average(standings.rank_by) else None,
                                 "short": standings.min_games if short_of_games(row, standings.min_games) else 0}
                    for row in standings.rows}
            cache.set(key, data, MODEL_SECONDS)
        return data

    @cached_property
    def awards(self) -> list[AwardResult]:
        """The given awards with their recipients (one query; the candidates from the model)."""
        return resolve_awards(self.tournament, self.model)

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


def final_done(snapshot: Snapshot, stage: Stage) -> bool:
    """The final is over when it is closed, or all its rounds (as planned, else as the regulation
    says) are published and played."""
    if stage.closed:
        return True
    planned = stage.planned_rounds or snapshot.ruleset.stage_format(m.StageKind.FINAL).rounds
    played = [r for r in snapshot.rounds if r.stage.pk == stage.pk]
    return len(played) >= planned and all(r.finished for r in played)
