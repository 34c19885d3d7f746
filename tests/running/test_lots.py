"""Drawing lots for a tie at a cut on the organizer's standings page (running.services.lots), every ruleset."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from running.services.lots import LotsError, cancel_draw, draw_lots, stage_ties
from tests.scoring.build import game, players, round_, stage, tournament
from tournaments.models import DrawMethod, LotDraw, Stage

pytestmark = pytest.mark.django_db

RULESETS = ["fiim", "kostroma", "zvezdy", "tomsk"]
# Black wins one game, the best 2 go on: who ties across the line in each ruleset (scoring/test_lots.py).
TIED = {"fiim": ("p02", "p03"), "kostroma": ("p02", "p03"), "zvezdy": ("p01", "p02", "p03"),
        "tomsk": ("p01", "p02", "p03")}


def tied_file(ruleset: str) -> dict[str, Any]:
    seated = players(12 if ruleset == "tomsk" else 10)
    return tournament(ruleset, [stage("q", [round_(1, [game(ruleset, seated, "black")])], kind="qualifying",
                                      advance={"top": 2}), stage("f", [], kind="final")])


@pytest.fixture
def tied(import_file: Any) -> Any:
    def make(ruleset: str) -> Stage:
        t = import_file(tied_file(ruleset), f"{ruleset}-tie", standings_hidden=False)
        return Stage.objects.select_related("tournament").get(tournament=t, ext_id="q")
    return make


def ru(text: Any) -> str:
    """The text as the Russian page shows it (the same before and after the catalogue has it)."""
    with translation.override("ru"):
        return str(translation.gettext(text) if isinstance(text, str) else text)


def url(stage: Stage) -> str:
    return reverse("running:standings", kwargs={"slug": stage.tournament.slug, "stage": stage.ext_id})


def names(stage: Stage, ids: tuple[str, ...]) -> list[str]:
    by_id = {p.ext_id: p.player.full_name for p in stage.tournament.participants.select_related("player")}
    return [by_id[pid] for pid in ids]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_page_shows_the_tie_and_the_app_draw_breaks_it(client: Any, organizer: Any, tied: Any,
                                                           ruleset: str) -> None:
    stage = tied(ruleset)
    client.force_login(organizer)
    html = client.get(url(stage)).content.decode()
    first = 2 if ruleset in ("fiim", "kostroma") else 1
    last = first + len(TIED[ruleset]) - 1
    assert html.count('class="alert alert-warning lot-tie"') == 1 and f"{first}–{last}" in html
    assert ", ".join(names(stage, TIED[ruleset])) in html
    assert html.count('class="badge text-bg-info by-lot"') == 0
    response = client.post(url(stage), {"action": "draw", "players": list(TIED[ruleset])}, follow=True)
    html = response.content.decode()
    assert ru("Lots drawn. The order: %(order)s.").split(":")[0] in html
    stage.refresh_from_db()
    draw = LotDraw.objects.get(stage=stage)
    assert sorted(draw.players) == sorted(TIED[ruleset]) and draw.method == DrawMethod.APP
    assert draw.drawn_by == organizer and draw.drawn_by_name == organizer.username
    assert stage.lots == draw.players
    found = stage_ties(stage)
    assert found.ties == []  # the lots broke it
    ranks = {row.player: row.rank for row in found.standings.rows}
    assert sorted(ranks[pid] for pid in draw.players) == list(range(first, last + 1))
    assert [ranks[pid] for pid in draw.players] == list(range(first, last + 1))  # in the drawn order
    assert len(found.standings.advance) == 2
    assert "lot-tie" not in html
    assert html.count('class="badge text-bg-info by-lot"') == len(TIED[ruleset])
    assert 'id="lot-draws"' in html and ru(DrawMethod.APP.label) in html


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_physical_draw_is_recorded_in_its_order(client: Any, organizer: Any, tied: Any, ruleset: str) -> None:
    stage = tied(ruleset)
    client.force_login(organizer)
    order = list(reversed(TIED[ruleset]))
    client.post(url(stage), {"action": "record_draw", "players": list(TIED[ruleset]), "order": order,
                             "note": "drawn by the chief judge"})
    draw = LotDraw.objects.get(stage=stage)
    assert draw.players == order and draw.method == DrawMethod.PHYSICAL and draw.note == "drawn by the chief judge"
    draw.delete()
    stage.lots = []
    stage.save(update_fields=["lots"])
    note = "вытянул главный судья при свидетелях " * 6  # 222 characters: refused, never cut to 200
    html = client.post(url(stage), {"action": "record_draw", "players": list(TIED[ruleset]), "order": order,
                                    "note": note}, follow=True, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Примечание к жребию: Не больше 200 знаков, а в этом тексте 221" in html
    assert not LotDraw.objects.filter(stage=stage).exists()
    client.post(url(stage), {"action": "record_draw", "players": list(TIED[ruleset]), "order": order,
                             "note": note[:200]})
    assert LotDraw.objects.get(stage=stage).note == note[:200].strip()
    stage.refresh_from_db()
    rows = stage_ties(stage).standings.rows
    assert [row.player for row in rows if row.player in order] == order


@pytest.mark.parametrize(("order", "message", "who"), [
    (["p03"], "The order leaves out %(player)s: list every tied player once.", "p02"),
    (["p03", "p03"], "%(player)s is listed twice: list every tied player once.", "p03"),
    (["p03", "p09"], "%(player)s is not in this tie.", "p09"),
])
def test_a_bad_physical_order_is_refused_naming_the_player_and_nothing_is_saved(
        client: Any, organizer: Any, tied: Any, order: list[str], message: str, who: str) -> None:
    stage = tied("fiim")
    client.force_login(organizer)
    html = client.post(url(stage), {"action": "record_draw", "players": ["p02", "p03"], "order": order},
                       follow=True).content.decode()
    assert ru(message) % {"player": names(stage, (who,))[0]} in html
    stage.refresh_from_db()
    assert stage.lots is None and not LotDraw.objects.exists()


def test_only_organizers_draw(client: Any, stranger: Any, tied: Any) -> None:
    stage = tied("kostroma")
    client.force_login(stranger)
    response = client.post(url(stage), {"action": "draw", "players": ["p02", "p03"]})
    assert response.status_code in (302, 403, 404)
    client.logout()
    client.post(url(stage), {"action": "draw", "players": ["p02", "p03"]})
    stage.refresh_from_db()
    assert stage.lots is None and not LotDraw.objects.exists()


def test_drawing_the_same_tie_again_is_refused_until_the_draw_is_cancelled(organizer: Any, tied: Any) -> None:
    stage = tied("kostroma")
    first = draw_lots(stage, ["p02", "p03"], organizer)
    with pytest.raises(LotsError, match=organizer.username):  # drawn already, by whom and when
        draw_lots(stage, ["p02", "p03"], organizer)
    with pytest.raises(LotsError) as error:
        draw_lots(stage, ["p04", "p05"], organizer)
    assert str(error.value) == ru("These players are not tied at a cut any more: the standings have changed. "
                                  "Look at them again.")
    cancel_draw(stage, first.pk, organizer)
    first.refresh_from_db()
    stage.refresh_from_db()
    assert not first.active and first.cancelled_by_name == organizer.username
    assert stage.lots is None
    assert [t.players for t in stage_ties(stage).ties] == [("p02", "p03")]
    with pytest.raises(LotsError):
        cancel_draw(stage, first.pk, organizer)
    second = draw_lots(stage, ["p02", "p03"], organizer, order=["p03", "p02"])
    stage.refresh_from_db()
    assert stage.lots == ["p03", "p02"] and second.active
    assert LotDraw.objects.filter(stage=stage).count() == 2


def test_a_closed_stage_takes_no_draw(organizer: Any, tied: Any) -> None:
    stage = tied("fiim")
    Stage.objects.filter(pk=stage.pk).update(closed=True)
    stage.refresh_from_db()
    with pytest.raises(LotsError):
        draw_lots(stage, ["p02", "p03"], organizer)


def test_cancel_from_the_page(client: Any, organizer: Any, tied: Any) -> None:
    stage = tied("zvezdy")
    draw = draw_lots(stage, ["p01", "p02", "p03"], organizer)
    client.force_login(organizer)
    html = client.post(url(stage), {"action": "cancel_draw", "draw": str(draw.pk)}, follow=True).content.decode()
    assert ru("The draw is cancelled: its players are tied again.") in html and "lot-tie" in html
    assert LotDraw.objects.get().cancelled_at is not None
    html = client.post(url(stage), {"action": "cancel_draw", "draw": "nonsense"}, follow=True).content.decode()
    assert ru("This draw is not one of the stage's.").replace("'", "&#x27;") in html


@pytest.mark.skipif("connection.vendor == 'sqlite'", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_draws_of_one_tie_make_one_draw(organizer: Any, tied: Any) -> None:  # pragma: no cover
    stage = tied("fiim")
    errors: list[str] = []

    def attempt() -> None:
        try:
            draw_lots(stage, ["p02", "p03"], organizer)
        except LotsError as error:
            errors.append(str(error))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert LotDraw.objects.filter(stage=stage).count() == 1 and len(errors) == 1


@pytest.mark.parametrize("posted", [{}, {"players": ["p02"]}, {"players": ["p02", "p03", "p04"]},
                                    {"players": ["p02", "x" * 5000]}])
def test_a_draw_of_anything_but_a_whole_tie_is_refused(client: Any, organizer: Any, tied: Any,
                                                       posted: dict[str, Any]) -> None:
    stage = tied("fiim")
    client.force_login(organizer)
    html = client.post(url(stage), {"action": "draw", **posted}, follow=True).content.decode()
    assert ru("These players are not tied at a cut any more: the standings have changed. "
              "Look at them again.") in html
    stage.refresh_from_db()
    assert stage.lots is None and not LotDraw.objects.exists()
