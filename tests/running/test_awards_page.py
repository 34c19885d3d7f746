"""The organizer's awards page and the award services (docs/rules/awards.md), under all four rulesets."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation

from exchange.reading import to_model
from running.awards import resolve_awards
from scoring.awards import compute_candidate
from tournaments.models import Award, Participant, ParticipantStatus
from tournaments.services import awards as service
from tournaments.services.awards import AwardError

pytestmark = pytest.mark.django_db
RULESETS = ("tomsk", "kostroma", "fiim", "zvezdy")


def ru(msgid: str) -> str:
    """The Russian text of a message (the pages are Russian-first; works before and after the catalogue has it)."""
    with translation.override("ru"):
        return translation.gettext(msgid)


def awards_url(t: Any) -> str:
    return reverse("running:awards", kwargs={"slug": t.slug})


def given(t: Any) -> dict[str, Any]:
    return {a.kind or a.title: a for a in resolve_awards(t, to_model(t))}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_page_lists_the_proposals_with_their_candidates(client: Any, organizer: Any, generated: Any,
                                                            ruleset: str) -> None:
    t = generated(f"aw-{ruleset}", players=24, rounds=2, ruleset=ruleset)
    client.force_login(organizer)
    html = client.get(awards_url(t)).content.decode()
    assert ru("Best player of the tournament") in html and 'id="add-award"' in html
    best = compute_candidate(to_model(t), "best_player")
    assert best.players and all(f"Player {int(pid[1:])}" in html for pid in best.players)
    # tomsk §8 names the best player; elsewhere every proposal is a suggestion until given
    assert ("best_player" in given(t)) is (ruleset == "tomsk")
    # a suggestion's badge agrees with every award's title («Лучший шериф предложена» did not)
    assert ">предлагается<" in html and "предложена" not in html


@pytest.mark.parametrize("ruleset", RULESETS)
def test_giving_choosing_and_going_back(client: Any, organizer: Any, generated: Any, ruleset: str) -> None:
    t = generated(f"aw2-{ruleset}", players=24, rounds=2, ruleset=ruleset)
    client.force_login(organizer)
    client.post(awards_url(t), {"action": "give", "kind": "best_side:red"})
    computed = given(t)["best_side:red"]
    assert not computed.by_hand and computed.players == computed.candidate
    other = next(p for p in Participant.objects.filter(tournament=t) if p.ext_id not in computed.players)
    client.post(awards_url(t), {"action": "choose", "kind": "best_side:red", "player": other.ext_id,
                                "reason": "jury's vote"})
    chosen = given(t)["best_side:red"]
    assert chosen.by_hand and chosen.players == (other.ext_id,) and chosen.reason == "jury's vote"
    client.post(awards_url(t), {"action": "clear", "kind": "best_side:red"})
    assert given(t)["best_side:red"].players == computed.players
    client.post(awards_url(t), {"action": "withdraw", "kind": "best_side:red"})
    assert "best_side:red" not in given(t)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_free_form_award(client: Any, organizer: Any, generated: Any, ruleset: str) -> None:
    t = generated(f"aw3-{ruleset}", players=24, rounds=2, ruleset=ruleset)
    client.force_login(organizer)
    client.post(awards_url(t), {"action": "add", "title": "  Приз   зрительских симпатий "})
    award = Award.objects.get(tournament=t, kind="")
    assert award.title == "Приз зрительских симпатий" and given(t)[award.title].players == ()
    client.post(awards_url(t), {"action": "choose", "award": award.pk, "player": "p0003", "reason": "vote"})
    assert given(t)[award.title].names == ("Player 3",)
    client.post(awards_url(t), {"action": "remove", "award": award.pk})
    assert not Award.objects.filter(pk=award.pk).exists()


def test_bad_input_is_refused_by_name_and_nothing_is_saved(client: Any, organizer: Any, generated: Any) -> None:
    t = generated("aw-bad", players=20, rounds=2)
    client.force_login(organizer)
    html = client.post(awards_url(t), {"action": "add", "title": "   "}, follow=True).content.decode()
    assert ru("Give the award a title.") in html
    html = client.post(awards_url(t), {"action": "choose", "kind": "best_player", "player": "nobody",
                                       "reason": "x"}, follow=True).content.decode()
    assert "nobody" in html
    html = client.post(awards_url(t), {"action": "choose", "kind": "best_player", "player": "p0001",
                                       "reason": "  "}, follow=True).content.decode()
    assert ru("%(award)s: give the reason for choosing the recipient by hand.") % {
        "award": ru("Best player of the tournament")} in html
    p = Participant.objects.get(tournament=t, ext_id="p0002")
    p.disqualified_at = timezone.now()
    p.save()
    html = client.post(awards_url(t), {"action": "choose", "kind": "best_player", "player": "p0002",
                                       "reason": "x"}, follow=True).content.decode()
    assert ru("%(award)s: %(player)s is disqualified and cannot receive an award.") % {
        "award": ru("Best player of the tournament"), "player": p.player.full_name} in html
    # an application rejected (kostroma decides applications) is no player: not offered, and refused if posted
    rejected = Participant.objects.get(tournament=t, ext_id="p0003")
    rejected.status = ParticipantStatus.REJECTED
    rejected.save()
    assert 'value="p0003"' not in client.get(awards_url(t)).content.decode()
    assert 'value="p0004"' in client.get(awards_url(t)).content.decode()
    html = client.post(awards_url(t), {"action": "choose", "kind": "best_player", "player": "p0003",
                                       "reason": "x"}, follow=True).content.decode()
    assert ru("%(award)s: there is no player “%(player)s” in this tournament.") % {
        "award": ru("Best player of the tournament"), "player": "p0003"} in html
    html = client.post(awards_url(t), {"action": "give", "kind": "best_role:ghost"}, follow=True).content.decode()
    assert "best_role:ghost" in html
    assert not Award.objects.filter(tournament=t).exists()


def test_only_organizers(client: Any, stranger: Any, organizer: Any, generated: Any) -> None:
    t = generated("aw-perm", players=20, rounds=2)
    client.force_login(stranger)
    assert client.get(awards_url(t)).status_code == 403
    assert client.post(awards_url(t), {"action": "add", "title": "x"}).status_code == 403
    with pytest.raises(AwardError):
        service.add_award(t, stranger, "x")
    assert not Award.objects.filter(tournament=t).exists()


@pytest.mark.parametrize("size", [20, 40])
def test_the_page_runs_a_fixed_number_of_queries(client: Any, organizer: Any, generated: Any, size: int) -> None:
    t = generated(f"aw-q{size}", players=size, rounds=2)
    client.force_login(organizer)
    client.post(awards_url(t), {"action": "add", "title": "Special"})
    with CaptureQueriesContext(connection) as queries:
        assert client.get(awards_url(t)).status_code == 200
    assert len(queries) <= 24


def test_fiim_a_player_who_missed_two_rounds_cannot_be_chosen(client: Any, organizer: Any, import_file: Any) -> None:
    """fiim 5.: a player who missed two rounds or more takes no part in the awards, chosen by hand neither."""
    from tests.helpers import played_file

    data = played_file(20, 3)
    rounds = data["stages"][0]["rounds"]
    missing = rounds[0]["games"][0]["seats"][0]["player"]
    data["players"].append({"id": "p099", "name": "Отсутствующий Игрок"})
    for r in rounds[:2]:
        r["absent"] = ["p099"]
    t = import_file(data, "fiim-absent")
    client.force_login(organizer)
    html = client.post(awards_url(t), {"action": "choose", "kind": "best_player", "player": "p099",
                                       "reason": "x"}, follow=True).content.decode()
    assert ru("%(player)s missed too many rounds: the regulation bars them from the awards.") % {
        "player": "Отсутствующий Игрок"} in html
    assert not Award.objects.filter(tournament=t).exists()
    client.post(awards_url(t), {"action": "choose", "kind": "best_player", "player": missing, "reason": "x"})
    assert given(t)["best_player"].players == (missing,)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_last_stage_standings_show_the_awards(client: Any, organizer: Any, generated: Any, ruleset: str) -> None:
    t = generated(f"aw-st-{ruleset}", players=24, rounds=2, stages=2, ruleset=ruleset)
    service.add_award(t, organizer, "Audience prize")
    client.force_login(organizer)
    last = reverse("running:standings", kwargs={"slug": t.slug, "stage": "s2"})
    first = reverse("running:standings", kwargs={"slug": t.slug, "stage": "s1"})
    assert 'id="stage-awards"' in client.get(last).content.decode()
    assert "Audience prize" in client.get(last).content.decode()
    assert 'id="stage-awards"' not in client.get(first).content.decode()
