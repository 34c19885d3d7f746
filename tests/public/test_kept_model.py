"""The model as the shared cache keeps it (``public.model_cache.KeptModel``): the tournament file's JSON, read back
equal to the model for every ruleset's example and a generated tournament of each (several stages, a round in
play), so every worker rebuilds it in a third of the unpickling time; a model whose file would not read back equal
is kept as it is."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest

from exchange.reading import to_model
from games.models import Game, GameState
from public import model_cache, snapshot
from public.model_cache import KeptModel
from tournaments.models import Round

pytestmark = pytest.mark.django_db

EXAMPLES = ["tomsk-example.json", "kostroma-example.json", "fiim-example.json", "fiim-params-example.json",
            "zvezdy-example.json"]


@pytest.mark.parametrize("example", EXAMPLES)
def test_every_example_is_kept_as_its_file_and_reads_back_equal(import_file: Any, example: str) -> None:
    tournament = import_file(example, example.removesuffix(".json"), standings_hidden=False)
    model = to_model(tournament)
    kept = KeptModel.of(model)
    assert kept.text is not None and kept.model is None
    assert kept.read() == model


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_generated_tournament_with_a_round_in_play_reads_back_equal(generated: Any, ruleset: str) -> None:
    tournament = generated(f"kept-{ruleset}", players=24 if ruleset == "tomsk" else 20, rounds=3, ruleset=ruleset,
                           stages=2, standings_hidden=False)
    last = Round.objects.filter(stage__tournament=tournament).order_by("-stage__order", "-number").first()
    assert last is not None
    Game.objects.filter(table__round=last).update(state=GameState.DRAFT)  # a round in play: no result yet
    model = to_model(tournament)
    kept = KeptModel.of(model)
    assert kept.text is not None and kept.read() == model


def test_a_model_whose_file_reads_back_otherwise_is_kept_itself(import_file: Any) -> None:
    model = to_model(import_file("fiim-example.json", "kept-itself", standings_hidden=False))
    with mock.patch.object(model_cache, "from_json", return_value=None):
        kept = KeptModel.of(model)
    assert kept.text is None and kept.read() is model


def test_pages_read_the_kept_file(client: Any, generated: Any) -> None:
    """A worker that did not build the version's model reads it from the kept file (not from a pickled model)."""
    from django.core.cache import cache

    from public.model_cache import LOCAL_MODELS, model_key
    from tournaments.models import Tournament

    tournament = generated("kept-pages", standings_hidden=False)
    assert client.get("/p/kept-pages/standings/s1/").status_code == 200
    loaded = Tournament.objects.select_related("results_version").get(pk=tournament.pk)
    kept = cache.get(model_key(loaded))
    assert isinstance(kept, KeptModel) and kept.text is not None
    LOCAL_MODELS.clear()  # another worker: nothing read yet
    with mock.patch.object(snapshot, "to_model", side_effect=AssertionError("built again")):
        assert snapshot.Snapshot(loaded).model == to_model(loaded)
