"""Password spraying: many usernames with one wrong password each, from one address, are
throttled address-wide (``LOGIN_ADDRESS_FAILURE_LIMIT``, default 20 in the cool-off window, so a spray of
20 usernames × 1 wrong password lock it) on the login page, the admin's login and the API's token endpoint;
another address is not affected, and a right password from an address that is not locked still works."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

SPRAYER = "198.51.100.7"
ELSEWHERE = "203.0.113.20"


def login_page(username: str, password: str, ip: str) -> Any:
    return Client().post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=ip,
                         HTTP_ACCEPT_LANGUAGE="en")


def admin_login(username: str, password: str, ip: str) -> Any:
    return Client().post(reverse("admin:login"), {"username": username, "password": password,
                                                   "next": reverse("admin:index")},
                         REMOTE_ADDR=ip, HTTP_ACCEPT_LANGUAGE="en")


def token(username: str, password: str, ip: str) -> Any:
    return Client().post(reverse("api:token"), {"username": username, "password": password}, REMOTE_ADDR=ip,
                         HTTP_ACCEPT_LANGUAGE="en")


def logged_in(response: Any) -> bool:
    if response["Content-Type"].startswith("application/json"):
        return response.status_code == 200 and "token" in response.json()
    return response.status_code == 302


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    """Each wrong password costs a full PBKDF2 hash; a cheap hasher keeps 20 of them per test quick."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


ENDPOINTS = [pytest.param(login_page, id="login"), pytest.param(admin_login, id="admin"),
             pytest.param(token, id="token")]


def test_the_defaults() -> None:
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.LOGIN_ADDRESS_FAILURE_LIMIT == 20


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_spraying_usernames_locks_the_address(endpoint: Any, make_user: Callable[..., User]) -> None:
    admin = make_user("chief", superuser=True)
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    for i in range(limit - 1):
        response = endpoint(f"player{i}", "Summer2025!", SPRAYER)
        assert response.status_code in {200, 400}, (i, response.status_code)  # a wrong password, not locked yet
    assert endpoint(f"player{limit}", "Summer2025!", SPRAYER).status_code == 429  # the limit-th failure locks
    # now even a right password from that address is refused, with the lockout page or answer
    locked = endpoint(admin.username, PASSWORD, SPRAYER)
    assert locked.status_code == 429 and not logged_in(locked)
    assert int(locked["Retry-After"]) > 0
    if not locked["Content-Type"].startswith("application/json"):
        assert "from this address" in locked.content.decode()
    # another address is not locked
    assert logged_in(endpoint(admin.username, PASSWORD, ELSEWHERE))


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_below_the_address_limit_a_right_password_works(endpoint: Any, make_user: Callable[..., User]) -> None:
    admin = make_user("chief", superuser=True)
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT - 2):
        endpoint(f"player{i}", "Summer2025!", SPRAYER)
    assert logged_in(endpoint(admin.username, PASSWORD, SPRAYER))


def test_a_right_password_does_not_reset_the_address_count(make_user: Callable[..., User]) -> None:
    """A sprayer who has an account of their own cannot wipe the address's count by logging in with it."""
    own = make_user("sprayer")
    limit = settings.LOGIN_ADDRESS_FAILURE_LIMIT
    for i in range(limit - 1):
        login_page(f"player{i}", "Summer2025!", SPRAYER)
    assert logged_in(login_page(own.username, PASSWORD, SPRAYER))
    assert login_page("player-last", "Summer2025!", SPRAYER).status_code == 429


def test_the_address_limit_is_configurable(settings: Any, make_user: Callable[..., User]) -> None:
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 8
    for i in range(7):
        assert token(f"player{i}", "x", SPRAYER).status_code == 400
    assert token("player7", "x", SPRAYER).status_code == 429


def test_one_username_still_locks_at_five_from_an_address_far_below_the_address_limit(organizer: Any) -> None:
    for _ in range(4):
        assert login_page(organizer.username, "guess", SPRAYER).status_code == 200
    assert login_page(organizer.username, "guess", SPRAYER).status_code == 429
    assert 'id="locked-out"' in login_page(organizer.username, PASSWORD, SPRAYER).content.decode()
    assert logged_in(login_page(organizer.username, PASSWORD, ELSEWHERE))
