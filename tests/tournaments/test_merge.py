"""Merging two players who are one person (docs/registry.md): the participations move, the kept one's empty
details are filled, a record is kept, ``players_merged`` is sent once committed; refused when both played one
tournament; only superusers and holders of ``tournaments.merge_player`` may."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from django.urls import reverse

from tests.site.test_every_word import read
from tournaments.models import Participant, Player, PlayerMerge, Tournament
from tournaments.services.merging import MergeError, duplicate_groups, merge_players
from tournaments.signals import players_merged

pytestmark = pytest.mark.django_db


def tournament_of(slug: str, name: str, day: int, *people: Player) -> Tournament:
    t = Tournament.objects.create(slug=slug, name=name, ruleset="fiim", starts=dt.date(2025, 1, day))
    for number, player in enumerate(people, start=1):
        Participant.objects.create(tournament=t, player=player, number=number, ext_id=f"p{number:03d}")
    return t


@pytest.fixture
def pair() -> tuple[Player, Player]:
    """One person entered twice: with a nickname and club in January, with a phone and city in February."""
    kept = Player.objects.create(surname="Федоров", first_name="Петр", nickname="Ворон", club="Полночь")
    merged = Player.objects.create(surname="Фёдоров", first_name="Пётр", city="Тверь", phone="+7 900 1")
    tournament_of("january", "Январский кубок", 10, kept)
    tournament_of("february", "Февральский кубок", 20, merged)
    return kept, merged


@pytest.fixture
def merger(make_user: Any) -> Any:
    user = make_user("registrar")
    user.user_permissions.add(Permission.objects.get(codename="merge_player"))
    return user


def client_of(user: Any) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def test_the_merge_moves_fills_and_records(pair: tuple[Player, Player], merger: Any,
                                           django_capture_on_commit_callbacks: Any) -> None:
    kept, merged = pair
    merged_id = merged.pk
    heard: list[dict[str, Any]] = []

    def listen(sender: Any, **kwargs: Any) -> None:
        heard.append(kwargs)

    players_merged.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            record = merge_players(kept, merged, by=merger, reason="one person, typed twice")
    finally:
        players_merged.disconnect(listen)
    assert not Player.objects.filter(pk=merged_id).exists()
    assert sorted(kept.participations.values_list("tournament__slug", flat=True)) == ["february", "january"]
    kept.refresh_from_db()
    assert (kept.nickname, kept.club, kept.city, kept.phone) == ("Ворон", "Полночь", "Тверь", "+7 900 1")
    assert record.merged_id == merged_id and record.merged["surname"] == "Фёдоров"
    assert record.merged["tournaments"][0]["slug"] == "february" and record.merged_by_name == "registrar"
    assert record.reason == "one person, typed twice"
    assert heard == [{"signal": players_merged, "kept": kept, "merged_ids": [merged_id]}]
    history = Participant.history.filter(tournament__slug="february").latest("history_date")
    assert history.player_id == kept.pk and history.history_user == merger


def test_two_players_of_one_tournament_are_refused(pair: tuple[Player, Player], merger: Any) -> None:
    kept, merged = pair
    tournament_of("march", "Мартовский кубок", 25, kept, merged)
    with pytest.raises(MergeError, match="Мартовский кубок"):  # named, in any language
        merge_players(kept, merged, by=merger)
    assert Player.objects.filter(pk=merged.pk).exists() and not PlayerMerge.objects.exists()


def test_a_player_is_not_merged_into_itself(pair: tuple[Player, Player], merger: Any) -> None:
    with pytest.raises(MergeError):
        merge_players(pair[0], pair[0], by=merger)


def test_earlier_merges_follow_the_merged_player(pair: tuple[Player, Player], merger: Any) -> None:
    kept, merged = pair
    third = Player.objects.create(surname="Федоров", first_name="П.")
    merge_players(merged, third, by=merger)
    merge_players(kept, merged, by=merger)
    assert PlayerMerge.objects.filter(kept=kept).count() == 2


def test_duplicates_are_grouped_by_the_compared_name(pair: tuple[Player, Player]) -> None:
    Player.objects.create(surname="Иванов")
    [group] = duplicate_groups()
    assert {entry.player for entry in group} == set(pair)


def test_the_pages_merge_after_the_confirmation(pair: tuple[Player, Player], merger: Any) -> None:
    kept, merged = pair
    client = client_of(merger)
    assert "Федоров Петр" in client.get(reverse("site:duplicate_players")).content.decode()
    url = reverse("site:merge_players")
    confirmation = client.get(url, {"keep": kept.pk, "merge": merged.pk})
    html = confirmation.content.decode()
    assert confirmation.status_code == 200 and "Январский кубок" in html and "Февральский кубок" in html
    assert 'id="merge-form"' in html and Player.objects.filter(pk=merged.pk).exists()  # nothing done by a GET
    done = client.post(url, {"keep": kept.pk, "merge": merged.pk, "reason": "typed twice"})
    assert done.status_code == 302 and done["Location"] == reverse("site:player", args=[kept.pk])
    record = client.get(done["Location"]).content.decode()
    assert "typed twice" in record and "registrar" in record and "Февральский кубок" in record


def test_the_page_names_the_shared_tournament(pair: tuple[Player, Player], merger: Any) -> None:
    kept, merged = pair
    tournament_of("march", "Мартовский кубок", 25, kept, merged)
    client = client_of(merger)
    page = client.get(reverse("site:merge_players"), {"keep": kept.pk, "merge": merged.pk}).content.decode()
    assert "Both played Мартовский кубок" in page and 'id="merge-form"' not in page
    refused = client.post(reverse("site:merge_players"), {"keep": kept.pk, "merge": merged.pk})
    assert refused.status_code == 400 and "both played Мартовский кубок" in refused.content.decode()
    assert Player.objects.filter(pk=merged.pk).exists()


@pytest.mark.parametrize("who", ["anonymous", "organizer", "stranger"])
def test_only_superusers_and_the_permission_may(pair: tuple[Player, Player], who: str, organizer: Any,
                                                stranger: Any) -> None:
    kept, merged = pair
    Tournament.objects.get(slug="january").organizers.add(organizer)
    Tournament.objects.get(slug="february").organizers.add(organizer)  # organizing both is not enough
    client = client_of({"anonymous": None, "organizer": organizer, "stranger": stranger}[who])
    expected = 302 if who == "anonymous" else 403
    for url in (reverse("site:duplicate_players"), reverse("site:player", args=[kept.pk]),
                reverse("site:merge_players") + f"?keep={kept.pk}&merge={merged.pk}"):
        assert client.get(url).status_code == expected
    assert client.post(reverse("site:merge_players"), {"keep": kept.pk, "merge": merged.pk}).status_code == expected
    assert Player.objects.filter(pk=merged.pk).exists()


def test_a_superuser_may(pair: tuple[Player, Player], make_user: Any) -> None:
    kept, merged = pair
    client = client_of(make_user("root", superuser=True))
    assert client.post(reverse("site:merge_players"), {"keep": kept.pk, "merge": merged.pk}).status_code == 302
    assert not Player.objects.filter(pk=merged.pk).exists()


def test_the_pages_read_in_both_languages(pair: tuple[Player, Player], make_user: Any) -> None:
    """The confirmation and the record with a merge, read as the site's every-word check reads pages."""
    kept, merged = pair
    third = Player.objects.create(surname="Федоров", first_name="Петр", nickname="Сокол")
    admin = make_user("root", superuser=True)
    merge_players(kept, third, by=admin, reason="одна и та же запись")
    client = Client()
    client.force_login(admin)
    failures: list[str] = []
    for url in (reverse("site:merge_players") + f"?keep={kept.pk}&merge={merged.pk}",
                reverse("site:player", args=[kept.pk]), reverse("site:duplicate_players")):
        for language in ("ru", "en"):
            read(client, url, language, "registry", failures)
    assert not failures, "\n".join(failures)
