"""Fixtures shared by the Django tests: users, tournaments, participants; a published round with its
judges (``make_round``, ``round_``, ``people``); tournaments built through the import service
(``import_file``, ``generated``, ``fiim``). Plain helpers are in tests/helpers.py, imported by name.

The scoring tests need no database and use none of these.
"""

from __future__ import annotations

import datetime as dt
import json
from typing import TYPE_CHECKING, Any

import pytest

from tests.helpers import example_text, templates_unrecorded

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

PASSWORD = "pw-12345!"


@pytest.fixture(scope="session", autouse=True)
def fast_password_hasher() -> Any:
    """A cheap hasher for every test run in this process: the default PBKDF2 takes half a second a user on purpose,
    and the suite makes and logs in hundreds of users (what a test checks of a password, a login, a lockout is the
    same with any hasher). Processes a test starts (gunicorn, ``manage.py``) keep the real settings."""
    from django.test import override_settings

    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def templates_rendered_as_outside_the_tests(request: pytest.FixtureRequest) -> Any:
    """Pages render as they do outside the tests (``templates_unrecorded``): the test runner's record of each
    template rendered, a copy of every context for ``response.context`` and ``response.templates``, was a quarter to a
    half of a page's time in the tests, and few tests read it. A module that reads them marks itself
    ``templates_recorded`` (an unrecorded answer's ``context`` is None, so a test that reads it fails)."""
    if request.node.get_closest_marker("templates_recorded"):
        yield
        return
    with templates_unrecorded():
        yield


TASKS_AT_ONCE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend",
                               "QUEUES": ["stream", "seating", "documents", "notices"]}}
TASKS_IN_DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend",
                                 "QUEUES": ["stream", "seating", "documents", "notices"]}}


@pytest.fixture(scope="session", autouse=True)
def tasks_run_at_once() -> Any:
    """Background tasks (tournaments/background.py) run at once, in the thread that queues them, so a test sees
    their work: a seating job done, a document built, a stream frame sent. ``real_workers`` runs them as production
    does: rows of the database, taken by the workers."""
    from django.test import override_settings

    with override_settings(TASKS=TASKS_AT_ONCE):
        yield


@pytest.fixture
def real_workers(settings: Any) -> Any:
    """The tasks go through the database to ``db_worker``'s own workers, one thread a queue in this process (as
    ``make run`` runs them); stopped at the end. Needs committed data: ``django_db(transaction=True)`` or the live
    server."""
    from tournaments import background

    settings.TASKS = TASKS_IN_DATABASE
    workers = background.start_in_process()
    yield workers
    workers.stop()


@pytest.fixture(scope="session", autouse=True)
def no_collected_static(tmp_path_factory: Any) -> Any:
    """An empty ``STATIC_ROOT`` in the test process, as in a fresh checkout. The bench's smoke test runs
    ``collectstatic`` into ``staticfiles/`` (for gunicorn); once it is there, WhiteNoise's middleware listed its
    1,400 files again for every new test ``Client`` (0.3 s each), and the suite ran minutes slower on every run
    after the first. No test here reads a collected file; the processes the tests start keep the real setting."""
    from django.test import override_settings

    with override_settings(STATIC_ROOT=str(tmp_path_factory.mktemp("static-root"))):
        yield


def new_user(username: str, *, can_create: bool = False, superuser: bool = False) -> User:
    """A user with the tests' password; ``can_create``: may create tournaments (as ``organizer``)."""
    from django.contrib.auth.models import Permission, User

    if superuser:
        return User.objects.create_superuser(username, f"{username}@example.org", PASSWORD)
    user = User.objects.create_user(username, f"{username}@example.org", PASSWORD)
    if can_create:
        user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    return user


@pytest.fixture
def make_user(db: Any) -> Callable[..., User]:
    return new_user


@pytest.fixture
def organizer(make_user: Callable[..., User]) -> User:
    return make_user("director", can_create=True)


@pytest.fixture
def stranger(make_user: Callable[..., User]) -> User:
    """A logged-in user who organises nothing."""
    return make_user("stranger")


def new_tournament(organizer: Any, ruleset: str = "fiim", slug: str | None = None, **fields: Any) -> Any:
    """A tournament of ``organizer`` under ``ruleset`` (``make_tournament``'s, for kept worlds too)."""
    from tournaments.models import Tournament

    slug = slug or f"{ruleset}-cup"
    tournament = Tournament.objects.create(
        slug=slug,
        name=fields.pop("name", f"{ruleset.title()} Cup 2025"),
        ruleset=ruleset,
        city=fields.pop("city", "Кострома" if ruleset == "kostroma" else "Зеленоград"),  # kostroma 2.1: residents
        starts=fields.pop("starts", dt.date(2025, 3, 15)),
        ends=fields.pop("ends", dt.date(2025, 3, 16)),
        **fields,
    )
    tournament.organizers.add(organizer)
    return tournament


@pytest.fixture
def make_tournament(organizer: Any) -> Any:
    def make(ruleset: str = "fiim", slug: str | None = None, **fields: Any) -> Any:
        return new_tournament(organizer, ruleset, slug, **fields)

    return make


@pytest.fixture
def tournament(make_tournament: Any) -> Any:
    return make_tournament("fiim")


SURNAMES = ["Иванов", "Петров", "Сидоров", "Смирнов", "Кузнецов", "Попов", "Васильев", "Соколов", "Михайлов",
            "Новиков", "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов"]
NAMES = ["Иван", "Пётр", "Анна", "Мария", "Дмитрий", "Ольга", "Сергей", "Елена", "Андрей", "Юлия"]


def new_participants(tournament: Any, count: int, *, start: int = 1) -> list[Any]:
    """Registers ``count`` realistic players as accepted participants numbered ``start``.. (``add_participants``)."""
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


@pytest.fixture
def add_participants() -> Any:
    """Registers ``count`` realistic players as accepted participants numbered 1..count."""
    return new_participants


# --- a published round and its people (the games' pages, the API, the paper, the site's walks) -------------


def new_round(organizer: Any, ruleset: str = "fiim", tables: int = 2, kind: str = "qualifying") -> Any:
    """A tournament of ``organizer`` with one stage and its first round published, ``tables`` tables seated."""
    from tournaments.models import Round, RoundState, Seat, Stage, Table

    tournament = new_tournament(organizer, ruleset)
    size = 12 if ruleset == "tomsk" else 10
    players = new_participants(tournament, size * tables)
    stage = Stage.objects.create(tournament=tournament, ext_id="q", kind=kind, order=1)
    round_ = Round.objects.create(stage=stage, number=1, seating="random", state=RoundState.PUBLISHED)
    for t in range(tables):
        row = Table.objects.create(round=round_, number=t + 1)
        Seat.objects.bulk_create(
            Seat(table=row, round=round_, number=n + 1, participant=players[t * size + n]) for n in range(size)
        )
    return round_


@pytest.fixture
def make_round(organizer: Any) -> Any:
    def make(ruleset: str = "fiim", tables: int = 2, kind: str = "qualifying") -> Any:
        return new_round(organizer, ruleset, tables, kind)

    return make


@pytest.fixture
def round_(make_round: Any) -> Any:
    return make_round("fiim")


def new_people(round_: Any, prefix: str = "") -> dict[str, Any]:
    """Users by role; the judge hosts table 1 of the round, the other judge table 2 of the stage."""
    from judges.services import staff

    tournament = round_.stage.tournament
    chief, judge, other = (new_user(f"{prefix}{name}") for name in ("chief", "judge", "other"))
    staff.add_judge(tournament, chief, chief=True)
    j = staff.add_judge(tournament, judge)
    o = staff.add_judge(tournament, other)
    staff.assign(j, round_.stage, round_, 1)
    staff.assign(o, round_.stage, None, 2)
    return {"chief": chief, "judge": judge, "other": other, "organizer": tournament.organizers.get()}


@pytest.fixture
def people(round_: Any, db: Any) -> dict[str, Any]:
    """Users by role; the judge hosts table 1 of the round, the other judge table 2 of the stage."""
    return new_people(round_)


# --- tournaments built through the import service (the public pages, the paper) ---------------------------


@pytest.fixture
def import_file(organizer: Any) -> Any:
    """Imports a tournament file (a dict or an example's name) and returns the tournament."""
    from exchange.files import import_text

    def load(source: str | dict[str, Any], slug: str, **info: Any) -> Any:
        data = json.loads(example_text(source)) if isinstance(source, str) else source
        data.setdefault("tournament", {}).update(info)
        return import_text(json.dumps(data), slug=slug, organizers=[organizer])

    return load


@pytest.fixture
def generated(import_file: Any) -> Any:
    """A generated tournament of ``players`` players and ``rounds`` rounds in ``stages`` stages."""
    from scoring import fileio
    from scoring.generate import generate

    def make(slug: str, players: int = 20, rounds: int = 2, ruleset: str = "fiim", stages: int = 1,
             **info: Any) -> Any:
        data = fileio.dump(generate(ruleset, players=players, rounds=rounds, seed=7, stages=stages))
        data["tournament"] = {"name": f"Generated {slug}", **info}
        return import_file(data, slug)

    return make


@pytest.fixture
def fiim(import_file: Any) -> Any:
    return import_file("fiim-example.json", "fiim-open")


@pytest.fixture(scope="module")
def kept_fiim(django_db_setup: Any, django_db_blocker: Any) -> Any:
    """``fiim`` and its ``organizer`` imported once for a module (tests/worlds.py: ``kept_fiim_fixtures``)."""
    from tests.worlds import build_fiim, kept_world

    with kept_world(django_db_blocker) as build:
        yield build(build_fiim)


# The four examples as one rated season, one a month (tests/ratings, the rating's browser journey).
SEASON = {"tomsk": "2025-01-10", "kostroma": "2025-02-10", "fiim": "2025-03-10", "zvezdy": "2025-04-10"}


SEASON_LEVELS = {"tomsk": "club", "kostroma": "open", "fiim": "championship", "zvezdy": "open"}


def import_season(organizer: Any) -> list[Any]:
    """The four examples as one season, one a month (levels: club, open, championship, open), their standings
    shown (zvezdy's example hides them); each rated as it is imported where the commit's callbacks run."""
    from exchange.files import import_text

    tournaments = []
    for name, day in SEASON.items():
        data = json.loads(example_text(f"{name}-example.json"))
        data.setdefault("tournament", {}).update(starts=day, ends=day, level=SEASON_LEVELS[name],
                                                 standings_hidden=False)
        tournaments.append(import_text(json.dumps(data), slug=f"{name}-rated", organizers=[organizer]))
    return tournaments


@pytest.fixture
def season(organizer: Any, django_capture_on_commit_callbacks: Any) -> list[Any]:
    """``import_season`` for one test (tests/ratings keeps one for a whole module: its conftest)."""
    with django_capture_on_commit_callbacks(execute=True):
        return import_season(organizer)


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
