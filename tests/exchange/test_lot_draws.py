"""The drawings of lots travel in the file (the extra key ``lot_draws``) beside the stages' ``lots``: exported,
imported into an empty database and exported again, the file is the same; a bad entry is refused, saving nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from exchange.files import export_data, import_text
from running.services.lots import cancel_draw, draw_lots, stage_ties
from scoring.errors import InvalidTournament
from tests.running.test_lots import TIED, tied_file
from tournaments.models import DrawMethod, LotDraw, Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["fiim", "kostroma", "zvezdy", "tomsk"])
def test_lot_draws_round_trip(organizer: Any, import_file: Any, ruleset: str) -> None:
    tournament = import_file(tied_file(ruleset), f"{ruleset}-draws")
    stage = Stage.objects.select_related("tournament").get(tournament=tournament, ext_id="q")
    tied = list(TIED[ruleset])
    cancelled = draw_lots(stage, tied, organizer)
    cancel_draw(stage, cancelled.pk, organizer)
    kept = draw_lots(stage, tied, organizer, order=tied[::-1], note="drawn from a hat")
    data = export_data(tournament)
    draws = data["tournament"]["lot_draws"]
    assert [(d["method"], d["players"], d.get("cancelled_by")) for d in draws] == [
        ("app", cancelled.players, organizer.username), ("physical", tied[::-1], None)]
    assert draws[1]["by"] == organizer.username and draws[1]["note"] == "drawn from a hat"
    assert data["stages"][0]["lots"] == tied[::-1]
    restored = import_text(json.dumps(data), slug="restored", organizers=[organizer])
    rows = list(LotDraw.objects.filter(stage__tournament=restored).order_by("drawn_at", "id"))
    assert [(r.method, r.players, r.active) for r in rows] == [
        (DrawMethod.APP, cancelled.players, False), (DrawMethod.PHYSICAL, tied[::-1], True)]
    assert rows[1].drawn_at == kept.drawn_at.replace(microsecond=0) and rows[1].drawn_by is None
    assert export_data(restored) == data
    restored_stage = Stage.objects.select_related("tournament").get(tournament=restored, ext_id="q")
    assert stage_ties(restored_stage).decided == set(tied)


@pytest.mark.parametrize("draws, message", [
    ({"stage": "q"}, "must be a list"),
    ([{"stage": "zz", "players": ["p02", "p03"], "method": "app", "at": "2026-01-01T10:00:00+00:00"}],
     "stage zz is not in the file's stages"),
    ([{"stage": "q", "players": ["p02", "nobody"], "method": "app", "at": "2026-01-01T10:00:00+00:00"}],
     "player nobody is not in the file's players"),
    ([{"stage": "q", "players": ["p02", "p02"], "method": "app", "at": "2026-01-01T10:00:00+00:00"}],
     "player p02 is drawn twice"),
    ([{"stage": "q", "players": ["p02", "p03"], "method": "coin", "at": "2026-01-01T10:00:00+00:00"}],
     "must be a list"),
    ([{"stage": "q", "players": ["p02", "p03"], "method": "app", "at": "yesterday"}],
     "'yesterday' is not a date and time"),
])
def test_bad_lot_draws_are_refused(organizer: Any, draws: Any, message: str) -> None:
    data = tied_file("fiim")
    data["tournament"] = {"lot_draws": draws}
    with translation.override("en"), pytest.raises(InvalidTournament, match=message):
        import_text(json.dumps(data), organizers=[organizer])
    assert not Tournament.objects.exists()
