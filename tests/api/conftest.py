from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers import ROLES

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@pytest.fixture(autouse=True)
def english(settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def api() -> Any:
    """An API client for a user, authenticated by their token (made on first use)."""
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    def make(user: User | None = None) -> APIClient:
        client = APIClient()
        if user is not None:
            token, _ = Token.objects.get_or_create(user=user)
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        return client

    return make


def full_protocol(version: int, ruleset: str = "fiim", **game: Any) -> dict[str, Any]:
    roles = ROLES[ruleset]
    return {"version": version, "winner": "red", "seats": [
        {"seat": n, "role": role} for n, role in enumerate(roles, start=1)], **game}
