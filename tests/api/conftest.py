from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers import ROLES

if TYPE_CHECKING:
    pass


@pytest.fixture(autouse=True)
def english(settings: Any) -> None:
    settings.LANGUAGE_CODE = "en"



def full_protocol(version: int, ruleset: str = "fiim", **game: Any) -> dict[str, Any]:
    roles = ROLES[ruleset]
    return {"version": version, "winner": "red", "seats": [
        {"seat": n, "role": role} for n, role in enumerate(roles, start=1)], **game}
