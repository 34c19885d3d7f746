"""The table screen's zvezdy circle marks, tomsk's subjective mark, kostroma's extra characters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from games.models import Game
from tests.games.test_table_screen import Screen
from tests.games.test_tap_queue import batch
from tests.helpers import ROLES

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db


def test_zvezdy_circle_marks_one_tap_each_limited_by_scoring(make_round: Any, make_user: Callable[..., User]) -> None:
    round_ = make_round("zvezdy")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "zvezdy")
    page = screen.tap("circle_best", seat=3, circle=1)
    assert 'class="badge text-bg-success mark-best"' in page
    assert 'value="circle_best" checked' in page  # the mode stays chosen
    screen.tap("circle_best", seat=5, circle=1)
    refused = screen.tap("circle_best", seat=6, circle=1)  # a third best in one circle
    assert 'id="screen-error"' in refused and "3" in refused
    screen.tap("circle_worst", seat=3, circle=2)
    screen.tap("circle_worst", seat=5, circle=1)  # one tap moves seat 5 from best to worst in circle 1
    screen.tap("circle_best", seat=9, circle=4)  # circle 3 stays empty but keeps its place
    assert screen.game.circles == [{"best": [3], "worst": [5]}, {"worst": [3]}, {}, {"best": [9]}]
    screen.tap("circle_best", seat=9, circle=4)  # taken back: the trailing empty circles go
    assert screen.game.circles == [{"best": [3], "worst": [5]}, {"worst": [3]}]
    page = screen.tap("circle_best", seat=1, circle=13)
    assert 'id="screen-error"' in page and screen.game.circles[0] == {"best": [3], "worst": [5]}


def test_tomsk_days_are_derived_and_the_subjective_mark_is_tapped(make_round: Any) -> None:
    round_ = make_round("tomsk")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "tomsk")
    screen.tap("subjective", seat=2, value="1.5")
    assert screen.game.seats.get(seat__number=2).subjective == 1.5
    page = screen.tap("subjective", seat=2, value="x")
    assert 'id="screen-error"' in page and screen.game.seats.get(seat__number=2).subjective == 1.5
    screen.tap("voted", seat=7)  # day 1
    screen.tap("phase", value="next")
    screen.tap("killed", seat=8)  # night 1
    seats = {s.seat.number: s for s in screen.game.seats.select_related("seat")}
    assert (seats[7].days_survived, seats[8].days_survived, seats[1].days_survived) == (1, 1, 1)
    assert screen.game.first_killed == 8


def test_kostroma_extra_characters_get_their_side_on_the_screen(make_round: Any) -> None:
    round_ = make_round("kostroma")
    organizer = round_.stage.tournament.organizers.get()
    screen = Screen(round_, organizer, "kostroma")
    page = screen.client.get(screen.url + "?roles=1").content.decode()
    assert 'name="s6_side"' in page and 'name="s6_role"' in page
    roles = {f"s{n}_role": role for n, role in enumerate(ROLES["kostroma"], start=1)}
    roles |= {"s6_role": "musician", "s6_side": "black", "s7_role": "ghost"}
    screen.tap("roles", **roles)
    seats = {s.seat.number: s for s in screen.game.seats.select_related("seat")}
    assert (seats[6].role, seats[6].side, seats[7].role, seats[7].side) == ("musician", "black", "ghost", "")
    screen.tap("winner", value="black")  # scoring checks the roles of a game with a result
    roles["s7_role"] = "musician"  # each extra character at most once per table
    page = screen.tap("roles", **roles)
    assert 'id="screen-error"' in page
    assert Game.objects.get().seats.get(seat__number=7).role == "ghost"


def test_zvezdy_a_circle_mark_follows_the_day_and_every_circle_shows_on_the_card(make_round: Any) -> None:
    """The circle stayed on «Speech circle 1» on day 2 and 3: a judge's mark on day 2 went into circle 1, and a
    tap on a seat marked there took its day-1 mark back. A tap with the circle following the day (the select's
    first choice, sent empty) goes into the day's circle when the server applies it, even queued behind the phase
    taps in one batch; the card shows each seat's marks of every circle, not the selected circle's only."""
    round_ = make_round("zvezdy")
    screen = Screen(round_, round_.stage.tournament.organizers.get(), "zvezdy")
    screen.tap("circle_best", seat=4, circle="")
    status, _page = batch(screen, [{"action": "phase", "value": "next"}, {"action": "phase", "value": "next"},
                                   {"action": "circle_worst", "seat": "4", "circle": ""}])
    assert status == 200
    assert screen.game.circles == [{"best": [4]}, {"worst": [4]}]  # day 1's mark kept, day 2's in circle 2
    page = screen.client.get(screen.url).content.decode()
    card = page.split('id="seat-4"', 1)[1].split("</button>", 1)[0]
    assert "к1: лучший" in card and "к2: худший" in card
    assert '<option value="" selected>Круг выступлений 2 (по дню)</option>' in page
    page = screen.tap("circle_best", seat=7, circle=1)  # a mark given late, by hand, goes where it is told
    assert screen.game.circles == [{"best": [4, 7]}, {"worst": [4]}]
    assert '<option value="1" selected>' in page  # and the hand's choice stays shown


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_an_sp_given_to_the_wrong_seat_is_undone_with_one_tap(make_round: Any, ruleset: str) -> None:
    """tomsk's SP chips ran −3 … −0,5 and 0,5 … 3 with no 0: an SP given to the wrong seat was undone only by
    typing «0». The chips have a 0 (where SP is recorded: tomsk only)."""
    round_ = make_round(ruleset)
    screen = Screen(round_, round_.stage.tournament.organizers.get(), ruleset)
    page = screen.client.get(screen.url).content.decode()
    chips = page.split('id="sp-chips"', 1)[1].split("</div></div>", 1)[0] if 'id="sp-chips"' in page else ""
    if ruleset != "tomsk":
        assert not chips
        return
    values = [part.split('"', 1)[0] for part in chips.split('data-value="')[1:]]
    assert values == ["-3", "-2.5", "-2", "-1.5", "-1", "-0.5", "0", "0.5", "1", "1.5", "2", "2.5", "3"]
    screen.tap("subjective", seat=5, value="2")
    screen.tap("subjective", seat=5, value="0")  # the 0 chip's value
    assert screen.game.seats.get(seat__number=5).subjective == 0
