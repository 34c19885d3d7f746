"""With the game log kept, the facts follow from it: the night's shots (each mafioso's, or the
whole mafia's in one tap; the maniac's) decide who is killed, the doctor's heal saves; the day's votes decide who
is voted out (the last nominee gets the votes the others did not; a tie is voted again); taking back the entry that
decided a departure takes the departure back; the winner is proposed when the departures decide it, never
entered by itself; the shots travel in the tournament file with their shooter."""

from __future__ import annotations

from typing import Any

import pytest

from exchange.files import export_data
from scoring import gamelog
from scoring.model import LogEvent
from tests.games.test_table_screen import Screen

pytestmark = pytest.mark.django_db

# tomsk (tests.helpers.ROLES): seats 1-3 mafia, 4 maniac, 5 sheriff, 6 doctor, 7-12 civilians


def left(screen: Screen) -> dict[int, tuple[str, int | None]]:
    return {row.seat.number: (row.left, row.left_number) for row in screen.game.seats.select_related("seat")
            if row.left}


def kinds(screen: Screen) -> list[tuple[str, int, int | None]]:
    return [(e["kind"], e["phase"], e.get("seat")) for e in screen.game.log]


@pytest.fixture
def tomsk(make_round: Any, organizer: Any) -> Screen:
    return Screen(make_round("tomsk"), organizer, "tomsk")


def test_the_whole_mafias_shot_kills_in_one_tap_and_a_heal_saves(tomsk: Screen) -> None:
    assert 'id="screen-error"' in tomsk.tap("shot", seat=7)  # shots are at night
    tomsk.tap("phase", value="next")
    said = tomsk.tap("shot", seat=7)
    assert left(tomsk) == {7: ("killed", 1)} and tomsk.game.first_killed == 7
    assert "7" in said.split('id="screen-said"', 1)[1].split("</div>", 1)[0]
    tomsk.tap("heal", seat=7)  # the doctor healed the seat the mafia shot: nobody is killed
    assert left(tomsk) == {} and tomsk.game.first_killed is None
    tomsk.tap("log_undo")  # the heal taken back: the shot kills again
    assert left(tomsk) == {7: ("killed", 1)}
    assert kinds(tomsk) == [("shot", 2, 7), ("killed", 2, 7)]
    # the night's kill is the shots': a killed tap on this night is refused, with the reason
    refused = tomsk.tap("killed", seat=8)
    assert "выстрел" in refused.split('id="screen-error"', 1)[1].split("</div>", 1)[0]


def test_each_mafiosos_shot_a_split_is_a_miss_and_the_maniac_shoots_alone(tomsk: Screen) -> None:
    tomsk.tap("phase", value="next")
    tomsk.tap("shot", seat=7, by="1")
    tomsk.tap("shot", seat=8, by="2")
    tomsk.tap("shot", seat=7, by="3")
    assert left(tomsk) == {}  # the mafia did not agree: a miss
    tomsk.tap("shot", seat=7, by="2")  # each shooter's last shot counts: now all three shot seat 7
    assert left(tomsk) == {7: ("killed", 1)}
    tomsk.tap("shot", seat=9, by="4")  # the maniac's shot kills by itself
    assert left(tomsk) == {7: ("killed", 1), 9: ("killed", 1)}
    version = tomsk.game.version
    refused = tomsk.tap("shot", seat=10, by="5")  # the sheriff does not shoot: refused, naming the seat
    assert "Место 5" in refused or "место 5" in refused
    assert tomsk.game.version == version
    assert [e.get("by") for e in tomsk.game.log if e["kind"] == "shot"] == [1, 2, 3, 2, 4]
    # the file carries each shot with its shooter; read back, the log derives the same kills
    tomsk.tap("subjective_rest")
    tomsk.tap("winner", value="red")
    tomsk.tap("submit")
    tournament = tomsk.game.table.round.stage.tournament
    tournament.standings_hidden = False
    tournament.save()
    game = next(g for s in export_data(tournament)["stages"] for r in s["rounds"]
                for g in r["games"] if g.get("log"))
    night = [LogEvent(e["kind"], e["phase"], e.get("seat"), e.get("count"), e.get("by")) for e in game["log"]]
    assert {"kind": "shot", "phase": 2, "seat": 7, "by": 1} in game["log"]
    assert gamelog.night_victims(night, [1, 2, 3], [4]) == [7, 9]


def test_the_votes_decide_who_is_voted_out_and_a_tie_is_voted_again(tomsk: Screen) -> None:
    for seat in (1, 2, 3):
        tomsk.tap("nominated", seat=seat)
    tomsk.tap("votes", seat=1, count="5")
    assert left(tomsk) == {}  # seat 2's votes are not known yet
    tomsk.tap("votes", seat=2, count="5")  # seat 3 gets the other 2: seats 1 and 2 tie
    assert left(tomsk) == {}
    tomsk.tap("votes", seat=1, count="7")  # the tied voted on again: 7 against 5
    assert left(tomsk) == {1: ("voted", 1)}
    tomsk.tap("log_undo")  # the votes that decided it taken back: seat 1 is back
    assert left(tomsk) == {} and kinds(tomsk)[-1] == ("votes", 1, 2)
    tomsk.tap("votes", seat=1, count="8")
    assert left(tomsk) == {1: ("voted", 1)}
    assert tomsk.game.seats.get(seat__number=1).days_survived == 1


def test_the_winner_is_proposed_when_the_departures_decide_it_and_the_judge_confirms(tomsk: Screen) -> None:
    page = tomsk.client.get(tomsk.url).content.decode()
    assert 'id="winner-proposed"' not in page
    for voted, killed, votes in ((1, 7, "9"), (2, 8, "9"), (3, 9, "7")):
        tomsk.tap("nominated", seat=voted)
        tomsk.tap("nominated", seat=12)
        tomsk.tap("votes", seat=voted, count=votes)  # of 12, 10, 8 at the table: seat 12 gets the rest
        tomsk.tap("phase", value="next")
        tomsk.tap("shot", seat=killed, by="")  # the whole mafia's; the third night, no mafioso is left: the maniac's
        tomsk.tap("phase", value="next")
    assert left(tomsk) == {1: ("voted", 1), 7: ("killed", 1), 2: ("voted", 2), 8: ("killed", 2),
                           3: ("voted", 3), 9: ("killed", 3)}
    assert [e.get("by") for e in tomsk.game.log if e["kind"] == "shot"] == [None, None, 4]
    page = tomsk.tap("nominated", seat=4)
    assert 'id="winner-proposed"' not in page  # the maniac is still at the table
    tomsk.tap("nominated", seat=10)
    page = tomsk.tap("votes", seat=4, count="6")  # 6 of the 6 at the table
    proposed = page.split('id="winner-proposed"', 1)[1].split("</div>", 1)[0]
    assert "Красные" in proposed or "красные" in proposed.lower()
    said = page.split('id="screen-said"', 1)[1].split("</div>", 1)[0]  # and in the dock, where the judge looks
    assert "заголосовано" in said and "подтвердите" in said
    assert "data-proposed" in page.split('id="winner-red"', 1)[1].split(">", 1)[0]
    assert tomsk.game.winner == ""  # proposed, not entered
    tomsk.tap("subjective_rest")  # tomsk: every seat's SP before a result
    tomsk.tap("winner", value="red")
    assert tomsk.game.winner == "red"
    assert 'id="winner-proposed"' not in tomsk.client.get(tomsk.url).content.decode()


def test_three_nights_the_shots_missed_are_the_mafias_three_missed_nights(make_round: Any, organizer: Any) -> None:
    zvezdy = Screen(make_round("zvezdy"), organizer, "zvezdy")  # 1 don, 2-3 mafia, 4 sheriff
    page = zvezdy.client.get(zvezdy.url).content.decode()
    assert 'id="missed-nights"' in page  # tapped by hand while the log has no shots
    for night in range(3):
        zvezdy.tap("phase", value="next")
        zvezdy.tap("shot", seat=5, by="1")  # one mafioso's shot alone: a miss
        said = zvezdy.tap("shot", seat=6 + night, by="2")
        assert 'id="screen-error"' not in said, said.split('id="screen-error"', 1)[-1][:300]
        zvezdy.tap("phase", value="next")
    assert left(zvezdy) == {}
    page = zvezdy.client.get(zvezdy.url).content.decode()
    assert 'id="missed-nights"' not in page  # the shots say it, not a tap
    assert "data-proposed" in page.split('id="winner-red"', 1)[1].split(">", 1)[0]  # the city wins, proposed
    assert not zvezdy.game.mafia_missed_three_nights  # until the judge confirms it (the mark means the city won)
    zvezdy.tap("winner", value="red")
    assert zvezdy.game.mafia_missed_three_nights and zvezdy.game.winner == "red"
    assert 'id="missed-nights-derived"' in zvezdy.client.get(zvezdy.url).content.decode()
    zvezdy.tap("log_undo")  # one shot of night 3 taken back: still a night without a kill
    assert zvezdy.game.mafia_missed_three_nights
    zvezdy.tap("log_undo")  # both: the log reaches night 2, two misses in a row
    assert not zvezdy.game.mafia_missed_three_nights and zvezdy.game.winner == "red"


def test_the_seats_the_shots_kill_still_act_that_night(tomsk: Screen, make_round: Any, organizer: Any) -> None:
    """The night is one night: tapped after the shot that kills them, the sheriff still checks and the doctor still
    heals (himself too); the next night they do not."""
    tomsk.tap("phase", value="next")
    tomsk.tap("shot", seat=5, by="")  # the whole mafia shoots the sheriff
    assert left(tomsk) == {5: ("killed", 1)}
    said = tomsk.tap("sheriff_check", seat=1)
    assert 'id="screen-error"' not in said, said.split('id="screen-error"', 1)[-1][:300]
    tomsk.tap("shot", seat=6, by="4")  # the maniac shoots the doctor, who heals himself
    assert left(tomsk) == {5: ("killed", 1), 6: ("killed", 1)}
    tomsk.tap("heal", seat=6)
    assert left(tomsk) == {5: ("killed", 1)}
    assert {("sheriff_check", 2, 1), ("heal", 2, 6)} <= set(kinds(tomsk))
    tomsk.tap("phase", value="next")
    tomsk.tap("phase", value="next")  # night 2: the sheriff left the table last night
    refused = tomsk.tap("sheriff_check", seat=2)
    assert "шериф" in refused.split('id="screen-error"', 1)[1].split("</div>", 1)[0]
    kostroma = Screen(make_round("kostroma"), organizer, "kostroma")  # 1 don, 2-3 mafia, 4 sheriff, 5 doctor
    kostroma.tap("phase", value="next")
    kostroma.tap("shot", seat=4, by="")  # the sheriff shot; the don checks him, and he checks the don
    for action, seat in (("don_check", 4), ("sheriff_check", 1)):
        said = kostroma.tap(action, seat=seat)
        assert 'id="screen-error"' not in said, (action, said.split('id="screen-error"', 1)[-1][:300])
    assert left(kostroma) == {4: ("killed", 1)}
