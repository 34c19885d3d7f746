"""The skeleton: pages render in both languages, static files come from installed packages."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.urls import reverse

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates


def test_bootstrap_and_htmx_are_served_from_installed_packages() -> None:
    css = finders.find("bootstrap/css/bootstrap.min.css")
    htmx = finders.find("django_htmx/htmx-2.min.js")
    assert css and htmx
    with open(css, encoding="utf-8") as f:
        assert "Bootstrap  v5." in f.read(200)


def test_base_layout_has_no_external_resources(client: Any, tournament: Any) -> None:
    html = client.get(reverse("site:tournaments")).content.decode()
    assert "/static/bootstrap/css/bootstrap.min.css" in html
    assert "django_htmx/htmx-2" in html
    assert 'name="viewport"' in html
    assert "bootstrap.bundle" not in html  # the menu's toggle is static/js/site.js's (only what pages use)
    assert "https://" not in html and "http://" not in html.replace("http://www.w3.org", "")


def test_list_is_russian_by_default_and_english_on_switch(client: Any, tournament: Any) -> None:
    html = client.get(reverse("site:tournaments")).content.decode()
    assert "Турниры" in html and tournament.name in html
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get(reverse("site:tournaments")).content.decode()
    assert "Tournaments" in html and "Турниры" not in html


def test_login_and_logout(client: Any, organizer: Any) -> None:
    response = client.post(reverse("login"), {"username": "director", "password": "pw-12345!"})
    assert response.status_code == 302
    assert client.get(reverse("site:tournaments")).context["user"].is_authenticated
    client.post(reverse("logout"))
    assert not client.get(reverse("site:tournaments")).context["user"].is_authenticated


def test_admin_lists_every_model(admin_client: Any, tournament: Any) -> None:
    for name in ["tournament", "player", "participant", "team", "stage", "round", "table", "seat", "bye",
                 "absence", "penalty"]:
        assert admin_client.get(reverse(f"admin:tournaments_{name}_changelist")).status_code == 200
    for name in ["game", "protest"]:
        assert admin_client.get(reverse(f"admin:games_{name}_changelist")).status_code == 200


def test_settings_read_the_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    import dj_database_url

    config = dj_database_url.parse("postgres://postgres@127.0.0.1:5432/test")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert config["NAME"] == "test"


def test_organizer_dashboard_is_refused_to_others(client: Any, stranger: Any, organizer: Any,
                                                  tournament: Any) -> None:
    url = reverse("tournaments:detail", kwargs={"slug": tournament.slug})
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    client.force_login(organizer)
    assert client.get(url).status_code == 200
