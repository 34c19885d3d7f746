"""Judges' accounts made on the judges page, and their private links (``/t/<slug>/j/<token>/``): a link
signs its holder in as the judge for that tournament only; revoked, it answers 404 and the session it opened is
signed out; the QR code is on the judges page and on the organizer's seating sheet of the judge's table."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from judges.models import Judge, PrivateLink
from judges.services import links, staff
from tests.helpers import table
from tournaments.models import Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


def client_of(user: Any = None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


def staff_url(tournament: Any) -> str:
    return reverse("games:staff", args=[tournament.slug])


def link_url(tournament: Any, token: str) -> str:
    return reverse("games:private_link", args=[tournament.slug, token])


def test_the_organizer_makes_an_account_with_a_password_shown_once(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    client = client_of(people["organizer"])
    response = client.post(staff_url(tournament), {"action": "account", "username": "anna", "name": "Анна Судейская",
                                                   "password_mode": "generate", "link": "on"})
    assert response.status_code == 200
    password = response.context["created"]["password"]
    assert len(password) == 12 and f'id="new-password">{password}<' in response.content.decode()
    said = response.content.decode().split('id="account-created">', 1)[1].split("<br>", 1)[0]
    assert "anna" in said and "Анна Судейская" in said  # one message, by the login and the name
    assert response.content.decode().count("alert-success") == 1
    judge = Judge.objects.get(tournament=tournament, user__username="anna")
    assert judge.user.get_full_name() == "Анна Судейская" and not judge.chief
    assert Client().login(username="anna", password=password)
    assert PrivateLink.objects.filter(judge=judge, revoked_at__isnull=True).count() == 1
    assert password not in client.get(staff_url(tournament)).content.decode()  # shown once, never again


def test_a_typed_password_and_a_link_only_account(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    client = client_of(people["organizer"])
    response = client.post(staff_url(tournament), {"action": "account", "username": "boris", "name": "Борис",
                                                   "password_mode": "typed", "password": "Sudya-2025-long!"})
    assert response.status_code == 200 and not response.context["created"]["password"]
    assert Client().login(username="boris", password="Sudya-2025-long!")
    response = client.post(staff_url(tournament), {"action": "account", "username": "vera", "name": "Вера",
                                                   "password_mode": "link", "link": "on", "chief": ""})
    assert response.status_code == 200
    vera = get_user_model().objects.get(username="vera")
    assert not vera.has_usable_password() and PrivateLink.objects.filter(judge__user=vera).exists()


@pytest.mark.parametrize("data", [
    {"username": "judge", "name": "Taken"},  # a user name taken (case aside)
    {"username": "JUDGE", "name": "Taken"},
    {"username": "new one", "name": "Spaces"},
    {"username": "nopass", "name": "No password", "password_mode": "typed", "password": ""},
    {"username": "short", "name": "Weak", "password_mode": "typed", "password": "123"},
    {"username": "nolink", "name": "No way in", "password_mode": "link"},
])
def test_a_refused_account_makes_nothing(round_: Any, people: dict[str, Any], data: dict[str, str]) -> None:
    tournament = round_.stage.tournament
    users = get_user_model().objects.count()
    response = client_of(people["organizer"]).post(
        staff_url(tournament), {"action": "account", "password_mode": "generate", **data})
    assert response.status_code == 400
    assert get_user_model().objects.count() == users


def test_only_the_organizer_makes_accounts(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    response = client_of(people["chief"]).post(staff_url(tournament), {
        "action": "account", "username": "x", "name": "X", "password_mode": "generate"})
    assert response.status_code == 403 and not get_user_model().objects.filter(username="x").exists()


def test_the_link_signs_in_as_the_judge_for_that_tournament_only(
        round_: Any, people: dict[str, Any], make_tournament: Any) -> None:
    tournament = round_.stage.tournament
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])
    other = make_tournament("fiim", slug="other-cup")
    other.organizers.add(people["judge"])  # the same account organises another tournament
    link = links.issue_link(judge, people["organizer"])
    client = client_of()
    response = client.get(link_url(tournament, link.token))
    # the judge's one table to record: the link opens its live screen (several would open the list)
    live = reverse("games:table", args=[tournament.slug, table(round_, 1).pk])
    assert response.status_code == 302 and response["Location"] == live
    assert client.get(reverse("games:protocols", args=[tournament.slug])).status_code == 200
    assert client.get(reverse("games:protocol", args=[tournament.slug, table(round_, 1).pk])).status_code == 200
    assert client.get(reverse("games:protocol", args=[tournament.slug, table(round_, 2).pk])).status_code == 403
    # nothing beyond the link's tournament, though the account organises another one
    assert client.get(reverse("tournaments:detail", args=[other.slug])).status_code == 403
    assert client.get("/api/tournaments/").status_code == 403
    assert client.get("/new/").status_code == 403
    assert client.get(f"/p/{tournament.slug}/").status_code == 200  # the public pages stay open
    icon = client.get("/favicon.ico")  # a phone's browser asks for it by itself: the icon, not a 403
    assert icon.status_code == 302 and icon["Location"] == "/static/img/favicon-32.png"
    # the account's own login is not limited
    assert client_of(people["judge"]).get(reverse("tournaments:detail", args=[other.slug])).status_code == 200
    # a link opens its own tournament only
    assert client_of().get(link_url(other, link.token)).status_code == 404


def test_a_revoked_link_answers_404_and_its_session_stops(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])
    link = links.issue_link(judge, people["organizer"])
    client = client_of()
    client.get(link_url(tournament, link.token))
    protocols = reverse("games:protocols", args=[tournament.slug])
    assert client.get(protocols).status_code == 200
    response = client_of(people["organizer"]).post(staff_url(tournament), {"action": "revoke_link",
                                                                           "judge": judge.pk})
    assert response.status_code == 302
    assert client_of().get(link_url(tournament, link.token)).status_code == 404
    response = client.get(protocols)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")
    assert client.get(link_url(tournament, link.token)).status_code == 404
    # revoking again is refused (nothing in force)
    response = client_of(people["organizer"]).post(staff_url(tournament), {"action": "revoke_link",
                                                                           "judge": judge.pk}, follow=True)
    assert "No link was revoked" in response.content.decode()


def test_a_new_link_revokes_the_old_one(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])
    old = links.issue_link(judge, people["organizer"])
    client = client_of()
    client.get(link_url(tournament, old.token))
    response = client_of(people["organizer"]).post(staff_url(tournament), {"action": "give_link", "judge": judge.pk})
    assert response.status_code == 302
    new = PrivateLink.objects.get(judge=judge, revoked_at__isnull=True)
    assert new.token != old.token and len(new.token) >= 40
    assert client_of().get(link_url(tournament, old.token)).status_code == 404
    assert client.get(reverse("games:protocols", args=[tournament.slug])).status_code == 302  # signed out
    assert client_of().get(link_url(tournament, new.token)).status_code == 302


def test_a_judge_of_another_tournament_gets_no_link_from_our_page(round_: Any, people: dict[str, Any],
                                                                  make_user: Any) -> None:
    theirs = Tournament.objects.create(slug="theirs", name="Theirs", ruleset="fiim", starts=dt.date(2025, 1, 1))
    their_judge = staff.add_judge(theirs, make_user("theirs"))
    response = client_of(people["organizer"]).post(staff_url(round_.stage.tournament),
                                                   {"action": "give_link", "judge": their_judge.pk})
    assert response.status_code == 302 and not PrivateLink.objects.exists()


def test_the_qr_code_on_the_judges_page_and_the_organizers_seating_sheet(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])  # table 1 of the round
    link = links.issue_link(judge, people["organizer"])
    address = "http://testserver" + link_url(tournament, link.token)
    page = client_of(people["organizer"]).get(staff_url(tournament)).content.decode()
    assert page.count('class="segno"') == 1 and address in page
    url = reverse("paper:seating", args=[tournament.slug, round_.stage.ext_id, round_.number])
    sheet = client_of(people["organizer"]).get(url).content.decode()
    assert sheet.count('class="segno"') == 1 and sheet.count('class="judge-link"') == 1
    chief_sheet = client_of(people["chief"]).get(url).content.decode()
    assert 'class="segno"' not in chief_sheet  # the organizer's print only
    pdf = client_of(people["organizer"]).get(
        reverse("paper:seating_pdf", args=[tournament.slug, round_.stage.ext_id, round_.number]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_someone_else_signed_in_is_asked_before_switching(round_: Any, people: dict[str, Any]) -> None:
    """The organizer trying the QR code on their own phone is not signed out by surprise."""
    tournament = round_.stage.tournament
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])
    link = links.issue_link(judge, people["organizer"])
    client = client_of(people["organizer"])
    response = client.get(link_url(tournament, link.token))
    assert response.status_code == 200 and 'id="private-link-switch"' in response.content.decode()
    assert client.get(staff_url(tournament)).status_code == 200  # still the organizer
    response = client.post(link_url(tournament, link.token))
    assert response.status_code == 302
    assert client.get(staff_url(tournament)).status_code == 403  # now the judge
    # the judge signed in already (by password or by the link) goes straight on
    assert client_of(people["judge"]).get(link_url(tournament, link.token)).status_code == 302
    assert client.get(link_url(tournament, link.token)).status_code == 302
    links.revoke_link(tournament, judge.pk)
    assert client_of(people["organizer"]).post(link_url(tournament, link.token)).status_code == 404


def test_a_new_account_does_not_replace_the_chief_judge(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    response = client_of(people["organizer"]).post(staff_url(tournament), {
        "action": "account", "username": "newchief", "name": "New", "password_mode": "generate", "chief": "on"})
    assert response.status_code == 400 and "chief is already the chief judge" in response.content.decode()
    assert not get_user_model().objects.filter(username="newchief").exists()
    assert Judge.objects.get(tournament=tournament, chief=True).user == people["chief"]


def test_removing_the_judge_ends_the_links_session(round_: Any, people: dict[str, Any]) -> None:
    tournament = round_.stage.tournament
    judge = Judge.objects.get(tournament=tournament, user=people["judge"])
    link = links.issue_link(judge, people["organizer"])
    client = client_of()
    client.get(link_url(tournament, link.token))
    client_of(people["organizer"]).post(staff_url(tournament), {"action": "remove_judge", "judge": judge.pk})
    response = client.get(reverse("games:protocols", args=[tournament.slug]))
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_no_link_for_an_organizer_or_an_administrator(round_: Any, people: dict[str, Any], make_user: Any) -> None:
    """A link carries its account's rights: an organizer judging their own tournament, or a site administrator,
    signs in with their password."""
    tournament = round_.stage.tournament
    co_organizer, admin = make_user("co-organizer"), make_user("root", superuser=True)
    tournament.organizers.add(co_organizer)
    for user in (co_organizer, admin):
        judge = staff.add_judge(tournament, user)
        response = client_of(people["organizer"]).post(staff_url(tournament), {"action": "give_link",
                                                                               "judge": judge.pk}, follow=True)
        assert "a private link would give those rights" in response.content.decode()
    assert not PrivateLink.objects.exists()
