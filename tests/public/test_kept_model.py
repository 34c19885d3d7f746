"""The model as the shared cache keeps it (``public.kept_model.KeptModel``): pickled with its fractions as two
integers, read back equal to the model for every ruleset's example and a generated tournament of each (several
stages, a round in play), every zero ``scoring``'s own ``ZERO``; a model kept by other code (another shape of the
model, the release before's ``KeptModel``) is built again, never read."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from base.release import release
from exchange.reading import to_model
from games.models import Game, GameState
from public import snapshot
from public.kept_model import MODEL_SHAPE, KeptModel
from scoring import model as m
from scoring.standings import compute_standings
from tournaments.models import Round

pytestmark = pytest.mark.django_db

EXAMPLES = ["tomsk-example.json", "kostroma-example.json", "fiim-example.json", "fiim-params-example.json",
            "zvezdy-example.json"]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_is_kept_and_reads_back_equal(import_file: Any, example: str) -> None:
    tournament = import_file(example, example.removesuffix(".json"), standings_hidden=False)
    model = to_model(tournament)
    read = KeptModel.of(model).read()
    assert read == model and read is not model
    seats = [seat for stage in read.stages for round_ in stage.rounds for game in round_.games for seat in game.seats]
    zeros = [seat.extra for seat in seats if seat.extra == 0]
    assert zeros and all(zero is m.ZERO for zero in zeros)  # the scoring's fast paths test zero by identity
    assert len({id(seat.extra) for seat in seats if seat.extra}) <= len({seat.extra for seat in seats})  # one a value
    assert [compute_standings(read, stage.id) for stage in read.stages] == [
        compute_standings(model, stage.id) for stage in model.stages]


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_generated_tournament_with_a_round_in_play_reads_back_equal(generated: Any, ruleset: str) -> None:
    tournament = generated(f"kept-{ruleset}", players=24 if ruleset == "tomsk" else 20, rounds=3, ruleset=ruleset,
                           stages=2, standings_hidden=False)
    last = Round.objects.filter(stage__tournament=tournament).order_by("-stage__order", "-number").first()
    assert last is not None
    Game.objects.filter(table__round=last).update(state=GameState.DRAFT)  # a round in play: no result yet
    model = to_model(tournament)
    assert KeptModel.of(model).read() == model


def test_a_model_kept_by_other_code_is_built_again(client: Any, generated: Any) -> None:
    """After a deploy, Redis still holds the models the release before kept under the same versions' keys: one of
    another shape, or that release's ``KeptModel`` with other fields, is not read but built again."""
    from django.core.cache import cache

    from public.model_cache import LOCAL_MODELS, model_key
    from tournaments.models import Tournament

    tournament = generated("kept-other", standings_hidden=False)
    loaded = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
    model = to_model(loaded)
    older = object.__new__(KeptModel)
    vars(older).update(text="{}", model=None)  # the file's JSON, as the release before kept it
    for kept in (KeptModel(KeptModel.of(model).data, "another shape"), older):
        assert kept.read() is None
        cache.set(model_key(loaded), kept)
        LOCAL_MODELS.clear()
        with mock.patch.object(snapshot, "to_model", wraps=to_model) as built:
            assert snapshot.Snapshot(loaded).model == model
        assert built.call_count == 1
        assert client.get("/p/kept-other/standings/s1/").status_code == 200


def test_pages_read_the_kept_model(client: Any, generated: Any) -> None:
    """A worker that did not build the version's model reads the one kept, and builds nothing."""
    from django.core.cache import cache

    from public.model_cache import LOCAL_MODELS, model_key
    from tournaments.models import Tournament

    tournament = generated("kept-pages", standings_hidden=False)
    assert client.get("/p/kept-pages/standings/s1/").status_code == 200
    loaded = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
    kept = cache.get(model_key(loaded))
    assert isinstance(kept, KeptModel) and kept.read() is not None
    LOCAL_MODELS.clear()  # another worker: nothing read yet
    with mock.patch.object(snapshot, "to_model", side_effect=AssertionError("built again")):
        assert snapshot.Snapshot(loaded).model == to_model(loaded)


def test_a_kept_model_that_cannot_be_read_is_built_again(generated: Any, caplog: Any) -> None:
    tournament = generated("kept-broken", standings_hidden=False)
    model = to_model(tournament)
    broken = KeptModel(KeptModel.of(model).data[:-40], MODEL_SHAPE)  # cut short: not unpickled
    assert broken.read() is None
    assert "could not be read back" in caplog.text


def test_the_models_key_names_the_models_shape(generated: Any) -> None:
    """A release whose model has other fields keeps and reads its own models, under other keys, during a deploy."""
    from public.model_cache import model_key
    from tournaments.models import Tournament

    tournament = generated("kept-key", standings_hidden=False)
    loaded = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
    assert f":{MODEL_SHAPE}.{release()}:" in model_key(loaded)


def test_only_a_model_built_here_ranks_with_the_kept_scored_games(client: Any, generated: Any) -> None:
    """A model read back from the shared cache is all new objects: ranking it through the process's scored games
    would only fill them."""
    from django.core.cache import cache

    from public.model_cache import LOCAL_MODELS, SCORED_GAMES, model_key, scored_games_for
    from tournaments.models import Tournament

    tournament = generated("kept-scored", standings_hidden=False)
    assert client.get("/p/kept-scored/standings/s1/").status_code == 200  # built and ranked here
    loaded = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
    built = snapshot.Snapshot(loaded).kept
    assert built.built_here and scored_games_for(built) is SCORED_GAMES
    assert isinstance(cache.get(model_key(loaded)), KeptModel)
    LOCAL_MODELS.clear()  # another worker
    read = snapshot.Snapshot(Tournament.objects.select_related("results_version").get(pk=tournament.pk)).kept
    assert not read.built_here and scored_games_for(read) is None


def test_every_worker_names_the_same_shape() -> None:
    """The shape is part of the shared keys: each worker process must compute the same one (no hash seed, no
    object's address in it), or the workers would never share a model or a figure."""
    import os
    import subprocess
    import sys

    code = "import django; django.setup(); from public.kept_model import MODEL_SHAPE; print(MODEL_SHAPE)"
    shapes = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": seed}).stdout.strip() for seed in ("1", "2")}
    assert shapes == {MODEL_SHAPE}


def test_the_shared_figures_keys_name_the_shape_too(generated: Any) -> None:
    """The figures shared between workers (a stage's standings, the players' totals) are pickled ``scoring`` classes
    as the model is: kept under keys that name the shape, so the release before never reads the new one's."""
    from django.core.cache import cache

    from public.model_cache import model_of, shared

    tournament = generated("kept-figures", standings_hidden=False)
    local = model_of(tournament, lambda: to_model(tournament))
    keys: list[str] = []
    real_get = cache.get

    def seen(key: str, *args: Any, **kwargs: Any) -> Any:
        keys.append(key)
        return real_get(key, *args, **kwargs)

    with mock.patch.object(cache, "get", side_effect=seen):
        assert shared(tournament, local, "kept-figure", lambda: 41 + 1) == 42
    assert any(key.startswith(f"public-derived:{MODEL_SHAPE}.{release()}:") for key in keys)
