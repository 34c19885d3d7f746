"""A full protocol per ruleset through the pages (tomsk, kostroma, zvezdy; fiim is in
test_protocol_pages): roles, fouls to removal, departures (days survived, first kill), best move,
marks, extra points within the limits, submit, confirm; each broken rule refused naming the seat;
then the stage's standings, computed by ``scoring`` from the rows, give every seat the points
worked out by hand in each test."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, GameState
from running.services.stages import stage_standings
from tests.helpers import ROLES, table

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def round_(make_round: Any, request: Any) -> Any:
    return make_round(request.param)


class Table:
    """Table 1 of ``round_`` on the judge's screen, in English."""

    def __init__(self, round_: Any, judge: Any, roles: dict[int, str]) -> None:
        self.round = round_
        self.client = Client(HTTP_ACCEPT_LANGUAGE="en")
        self.client.force_login(judge)
        kwargs = {"slug": round_.stage.tournament.slug, "table": table(round_, 1).pk}
        self.url = reverse("games:table", kwargs=kwargs)
        self.state_url = reverse("games:state", kwargs=kwargs)
        assert self.client.get(self.url).status_code == 200
        self.tap("roles", **{f"s{n}_{key}": value for n, role in roles.items()
                             for key, value in zip(("role", "side"), role.split(":"), strict=False)})

    @property
    def game(self) -> Game:
        return Game.objects.get(table__round=self.round, table__number=1)

    def tap(self, action: str, **data: Any) -> str:
        response = self.client.post(self.url, {"action": action, "version": self.game.version, **data}, **HTMX)
        assert response.status_code == 200
        page = response.content.decode()
        assert 'id="screen-error"' not in page, page[:600]
        return page

    def refused(self, action: str, **data: Any) -> str:
        """The tap is refused with a message and nothing changes."""
        version = self.game.version
        response = self.client.post(self.url, {"action": action, "version": version, **data}, **HTMX)
        page = response.content.decode()
        assert 'id="screen-error"' in page and self.game.version == version
        return page.split('id="screen-error">', 1)[1].split("</div>", 1)[0]

    def fouls(self, seat: int, count: int, reason: str = "other") -> str:
        return [self.tap("foul", seat=seat, reason=reason) for _ in range(count)][-1]

    def next_phase(self, times: int = 1) -> None:
        for _ in range(times):
            self.tap("phase", value="next")

    def state(self, client: Client, action: str) -> None:
        client.post(self.state_url, {"action": action, "version": self.game.version})


def roles_of(ruleset: str) -> dict[int, str]:
    return dict(enumerate(ROLES[ruleset], start=1))


def points_by_seat(round_: Any) -> dict[int, Fraction]:
    """Each seat of table 1 and its points in the stage's standings (one game played)."""
    rows = {row.player: row for row in stage_standings(round_.stage).rows}
    seats = table(round_, 1).seats.select_related("participant")
    return {s.number: rows[s.participant.ext_id].points for s in seats}


def confirm(screen: Table, people: dict[str, Any]) -> None:
    chief = Client(HTTP_ACCEPT_LANGUAGE="en")
    chief.force_login(people["chief"])
    screen.state(screen.client, "submit")
    assert screen.game.state == GameState.SUBMITTED
    screen.state(chief, "confirm")
    assert screen.game.state == GameState.CONFIRMED


@pytest.mark.parametrize("round_", ["kostroma"], indirect=True)
def test_kostroma(round_: Any, people: dict[str, Any]) -> None:
    roles = roles_of("kostroma") | {6: "musician:black"}  # an extra character playing black
    screen = Table(round_, people["judge"], roles)
    assert "Seat 9" in screen.fouls(9, 3, "gestures")  # the 3rd foul: loses the next speech
    assert "−1 points for the removal" in screen.tap("foul", seat=9, reason="knocking")
    screen.tap("voted", seat=8)
    screen.next_phase()
    screen.tap("killed", seat=7)
    screen.tap("winner", value="black")
    screen.tap("extra", seat=1, value="1")
    screen.tap("extra", seat=4, value="0.5")  # independent of the winner under kostroma
    assert "Seat 2: a winning player can get 0, 0.5 or 1 extra points under Kostroma" in screen.refused(
        "extra", seat=2, value="0.75")
    assert "Extra points total 2.5; Kostroma allows at most 2" in screen.refused("extra", seat=2, value="1")
    screen.tap("extra", seat=2, value="0.5")
    assert "4 players got extra points; Kostroma allows at most 3" in screen.refused("extra", seat=3, value="0.5")
    two_musicians = {f"s{n}_role": r.split(":")[0] for n, r in roles.items()} | {"s6_side": "black",
                                                                                   "s7_role": "musician"}
    assert "Seats 6 and 7 are both musician; a table has at most one." in screen.refused("roles", **two_musicians)
    confirm(screen, people)
    assert screen.game.first_killed == 7
    # Black won: 4 to each black player, the musician (black) included; extras as given; the removed
    # seat 9 (red, lost) 0 - 1; the qualifying multiplier is 1.
    assert points_by_seat(round_) == {1: 5, 2: Fraction(9, 2), 3: 4, 4: Fraction(1, 2), 5: 0, 6: 4, 7: 0, 8: 0,
                                      9: -1, 10: 0}


@pytest.mark.parametrize("round_", ["zvezdy"], indirect=True)
def test_zvezdy(round_: Any, people: dict[str, Any]) -> None:
    screen = Table(round_, people["judge"], roles_of("zvezdy"))
    screen.tap("voted", seat=10)
    screen.next_phase()
    screen.tap("killed", seat=5)
    for named in (1, 2, 9):  # the first killed (a civilian) names 2 blacks of 3
        screen.tap("best_move", seat=named)
    own = screen.refused("best_move", seat=5)
    assert own == "Seat 5: best_move: the first-killed player cannot name their own seat"
    for seat, kind, circle in ((4, "best", 1), (6, "best", 1), (2, "worst", 1), (4, "best", 2), (7, "worst", 2),
                               (8, "worst", 2)):
        screen.tap(f"circle_{kind}", seat=seat, circle=circle)
    assert "Circle 2: 3 players named worst; “Forward to the stars” allows at most 2" in screen.refused(
        "circle_worst", seat=9, circle=2)
    assert "Seat 3" in screen.fouls(3, 3)
    assert "−3 points for the removal" in screen.tap("foul", seat=3)
    screen.tap("extra", seat=4, value="1.5")
    screen.tap("extra", seat=2, value="-1")
    refused = screen.refused("extra", seat=6, value="0.3")
    assert "Seat 6: extra 0.3 is not allowed under “Forward to the stars”" in refused
    assert "Seat 6: extra 2.5 is not allowed" in screen.refused("extra", seat=6, value="2.5")
    screen.tap("winner", value="red")
    confirm(screen, people)
    game = screen.game
    assert (game.first_killed, game.best_move) == (5, [1, 2, 9])
    assert game.circles == [{"best": [4, 6], "worst": [2]}, {"best": [4], "worst": [7, 8]}]
    # Red won: 5 to each red player. Seat 4: 5 + best in circles 1 and 2 (+1 +1) + judge's 1.5 = 8.5;
    # seat 5, killed first, named 2 blacks (1, 2) as a civilian: 5 + 2; seat 6: 5 + 1; seats 7, 8:
    # 5 - 1 (worst in circle 2); seat 2: worst in circle 1 (-1) and judge's -1; seat 3 removed: -3.
    assert points_by_seat(round_) == {1: 0, 2: -2, 3: -3, 4: Fraction(17, 2), 5: 7, 6: 6, 7: 4, 8: 4, 9: 5,
                                      10: 5}


@pytest.mark.parametrize("round_", ["tomsk"], indirect=True)
def test_tomsk(round_: Any, people: dict[str, Any]) -> None:
    # seats 1-3 mafia, 4 maniac, 5 sheriff, 6 doctor, 7-12 civilians
    screen = Table(round_, people["judge"], roles_of("tomsk"))
    screen.tap("voted", seat=7)  # day 1
    screen.next_phase()
    screen.tap("killed", seat=8)  # night 1: the first kill
    screen.next_phase()
    screen.fouls(9, 4)  # day 2: four remarks remove nobody in tomsk (the document gives their number no effect)
    assert not screen.game.seats.get(seat__number=9).removed
    assert "Choose the reason for the removal" in screen.refused("remove", seat=9)  # never a reason by default
    screen.tap("remove", seat=9, removal="other")  # the judge removes the player
    screen.tap("voted", seat=1)
    screen.next_phase()
    screen.tap("killed", seat=12)  # night 2
    screen.next_phase()
    screen.tap("voted", seat=2)  # day 3
    screen.next_phase()
    screen.tap("killed", seat=4)  # night 3
    screen.next_phase()
    screen.tap("voted", seat=3)  # day 4: the city wins
    marks = {1: "-1", 5: "2", 11: "0.5"}
    for seat in range(1, 13):
        screen.tap("subjective", seat=seat, value=marks.get(seat, "0"))
    screen.tap("winner", value="red")  # a result needs every seat's SP (the jury's marks)
    assert "Seat 5: subjective mark 4 is outside −3..3" in screen.refused("subjective", seat=5, value="4")
    screen.state(screen.client, "submit")
    # Every seat's days come from the departures: the judge typed none.
    days = dict(screen.game.seats.values_list("seat__number", "days_survived"))
    assert days == {1: 2, 2: 3, 3: 4, 4: 3, 5: 4, 6: 4, 7: 1, 8: 1, 9: 2, 10: 4, 11: 4, 12: 2}
    chief = Client()
    chief.force_login(people["chief"])
    screen.state(chief, "confirm")
    assert screen.game.state == GameState.CONFIRMED and screen.game.first_killed == 8
    # HP = OP + SP; OP = 2 for the red side's win + 0.5 per day survived. Seat 5 (sheriff): 2 + 2 + 2;
    # seat 1 (mafia, out on day 2): 1 - 1; seat 11: 2 + 2 + 0.5; seat 9, removed by the judge on day 2: 2 + 1 (no
    # removal points in tomsk); the maniac (out on night 3): 1.5.
    half = Fraction(1, 2)
    assert points_by_seat(round_) == {1: 0, 2: 3 * half, 3: 2, 4: 3 * half, 5: 6, 6: 4, 7: 5 * half, 8: 5 * half,
                                      9: 3, 10: 4, 11: 9 * half, 12: 3}
