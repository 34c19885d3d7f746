"""Two judges and the chief judge saving the same protocol at the same moment: threads, each
with its own PostgreSQL connection, released together by a barrier. One change wins; the others are told,
in one clear message, that the protocol changed meanwhile, and nothing is lost or silently merged. Judges
who reload and tap again all get their facts in."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from games.models import Game, GameSeat
from games.reasons import foul_choices
from games.services import protocol as service
from judges.models import Judge
from judges.services import staff
from tests.helpers import ROLES, table

if TYPE_CHECKING:
    from django.contrib.auth.models import User

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL (DATABASE_URL)"),
]

CONFLICT = "The protocol was changed meanwhile"


def together(calls: list[Callable[[], Any]]) -> list[Any]:
    """Runs the calls in threads released at once; each thread closes its own connection."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(i: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait()
            results[i] = call()
        except Exception as error:  # reported to the test, not lost in the thread
            results[i] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


@pytest.fixture
def scene(round_: Any, people: dict[str, Any]) -> dict[str, Any]:
    """Table 1 with two judges (the second one assigned to it too) and the chief judge; roles are in."""
    first = table(round_, 1)
    tournament = round_.stage.tournament
    second = Judge.objects.get(tournament=tournament, user=people["other"])
    staff.assign(second, round_.stage, round_, 1)
    users = {"judge": people["judge"], "second": people["other"], "chief": people["chief"]}
    clients = {}
    for name, user in users.items():
        clients[name] = Client(HTTP_ACCEPT_LANGUAGE="en")
        clients[name].force_login(user)
    game = service.open_protocol(first, people["judge"])
    slug = tournament.slug
    urls = {"form": reverse("games:protocol", args=[slug, first.pk]),
            "screen": reverse("games:table", args=[slug, first.pk])}
    roles = {f"s{n}_role": role for n, role in enumerate(ROLES["fiim"], start=1)}
    answer = clients["judge"].post(urls["screen"], {"action": "roles", "version": game.version, **roles})
    assert answer.status_code == 302
    game.refresh_from_db()
    return {"game": game, "clients": clients, "users": users, "urls": urls, "roles": roles}


def form_data(version: int, roles: dict[str, str], **changes: str) -> dict[str, str]:
    return {"version": str(version), "last_day": "3", **roles, **changes}


def test_three_saves_of_one_version_one_wins_two_are_told(scene: dict[str, Any]) -> None:
    game, clients, url = scene["game"], scene["clients"], scene["urls"]["form"]
    v0, foul = game.version, foul_choices("fiim")[0][0]
    changes = {"judge": {"s1_foul1": foul}, "second": {"winner": "black"}, "chief": {"notes": "chief was here"}}
    posts = [lambda who=who: clients[who].post(url, form_data(v0, scene["roles"], **changes[who]))
             for who in changes]
    answers = dict(zip(changes, together(posts), strict=True))
    for who, answer in answers.items():
        assert not isinstance(answer, Exception), (who, answer)
    codes = sorted(a.status_code for a in answers.values())
    assert codes == [302, 409, 409]
    winner = next(who for who, a in answers.items() if a.status_code == 302)
    for who, answer in answers.items():
        if who != winner:
            page = answer.content.decode()
            assert page.count(CONFLICT) == 1  # one clear message, naming who changed it
            assert scene["users"][winner].get_username() in page
    game.refresh_from_db()
    assert game.version == v0 + 1 and game.changed_by == scene["users"][winner]
    seat1 = GameSeat.objects.get(game=game, seat__number=1)
    assert (seat1.fouls == 1) == (winner == "judge")  # only the winner's change is in, nothing merged
    assert (game.winner == "black") == (winner == "second")
    assert (game.notes == "chief was here") == (winner == "chief")


def test_taps_retried_on_conflict_all_get_in(scene: dict[str, Any]) -> None:
    """Each of the three taps fouls on its own seats three times; on a conflict it reloads the version and
    taps again, as the screen invites. Every one of the nine fouls ends up in the protocol."""
    game, clients, url = scene["game"], scene["clients"], scene["urls"]["screen"]
    v0 = game.version
    seats = {"judge": (2, 3, 4), "second": (5, 6, 7), "chief": (8, 9, 10)}
    conflicts: list[int] = []

    def tapper(who: str) -> Callable[[], int]:
        def tap_all() -> int:
            for seat in seats[who]:
                for _attempt in range(50):
                    version = Game.objects.values_list("version", flat=True).get(pk=game.pk)
                    answer = clients[who].post(url, {"action": "foul", "seat": seat, "version": version,
                                                     "reason": foul_choices("fiim")[0][0]})
                    if answer.status_code == 302:
                        break
                    assert answer.status_code == 409 and CONFLICT in answer.content.decode()
                    conflicts.append(seat)
                else:
                    raise AssertionError(f"{who} never got seat {seat} in")
            return len(seats[who])

        return tap_all

    results = together([tapper(who) for who in seats])
    assert results == [3, 3, 3], results
    game.refresh_from_db()
    assert game.version == v0 + 9
    fouls = dict(GameSeat.objects.filter(game=game).values_list("seat__number", "fouls"))
    assert all(fouls[n] == 1 for group in seats.values() for n in group), fouls
    assert fouls[1] == 0
    print(f"conflicts met and retried: {len(conflicts)}")


def test_the_service_serialises_simultaneous_changes(scene: dict[str, Any]) -> None:
    """The same race below the views: ``service.change`` with the same version from three threads."""
    game = scene["game"]
    v0 = game.version

    def change(user: User, note: str) -> Callable[[], Any]:
        def set_note(facts: Any) -> None:
            facts.notes = note

        return lambda: service.change(Game.objects.get(pk=game.pk), user, v0, set_note)

    results = together([change(user, name) for name, user in scene["users"].items()])
    won = [r for r in results if isinstance(r, Game)]
    lost = [r for r in results if isinstance(r, service.VersionConflict)]
    assert len(won) == 1 and len(lost) == 2, results
    game.refresh_from_db()
    assert game.version == v0 + 1 and game.notes == won[0].notes
    assert game.notes in scene["users"]
