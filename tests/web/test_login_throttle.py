"""Login throttling (django-axes, mafia_tournament/auth.py): password guessing is locked out per
username and address; other users, other addresses and the test client's login() are not affected."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db


def attempt(client: Client, username: str, password: str, ip: str = "10.0.0.1") -> Any:
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip,
                       HTTP_ACCEPT_LANGUAGE="en")


def test_five_wrong_passwords_lock_the_username_from_that_address(organizer: Any, stranger: Any) -> None:
    client = Client()
    for _ in range(4):
        assert attempt(client, organizer.username, "guess").status_code == 200  # the form again, with an error
    locked = attempt(client, organizer.username, "guess")
    assert locked.status_code == 429
    assert 'id="locked-out"' in locked.content.decode()
    # now even the right password is refused there, and nobody is logged in
    assert attempt(client, organizer.username, PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session
    # another user from the same address, and the same user from elsewhere, log in
    assert attempt(Client(), stranger.username, PASSWORD).status_code == 302
    assert attempt(Client(), organizer.username, PASSWORD, ip="10.0.0.2").status_code == 302


def test_the_lockout_page_is_translated(organizer: Any) -> None:
    client = Client()
    for _ in range(5):
        attempt(client, organizer.username, "guess")
    response = client.post(reverse("login"), {"username": organizer.username, "password": "x"},
                           REMOTE_ADDR="10.0.0.1", HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 429
    assert "Слишком много неудачных попыток входа" in response.content.decode()


def test_a_right_password_resets_the_count(organizer: Any) -> None:
    client = Client()
    for _ in range(4):
        attempt(client, organizer.username, "guess")
    assert attempt(client, organizer.username, PASSWORD).status_code == 302
    client = Client()
    for _ in range(4):
        assert attempt(client, organizer.username, "guess").status_code == 200
    assert attempt(client, organizer.username, PASSWORD).status_code == 302


def test_the_api_token_endpoint_is_throttled_too(organizer: Any) -> None:
    client = Client()
    url = reverse("api:token")
    for _ in range(5):
        assert client.post(url, {"username": organizer.username, "password": "guess"},
                           REMOTE_ADDR="10.0.0.9").status_code == 400
    response = client.post(url, {"username": organizer.username, "password": PASSWORD}, REMOTE_ADDR="10.0.0.9")
    assert response.status_code in {400, 429}
    assert "token" not in response.content.decode()


def test_the_test_clients_login_still_works(organizer: Any) -> None:
    """Other tests log in with Client.login(), which passes no request to the backends."""
    assert Client().login(username=organizer.username, password=PASSWORD)
    assert not Client().login(username=organizer.username, password="guess")


def test_the_client_address_behind_trusted_proxies(monkeypatch: Any) -> None:
    from django.test import RequestFactory

    from mafia_tournament.auth import client_ip

    request = RequestFactory().get("/", REMOTE_ADDR="10.1.1.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    assert client_ip(request) == "10.1.1.1"
    monkeypatch.setenv("TRUSTED_PROXIES", "1")
    assert client_ip(request) == "203.0.113.7"  # what our one proxy saw; the client's own claim is ignored
    monkeypatch.setenv("TRUSTED_PROXIES", "3")
    assert client_ip(request) == "10.1.1.1"  # fewer hops than proxies: not trusted
