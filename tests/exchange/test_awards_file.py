"""The file's ``awards`` key (docs/tournament-file.md): the organizer's awards travel and come back the same;
a bad entry is refused with what is wrong, saving nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.utils import translation

from exchange.files import export_data, import_text
from scoring.errors import InvalidTournament
from tests.helpers import played_file
from tournaments.models import Award, Tournament
from tournaments.services import awards as service

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_awards_round_trip(organizer: Any, generated: Any, ruleset: str) -> None:
    t = generated(f"file-{ruleset}", players=24, rounds=2, ruleset=ruleset)
    service.set_given(t, organizer, "best_side:black", True)
    service.set_given(t, organizer, "best_player", False)
    prize = service.add_award(t, organizer, "Приз зрительских симпатий")
    service.choose_recipient(t, organizer, "p0004", "голосование зала", pk=prize.pk)
    data = export_data(t)
    awards = data["tournament"]["awards"]
    assert {"kind": "best_side:black", "given": True} in awards and {"kind": "best_player", "given": False} in awards
    assert {k: v for k, v in awards[-1].items() if k != "at"} == {
        "title": "Приз зрительских симпатий", "given": True, "player": "p0004", "reason": "голосование зала"}
    restored = import_text(json.dumps(data), slug=f"back-{ruleset}", organizers=[organizer])
    assert Award.objects.filter(tournament=restored).count() == 3
    assert export_data(restored) == data


def test_a_file_without_awards_has_no_key(organizer: Any, generated: Any) -> None:
    assert "awards" not in export_data(generated("plain", players=20, rounds=1))["tournament"]


@pytest.mark.parametrize("awards, message", [
    ({"kind": "best"}, "must be a list"),
    ([{"kind": "nonsense"}], "not a kind of award"),
    ([{"kind": "best_player"}, {"kind": "best_player"}], "listed twice"),
    ([{"title": "  "}], "needs a title"),
    ([{"title": "Prize", "player": "nobody", "reason": "x"}], "Prize: player nobody is not in the file's players"),
    ([{"title": "Prize", "player": "p001"}], "Prize: a recipient chosen by hand needs a reason"),
    ([{"kind": "best_player", "player": "p001", "reason": "x", "at": "soon"}], "not a date and time"),
])
def test_bad_awards_are_refused(organizer: Any, awards: Any, message: str) -> None:
    data = played_file(20, 1)
    data["tournament"]["awards"] = awards
    with translation.override("en"), pytest.raises(InvalidTournament, match=message):
        import_text(json.dumps(data), organizers=[organizer])
    assert not Tournament.objects.exists()


def test_a_disqualified_recipient_is_refused(organizer: Any) -> None:
    data = played_file(20, 1)
    data["tournament"]["disqualifications"] = [{"player": "p001", "reason": "cheating"}]
    data["tournament"]["awards"] = [{"title": "Prize", "player": "p001", "reason": "x"}]
    with translation.override("en"), pytest.raises(InvalidTournament, match="p001 is disqualified"):
        import_text(json.dumps(data), organizers=[organizer])
