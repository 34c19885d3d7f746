"""The login's ``?next=`` and the language switcher's ``next`` never send anyone off the site:
after a successful login, or switching the language, the redirect stays on this site for every trick an
attacker's link could carry; an address of the site itself is kept."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import PASSWORD

pytestmark = pytest.mark.django_db

OFF_SITE = [
    "//evil.example",
    "https://evil.example/",
    "http://evil.example",
    "/\\evil.example",
    "\\\\evil.example",
    "javascript:alert(1)",
    "JavaScript:alert(1)",
    "\t//evil.example",
    " //evil.example",
    "/\t/evil.example",
    "%2F%2Fevil.example",  # in the address: decoded once, //evil.example; in the form: a relative path on the site
    "%252F%252Fevil.example",
    "///evil.example",
    "https:evil.example",
    "http://testserver@evil.example/",
    "data:text/html,<script>alert(1)</script>",
]


def assert_on_site(location: str) -> None:
    """Where a browser goes: it drops tabs and newlines anywhere and spaces at the ends, and reads a backslash
    as a slash; a relative address is resolved against the page (the login page, on this site)."""
    assert location, "no redirect"
    browser = "".join(c for c in location if c not in "\t\r\n").strip(" \x00").replace("\\", "/")
    parts = urlsplit(urljoin("http://testserver/accounts/login/", browser))
    assert parts.scheme in {"http", "https"}, location
    assert parts.hostname == "testserver" and not parts.username, location


@pytest.mark.parametrize("location", ["//evil.example", "/\\evil.example", "\t//evil.example", "https://evil.example/",
                                      "javascript:alert(1)", "http://testserver@evil.example/", " //evil.example"])
def test_the_check_itself_catches_an_off_site_redirect(location: str) -> None:
    with pytest.raises(AssertionError):
        assert_on_site(location)


@pytest.fixture(autouse=True)
def fast_hasher(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def login(next_url: str, *, query: bool) -> Any:
    client = Client()
    data = {"username": "director", "password": PASSWORD}
    url = reverse("login")
    if query:
        # the raw value in the address, as an attacker's link carries it
        return client.post(f"{url}?next={next_url}", data, REMOTE_ADDR="10.0.0.30")
    return client.post(url, {**data, "next": next_url}, REMOTE_ADDR="10.0.0.30")


@pytest.mark.parametrize("target", OFF_SITE)
@pytest.mark.parametrize("query", [True, False], ids=["in-address", "in-form"])
def test_the_login_never_redirects_off_the_site(organizer: Any, target: str, query: bool) -> None:
    response = login(target, query=query)
    assert response.status_code == 302, response.status_code
    assert_on_site(response["Location"])


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_login_form_does_not_carry_an_off_site_next(target: str) -> None:
    from django.utils.http import urlencode

    page = Client().get(reverse("login") + "?" + urlencode({"next": target}))
    assert page.status_code == 200
    carried = re.findall(r'<input type="hidden" name="next" value="([^"]*)">', page.content.decode())
    # the login form's own next (the language switcher's is this page's own address)
    assert len(carried) == 1
    if carried[0]:  # only what stays on the site, e.g. the encoded %2F%2F, a path of the login page itself
        assert_on_site(carried[0])


def test_an_address_of_the_site_is_kept(organizer: Any) -> None:
    assert login("/p/", query=False)["Location"] == "/p/"
    assert login("/p/?x=1", query=False)["Location"] == "/p/?x=1"
    assert login("http://testserver/p/", query=False)["Location"] == "http://testserver/p/"


@pytest.mark.parametrize("target", OFF_SITE)
def test_the_language_switcher_never_redirects_off_the_site(target: str) -> None:
    for referer in ({}, {"HTTP_REFERER": "https://evil.example/"}):
        response = Client().post(reverse("set_language"), {"language": "en", "next": target}, **referer)
        assert response.status_code == 302
        assert_on_site(response["Location"])


def test_the_language_switcher_returns_to_the_page() -> None:
    response = Client().post(reverse("set_language"), {"language": "en", "next": "/p/"})
    assert response["Location"] == "/p/"
