"""``Staff.may``: the one answer to who may act, for each role (the table check is walked in tests/web)."""

from __future__ import annotations

import pytest

from games.permissions import Staff

ACTIONS = ("enter", "see_all", "confirm", "reopen", "decide", "print")


@pytest.mark.parametrize(("staff", "allowed"), [
    (Staff(), set()),
    (Staff(organizer=True), {"enter", "see_all", "confirm", "print"}),
    (Staff(chief=True), set(ACTIONS)),
])
def test_each_role_may_what_it_may(staff: Staff, allowed: set[str]) -> None:
    assert {action for action in ACTIONS if staff.may(action)} == allowed  # type: ignore[arg-type]


def test_opening_a_table_needs_the_table() -> None:
    with pytest.raises(TypeError):
        Staff(organizer=True).may("open")
