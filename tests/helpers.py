"""Plain helpers shared by the Django tests (imported by name; the fixtures are in tests/conftest.py).

- ``ROLES`` and ``table``: the roles of a full table per ruleset; a round's table by number.
- ``played_file`` and ``import_played``: a played fiim tournament, imported like any file (protocols confirmed).
- ``example_text``: a shared example tournament file by name (tests/scoring/data, then /work/shared/examples).
- ``templates_unrecorded``: pages rendered without the test runner's record of each template (for tests that
  read the answers, never ``response.context`` or ``response.templates``).
- ``sqlite_copy``: on SQLite, a copy of the test database a process the test starts can open.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from exchange.demo import _game

ROLES = {
    "fiim": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "kostroma": ["don", "mafia", "mafia", "sheriff", "doctor"] + ["civilian"] * 5,
    "zvezdy": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "tomsk": ["mafia", "mafia", "mafia", "maniac", "sheriff", "doctor"] + ["civilian"] * 6,
}


def table(round_: Any, number: int) -> Any:
    return round_.tables.get(number=number)


def played_file(players: int, rounds: int, *, seed: int = 5) -> dict[str, Any]:
    """``players`` (a multiple of 10) over ``rounds`` qualifying rounds; semifinal and final empty."""
    rng = random.Random(seed)
    ids = [f"p{i:03d}" for i in range(1, players + 1)]
    played = []
    for number in range(1, rounds + 1):
        order = ids[:]
        rng.shuffle(order)
        games = [_game(t + 1, order[t * 10: t * 10 + 10], rng) for t in range(players // 10)]
        played.append({"number": number, "seating": "random", "games": games})
    return {
        "format": "mafia-tournament/1", "ruleset": "fiim",
        "tournament": {"name": "Кубок проверки", "starts": "2025-03-15", "ends": "2025-03-16"},
        "players": [{"id": p, "name": f"Игрок {p}"} for p in ids],
        "stages": [
            {"id": "qualifying", "kind": "qualifying", "rounds": played},
            {"id": "semifinal", "kind": "semifinal", "rounds": []},
            {"id": "final", "kind": "final", "rounds": []},
        ],
    }


def import_played(organizer: Any, players: int = 40, rounds: int = 3, **kwargs: Any) -> Any:
    from exchange.files import import_text

    return import_text(json.dumps(played_file(players, rounds, **kwargs)), organizers=[organizer])


EXAMPLES = Path("/work/shared/examples")
LOCAL = Path(__file__).resolve().parent / "scoring" / "data"


def example_text(name: str) -> str:
    for folder in (LOCAL, EXAMPLES):
        if (folder / name).exists():
            return (folder / name).read_text(encoding="utf-8")
    raise FileNotFoundError(name)


def flip_a_result(tournament: Any, capture: Any) -> None:
    """Turns the winner of the tournament's first game round, committed (``capture``:
    ``django_capture_on_commit_callbacks``, so the results version is bumped as in production)."""
    from django.db import transaction

    from games.models import Game

    game = Game.objects.filter(table__round__stage__tournament=tournament).order_by("id").first()
    assert game is not None
    with capture(execute=True), transaction.atomic():
        game.winner = "black" if game.winner == "red" else "red"
        game.save()


@contextmanager
def templates_unrecorded() -> Iterator[None]:
    """Templates render as they do outside the tests for the ``with`` block. Under the test runner each template
    rendered (every widget of a form is one) sends ``template_rendered``, and the test client answers it with a copy
    of the context, for ``response.context`` and ``response.templates``: a quarter of a form page's time. The
    output is the same; a test that reads those two attributes must not use this."""
    from django.template.base import Template
    from django.test.utils import _TestState, instrumented_test_render  # type: ignore[attr-defined]

    recorded = Template._render  # type: ignore[attr-defined]
    if recorded is not instrumented_test_render:  # outside the test runner: nothing to take off
        yield
        return
    Template._render = _TestState.saved_data.template_render  # type: ignore[attr-defined]
    try:
        yield
    finally:
        Template._render = recorded  # type: ignore[attr-defined]


def sqlite_copy(path: Path) -> str:
    """A copy of the SQLite test database at ``path`` (its tables and what is committed), as a ``DATABASE_URL``. Read
    through a connection of its own: the test's connection holds SQLite's write lock from its transaction's start
    (IMMEDIATE, mafia_tournament/settings.py), and SQLite's backup of a connection that holds it waits forever."""
    import sqlite3
    from contextlib import closing

    from django.db import connection

    with closing(sqlite3.connect(connection.settings_dict["NAME"])) as source, \
            closing(sqlite3.connect(path)) as target:
        source.backup(target)
        target.execute("PRAGMA journal_mode=DELETE")
    return f"sqlite:///{path}"
