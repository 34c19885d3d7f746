"""Fixtures shared by the Django tests (tests/tournaments, tests/games, tests/web).

The scoring tests need no database and use none of these.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

PASSWORD = "pw-12345!"


@pytest.fixture
def make_user(django_user_model: Any) -> Callable[..., User]:
    def make(username: str, *, can_create: bool = False, superuser: bool = False) -> User:
        from django.contrib.auth.models import Permission

        if superuser:
            return django_user_model.objects.create_superuser(username, f"{username}@example.org", PASSWORD)
        user = django_user_model.objects.create_user(username, f"{username}@example.org", PASSWORD)
        if can_create:
            user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
        return user

    return make


@pytest.fixture
def organizer(make_user: Callable[..., User]) -> User:
    return make_user("director", can_create=True)


@pytest.fixture
def stranger(make_user: Callable[..., User]) -> User:
    """A logged-in user who organises nothing."""
    return make_user("stranger")


@pytest.fixture
def make_tournament(organizer: Any) -> Any:
    def make(ruleset: str = "fiim", slug: str | None = None, **fields: Any) -> Any:
        from tournaments.models import Tournament

        slug = slug or f"{ruleset}-cup"
        tournament = Tournament.objects.create(
            slug=slug,
            name=fields.pop("name", f"{ruleset.title()} Cup 2025"),
            ruleset=ruleset,
            city=fields.pop("city", "Зеленоград"),
            starts=fields.pop("starts", dt.date(2025, 3, 15)),
            ends=fields.pop("ends", dt.date(2025, 3, 16)),
            **fields,
        )
        tournament.organizers.add(organizer)
        return tournament

    return make


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament("fiim")


SURNAMES = ["Иванов", "Петров", "Сидоров", "Смирнов", "Кузнецов", "Попов", "Васильев", "Соколов", "Михайлов",
            "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов"]
NAMES = ["Иван", "Пётр", "Анна", "Мария", "Дмитрий", "Ольга", "Сергей", "Елена", "Андрей", "Юлия"]


@pytest.fixture
def add_participants() -> Any:
    """Registers ``count`` realistic players as accepted participants numbered 1..count."""

    def add(tournament: Any, count: int, *, start: int = 1) -> list[Any]:
        from tournaments.models import Participant, Player

        players = Player.objects.bulk_create(
            Player(
                surname=SURNAMES[i % len(SURNAMES)],
                first_name=NAMES[(i // len(SURNAMES)) % len(NAMES)],
                nickname=f"ник{i}",
                city="Москва",
                club="Клуб «Полночь»",
                birth_date=dt.date(1990, 1, 1) + dt.timedelta(days=37 * i),
                phone=f"+7 900 000-{i:04d}",
            )
            for i in range(start, start + count)
        )
        return Participant.objects.bulk_create(
            Participant(tournament=tournament, player=p, number=start + i, ext_id=f"p{start + i:03d}")
            for i, p in enumerate(players)
        )

    return add


# --- the fuzz suite's count (tests/fuzz): each test records how many inputs it tried ----------------------


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line after the run: the generated inputs the fuzz suite tried and how many of its tests failed
    (``fuzz_inputs``, recorded by each fuzz test as its fixture ends: on the teardown report; under xdist the
    reports come back to this process)."""
    inputs: dict[str, int] = {}
    failed: set[str] = set()
    for reports in terminalreporter.stats.values():
        for report in reports:
            nodeid = getattr(report, "nodeid", None)
            if nodeid is None:
                continue
            if getattr(report, "failed", False):
                failed.add(nodeid)
            for key, value in getattr(report, "user_properties", []):
                if key == "fuzz_inputs":
                    inputs[nodeid] = max(inputs.get(nodeid, 0), int(value))
    if inputs:
        terminalreporter.write_line(f"fuzz suite: {sum(inputs.values())} generated inputs tried by {len(inputs)} "
                                    f"tests, {len(failed & set(inputs))} of them failed")
