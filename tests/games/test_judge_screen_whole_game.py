"""The whole game on the judge's one screen: a refused line-up keeps the roles chosen and names the
seats in words; extra points as one form; the submission asks first with a summary, then the protocol is the chief
judge's (the screen is read-only, the chief confirms it there); every regulation's remarks in its own words."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from django.utils import translation

from games.models import GameState
from games.reasons import CONSEQUENCES
from games.services.lineup import lineup_problems
from scoring.rulesets import get_ruleset
from tests.conftest import new_people
from tests.games.test_table_screen import HTMX, Screen
from tests.helpers import ROLES

pytestmark = pytest.mark.django_db


def roles_of(ruleset: str, **changes: str) -> dict[int, str]:
    roles = dict(enumerate(ROLES[ruleset], start=1))
    roles.update({int(k[1:]): v for k, v in changes.items()})
    return roles


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_a_right_line_up_has_no_problem(ruleset: str) -> None:
    assert lineup_problems(roles_of(ruleset), get_ruleset(ruleset)()) == []


def test_two_dons_are_named_by_their_seats_in_english_and_russian() -> None:
    roles = roles_of("fiim", s5="don")  # seat 5 was a civilian
    fiim = get_ruleset("fiim")()
    with translation.override("en"):
        texts = [p.text for p in lineup_problems(roles, fiim)]
        assert texts[0] == "Seats 1 and 5 are both don; the table needs 1 don."
        assert texts[1].startswith("Only seats ") and "civilian; the table needs 6." in texts[1]
    with translation.override("ru"):
        problems = lineup_problems(roles, fiim)
    assert problems[0].seats == (1, 5)
    assert problems[0].text == "Места 1 и 5: у обоих роль «дон», а за столом такая роль должна быть у 1."
    assert "fiim" not in problems[0].text and "за столом 2" not in problems[0].text


def test_unset_seats_and_a_role_the_regulation_lacks() -> None:
    roles = roles_of("fiim", s9="", s10="doctor")
    with translation.override("en"):
        texts = [p.text for p in lineup_problems(roles, get_ruleset("fiim")())]
    assert texts[0] == "Seat 9 has no role yet."
    assert "Seat 10 is doctor; this regulation has no such role." in texts


def test_the_screen_keeps_the_roles_chosen_when_the_line_up_is_refused(round_: Any, people: dict[str, Any]) -> None:
    screen = Screen(round_, people["judge"])
    before = screen.game.version
    wrong = {f"s{n}_role": role for n, role in roles_of("fiim", s5="don", s6="mafia").items()}
    page = screen.client.post(f"{screen.url}?roles=1", {"action": "roles", "version": before, **wrong},
                              **HTMX).content.decode()
    assert screen.game.version == before  # nothing saved
    assert 'id="lineup-problems"' in page
    assert 'class="form-select form-select-lg is-invalid" name="s5_role"' in page
    assert '<option value="mafia" selected>' in page.split('name="s6_role"', 1)[1].split("</select>", 1)[0]


def test_extra_points_are_one_form_and_the_submission_asks_first(round_: Any, people: dict[str, Any]) -> None:
    screen = Screen(round_, people["judge"])
    page = screen.tap("extras", x4="1", x7="1")  # the sheriff and a civilian, red: the winners below
    assert 'id="screen-error"' not in page
    extras = dict(screen.game.seats.values_list("seat__number", "extra"))
    assert extras[4] == 1 and extras[7] == 1 and extras[3] == 0
    screen.tap("winner", value="red")
    screen.tap("best", seat=7)  # named best: points beyond the win, so the summary says it
    asked = screen.tap("submit_ask")
    assert 'id="submit-confirmation"' in asked and screen.game.state == GameState.DRAFT
    summary = asked.split('id="submit-confirmation"', 1)[1]
    assert "Назван лучшим" in summary and screen.game.seats.get(seat__number=7).best
    submitted = screen.tap("submit")
    assert screen.game.state == GameState.SUBMITTED
    assert 'id="submitted-note"' in submitted and 'id="controls"' not in submitted
    assert 'disabled' in submitted.split('id="seat-1"', 1)[1].split(">", 1)[0]
    chief = Screen.__new__(Screen)
    chief.client, chief.url = type(screen.client)(), screen.url
    chief.client.force_login(people["chief"])
    page = chief.client.get(screen.url).content.decode()
    assert 'id="confirm-protocol"' in page
    chief.client.post(screen.url, {"action": "confirm", "version": screen.game.version}, **HTMX)
    assert screen.game.state == GameState.CONFIRMED


def test_a_removal_is_never_for_a_reason_not_chosen(round_: Any, people: dict[str, Any]) -> None:
    screen = Screen(round_, people["judge"])
    page = screen.tap("remove", seat=4)
    assert 'id="screen-error"' in page and not screen.game.seats.get(seat__number=4).removed
    screen.tap("remove", seat=4, removal="oath")
    seat = screen.game.seats.get(seat__number=4)
    assert seat.removed and seat.removal_reason == "oath"


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_regulation_lists_its_remarks_on_the_screen(ruleset: str, make_round: Any, organizer: Any) -> None:
    screen = Screen(make_round(ruleset), organizer, ruleset)
    with translation.override("ru"):
        expected = [str(line) for line in CONSEQUENCES[ruleset]]
    page = screen.client.get(screen.url).content.decode()
    section = page.split('id="foul-rules"', 1)[1].split("</details>", 1)[0]
    for line in expected:
        assert line in section
    assert ("30 секунд" in section) is (ruleset == "zvezdy")
    assert "fouls-badge" not in page  # no "0 fouls" badge on any seat


def test_after_submitting_the_judge_can_no_longer_change_it(round_: Any, people: dict[str, Any], api: Any) -> None:
    screen = Screen(round_, people["judge"])
    screen.tap("winner", value="red")
    screen.tap("submit")
    version = screen.game.version
    page = screen.client.post(screen.url, {"action": "foul", "seat": 3, "reason": "gestures", "version": version},
                              **HTMX).content.decode()
    assert 'id="screen-error"' in page and screen.game.version == version
    assert screen.game.seats.get(seat__number=3).fouls == 0
    url = f"/api/tournaments/{round_.stage.tournament.slug}/protocols/{screen.game.table_id}/"
    refused = api(people["judge"]).put(url, {"version": version, "winner": "black"}, format="json")
    assert refused.status_code in (400, 409) and screen.game.winner == "red"


def extra_options(page: str, seat: int) -> list[str]:
    """A seat's choices of extra points ([] where they are typed)."""
    field = page.split(f'name="x{seat}"', 1)[1]
    if field.split(">", 1)[0].count("inputmode"):
        return []
    select = field.split("</select>", 1)[0]
    return re.findall(r'<option value="([^"]*)"', select)


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_each_seat_offers_the_extra_points_its_side_may_get(make_round: Any, ruleset: str) -> None:
    """Before the winner every allowed value is offered (and said so); once it is recorded, a winner's seat offers
    the winning side's values and a loser's the losing side's, so that a choice is never refused at the next tap; a
    value already given stays shown as it is."""
    round_ = make_round(ruleset)
    screen = Screen(round_, new_people(round_)["judge"], ruleset)
    params = get_ruleset(ruleset)().params
    before = screen.client.get(screen.url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    if params.extra_max_players == 0:  # tomsk: no extra points at all
        assert 'id="extra-points"' not in before
        return
    red, black = ROLES[ruleset].index("sheriff") + 1, 1  # the sheriff's seat and the don's (or a mafioso's)
    union = extra_options(before, red)
    differ = params.extra_values_winner != params.extra_values_loser  # fiim alone: said before the winner
    assert union == extra_options(before, black) and ('id="extras-before-winner"' in before) is differ
    assert differ is (ruleset == "fiim")
    after = screen.tap("winner", value="red")
    assert 'id="extras-before-winner"' not in after
    for seat, values in ((red, params.extra_values_winner), (black, params.extra_values_loser)):
        offered = extra_options(after, seat)
        assert offered == [v for v in union if Fraction(v) == 0 or Fraction(v) in values], (seat, offered)
    # one player more than the regulation allows: refused, and the screen keeps what the judge chose, open
    reds = [n for n, role in enumerate(ROLES[ruleset], start=1) if role in ("civilian", "sheriff", "doctor")]
    typed = not extra_options(after, red)  # a long range is typed
    no_count = params.extra_max_players >= len(reds)  # zvezdy: no limit of players; a value out of the range
    chosen = ({f"x{red}": "3"} if typed or no_count else
              {f"x{n}": extra_options(after, n)[-1] for n in reds[:params.extra_max_players + 1]})
    refused = screen.tap("extras", **chosen)
    assert 'id="screen-error"' in refused and 'id="extra-points" open' in refused
    error = refused.split('id="screen-error">', 1)[1]
    assert error[0].isupper() and "(ов)" not in error.split("</div>", 1)[0]
    for field, value in chosen.items():
        kept = refused.split(f'name="{field}"', 1)[1]
        assert f'value="{value}"' in kept.split(">", 1)[0] if typed else \
            f'<option value="{value}" selected>' in kept.split("</select>")[0]
    assert all(x == 0 for x in screen.game.seats.values_list("extra", flat=True))  # nothing saved
    if ruleset == "fiim":  # 4.3: the winners 0 or 1, the losers 0 or 0.5
        assert extra_options(after, red) == ["0", "1"] and extra_options(after, black) == ["0", "0.5"]
        page = screen.tap("extras", **{f"x{red}": "1", f"x{black}": "0.5"})
        assert 'id="screen-error"' not in page
        screen.tap("winner", value="black")  # the winner changed: the values given stay shown, as the protocol
        page = screen.client.get(screen.url).content.decode()
        assert '<option value="1" selected>' in page.split(f'name="x{red}"', 1)[1].split("</select>", 1)[0]
