"""Each tournament's final places as the series reads them, kept in the cache under the tournament's results version.

A tournament's places come from ``scoring.places`` over the standings ``scoring`` computes from the adapter's model
(``exchange.reading.to_model``): the same figures as the results documents. They are kept under a key naming the
tournament's results version (bumped after every committed change the public can see, ``public.versioning``), so
a series page reads them from the cache, one query for all its tournaments, and never a stale copy; only the
tournaments whose version changed are read again.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.core.cache import cache
from django.db.models import Count, Q

from base.release import release
from exchange.reading import to_model
from games.models import GameState
from scoring import model as m
from scoring.places import final_places
from scoring.standings import Standings, compute_standings
from tournaments.models import Participant, Round, Stage, Tournament
from tournaments.rules import ruleset_for

CACHE_SECONDS = 24 * 3600  # a key names one version: it may live long


@dataclass(frozen=True)
class TournamentPlaces:
    """Who took which place (``tournaments.Player`` pk → place), and whether the results are final."""

    tournament: int
    over: bool
    places: dict[int, int]

    @property
    def players(self) -> int:
        return len(self.places)


def places_key(tournament: Tournament) -> str:
    """Its id and creation time (a database recreated beside the same cache never meets old keys), the moment its
    results version was reached (nor one restored from an older backup) and the version. The tournament is loaded
    with ``select_related("results_version")``; before its first change it has none (version 0)."""
    version = getattr(tournament, "results_version", None)
    number = version.version if version is not None else 0
    reached = version.updated.timestamp() if version is not None and version.updated else 0
    created = tournament.created.timestamp() if tournament.created else 0
    return f"series-places:{release()}:{tournament.pk}.{created}.{reached}:{number}"


def tournament_places(tournaments: Iterable[Tournament]) -> dict[int, TournamentPlaces]:
    """The places of each tournament (loaded with ``select_related("results_version")``), from the cache or
    read now (a fixed number of queries per tournament read)."""
    tournaments = list(tournaments)
    keys = {t.pk: places_key(t) for t in tournaments}
    found: dict[str, TournamentPlaces] = cache.get_many(list(keys.values()))
    out = {}
    for tournament in tournaments:
        places = found.get(keys[tournament.pk])
        if places is None:
            places = read_places(tournament)
            cache.set(keys[tournament.pk], places, CACHE_SECONDS)
        out[tournament.pk] = places
    return out


def read_places(tournament: Tournament) -> TournamentPlaces:
    model = to_model(tournament)
    ruleset = ruleset_for(tournament)
    computed: dict[str, Standings] = {}

    def standings_of(stage: str) -> Standings:
        if stage not in computed:
            computed[stage] = compute_standings(model, stage, ruleset)
        return computed[stage]

    people = dict(Participant.objects.filter(tournament=tournament).values_list("ext_id", "player_id"))
    places = {people[p.player]: p.place for p in final_places(model, standings_of) if p.player in people}
    return TournamentPlaces(tournament.pk, is_over(tournament, model), places)


def may_be_over(tournament: Tournament) -> bool:
    """Whether ``is_over`` may say yes, read from the rows alone (``last_stage_over``). Every result confirmed in a
    tournament's last stage asks whether the results are now final (``notices.tasks.game_confirmed``); without
    this, each read the whole model and ranked the stage (a 1,000-player tournament: about a quarter of the
    machine's CPU while its last round ended: bench/README.md)."""
    return last_stage_over(tournament) is not False


def last_stage_over(tournament: Tournament) -> bool | None:
    """From the rows, in two small queries: True when the organizer closed the last stage; None when it is a
    final (by kind, or last of several stages) with its planned rounds published and every table of them with a
    submitted or confirmed protocol (whether each has a result, the model says); False otherwise."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("order")
                  .values_list("pk", "kind", "closed", "planned_rounds"))
    if not stages:
        return False
    pk, kind, closed, planned = stages[-1]
    if closed:
        return True
    if m.kind_at(m.StageKind(kind) if kind else None, len(stages) - 1, len(stages)) is not m.StageKind.FINAL:
        return False
    planned = planned or ruleset_for(tournament).stage_format(m.StageKind.FINAL).rounds
    rounds = list(Round.objects.published().filter(stage=pk).annotate(
        seated_tables=Count("tables", distinct=True),
        results=Count("tables__game", distinct=True, filter=~Q(tables__game__state=GameState.DRAFT)))
        .values_list("seated_tables", "results"))
    return None if len(rounds) >= planned and all(0 < results == tables for tables, results in rounds) else False


def is_over(tournament: Tournament, model: m.Tournament) -> bool:
    """A tournament counts in a series once its results are final (docs/series.md): its last stage is closed by
    the organizer, or that stage is a final whose planned rounds are all played, every table's game with a result
    (as the public pages title its results "Final results")."""
    state = last_stage_over(tournament)
    if state is not None:
        return state
    return bool(model.stages) and all(g.has_result for r in model.stages[-1].rounds for g in r.games)
