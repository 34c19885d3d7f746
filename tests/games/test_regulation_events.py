"""The regulations' own events on the judge's screen and every page that shows a protocol (docs/rules/game.md,
"Warnings and awarded wins"): a verbal warning apart from the remarks (kostroma, zvezdy), the win awarded to the
other side with its reason (fiim's monsters and the judge's decision, zvezdy's removed player who speaks), each in
one or two taps with its undo, refused with the seat named where the regulation says no; in the history, the
tournament file (export, import, export the same) and the desk, the full protocol and the public game page."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from exchange.files import export_data, import_text
from games.history import protocol_history
from games.models import Game
from scoring import fileio
from scoring.errors import InvalidTournament
from tests.games.test_table_screen import HTMX, Screen
from tests.scoring.build import game, players, round_, stage, tournament

pytestmark = pytest.mark.django_db

WARNS = {"kostroma", "zvezdy"}
AWARDS = {"fiim", "zvezdy"}


def screen_for(make_round: Any, ruleset: str, language: str = "en") -> Screen:
    round_ = make_round(ruleset)
    screen = Screen(round_, round_.stage.tournament.organizers.get(), ruleset)
    screen.client.cookies["django_language"] = language
    return screen


def said(page: str) -> str:
    found = re.search(r'id="screen-(?:said|error)"[^>]*>(.*?)</div>', page, re.S)
    return found.group(1) if found else ""


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_modes_only_where_the_regulation_has_the_event(make_round: Any, ruleset: str) -> None:
    screen = screen_for(make_round, ruleset)
    page = screen.client.get(screen.url).content.decode()
    modes = set(re.findall(r'id="mode-(\w+)"', page))
    assert {"warn", "unwarn"} <= modes if ruleset in WARNS else not {"warn", "unwarn"} & modes
    assert ("award" in modes) == (ruleset in AWARDS)
    assert ('name="warning"' in page) == (ruleset in WARNS) and ('name="award"' in page) == (ruleset in AWARDS)
    if ruleset not in WARNS:  # a tap the screen does not offer is refused all the same, naming the regulation
        assert "no verbal warnings" in said(screen.tap("warn", seat=3, warning="other"))
        assert not screen.game.seats.get(seat__number=3).warning_reasons
    if ruleset not in AWARDS:
        assert "reason the win is awarded" in said(screen.tap("award", seat=3, award="monsters"))
        assert not screen.game.awarded and not screen.game.winner


def test_kostroma_a_verbal_warning_one_tap_apart_from_the_fouls_and_its_undo(make_round: Any) -> None:
    screen = screen_for(make_round, "kostroma", "ru")
    page = screen.tap("warn", seat=6, warning="knocking")
    assert "Место 6: устное предупреждение 1" in said(page)
    screen.tap("warn", seat=6, warning="out_of_turn")
    seat = screen.game.seats.get(seat__number=6)
    assert seat.warning_reasons == ["knocking", "out_of_turn"] and seat.fouls == 0 and not seat.removed
    assert "2 предупреждения" in screen.client.get(screen.url).content.decode()
    assert "Место 6: устных предупреждений — 1." in said(screen.tap("unwarn", seat=6))
    seat.refresh_from_db()
    assert seat.warning_reasons == ["knocking"]
    history = protocol_history(screen.game)
    assert any("устные предупреждения с причинами" in line for entry in history for line in entry.what)


def test_zvezdy_shouting_is_warned_by_word_before_the_remark(make_round: Any) -> None:
    screen = screen_for(make_round, "zvezdy", "ru")
    refused = said(screen.tap("foul", seat=7, reason="shouting"))
    assert "Место 7" in refused and "сначала запишите предупреждение" in refused
    assert screen.game.seats.get(seat__number=7).fouls == 0
    screen.tap("warn", seat=7, warning="shouting")
    screen.tap("foul", seat=7, reason="shouting")
    screen.tap("foul", seat=8, reason="honestly")  # a remark the regulation does not precede by a warning
    seats = {s.seat.number: s for s in screen.game.seats.select_related("seat")}
    assert seats[7].foul_reasons == ["shouting"] and seats[7].warning_reasons == ["shouting"]
    assert seats[8].foul_reasons == ["honestly"]


def test_zvezdy_a_removed_player_who_speaks_the_other_side_wins(make_round: Any) -> None:
    screen = screen_for(make_round, "zvezdy", "ru")
    refused = said(screen.tap("award", seat=5, award="removed_spoke"))
    assert "Место 5 не удалено" in refused and not screen.game.awarded
    screen.tap("remove", seat=5, removal="oath")
    page = screen.tap("award", seat=5, award="removed_spoke")
    game = screen.game
    assert game.awarded == {"reason": "removed_spoke", "seats": [5]} and game.winner == "black"
    assert 'id="awarded-line"' in page and "Победа присуждена (чёрные)" in page
    refused = said(screen.tap("winner", value="red"))  # the winner the award gave stays until it is taken back
    assert "побеждает другая команда" in refused and screen.game.winner == "black"
    screen.tap("unaward")
    game = screen.game
    assert not game.awarded and not game.winner


def test_fiim_monsters_against_one_side_and_the_judge_s_decision(make_round: Any) -> None:
    screen = screen_for(make_round, "fiim")
    screen.tap("award", seat=2, award="monsters")
    screen.tap("award", seat=3, award="monsters")
    assert (screen.game.awarded, screen.game.winner) == ({"reason": "monsters", "seats": [2, 3]}, "red")
    refused = said(screen.tap("award", seat=5, award="monsters"))
    assert "Seat 5 plays the other side" in refused
    screen.tap("award", seat=2, award="monsters")  # tapped again: taken back
    assert screen.game.awarded == {"reason": "monsters", "seats": [3]}
    screen.tap("award", seat=3, award="monsters")
    assert (screen.game.awarded, screen.game.winner) == ({}, "")
    page = screen.client.get(screen.url).content.decode()
    assert 'id="award-disputed-black"' in page  # the judge's decision: one tap a side
    screen.tap("award", award="disputed", value="black")
    assert (screen.game.awarded, screen.game.winner) == ({"reason": "disputed"}, "black")
    assert "Win awarded to black: the judge's decision in a disputed situation" in \
        html.unescape(screen.client.get(screen.url).content.decode())


def test_the_phone_s_queue_carries_the_new_taps_in_order(make_round: Any) -> None:
    screen = screen_for(make_round, "zvezdy")
    version = screen.game.version
    taps = [{"action": "warn", "seat": "4", "warning": "gestures", "version": str(version)},
            {"action": "foul", "seat": "4", "reason": "gestures", "version": ""},
            {"action": "remove", "seat": "9", "removal": "oath", "version": ""},
            {"action": "award", "seat": "9", "award": "removed_spoke", "version": ""},
            {"action": "unwarn", "seat": "4", "version": ""}]
    response = screen.client.post(screen.url, {"taps": json.dumps(taps)}, **HTMX)
    assert response.status_code == 200 and "data-refused" not in response.content.decode()
    game = screen.game
    seat = game.seats.get(seat__number=4)
    assert seat.warning_reasons == [] and seat.foul_reasons == ["gestures"]
    assert (game.awarded, game.winner, game.version) == ({"reason": "removed_spoke", "seats": [9]}, "black",
                                                         version + 5)


EVENTS: dict[str, dict[str, Any]] = {
    "tomsk": {},
    "kostroma": {"seats": {6: {"warnings": 2}, 8: {"warnings": 1, "fouls": 1}}},
    "fiim": {"awarded": {"reason": "monsters", "seats": [2, 3]}},
    "zvezdy": {"seats": {5: {"removed": True, "warnings": 1}}, "awarded": {"reason": "removed_spoke", "seats": [5]}},
}
SIZE = {"tomsk": 12, "kostroma": 10, "fiim": 10, "zvezdy": 10}


def events_file(ruleset: str) -> dict[str, Any]:
    winner = "black" if ruleset == "zvezdy" else "red"
    one = game(ruleset, players(SIZE[ruleset]), winner, **EVENTS[ruleset])
    return tournament(ruleset, [stage("q", [round_(1, [one])])], tournament={"standings_hidden": False})


@pytest.mark.parametrize("ruleset", ["tomsk", "kostroma", "fiim", "zvezdy"])
def test_the_file_round_trip_and_the_pages(organizer: Any, ruleset: str) -> None:
    data = events_file(ruleset)
    imported = import_text(json.dumps(data), slug=f"events-{ruleset}", organizers=[organizer])
    exported = export_data(imported)
    games = exported["stages"][0]["rounds"][0]["games"]
    assert games[0].get("awarded") == EVENTS[ruleset].get("awarded")
    assert {s["seat"]: s["warnings"] for s in games[0]["seats"] if "warnings" in s} == {
        n: facts["warnings"] for n, facts in EVENTS[ruleset].get("seats", {}).items() if "warnings" in facts}
    again = import_text(json.dumps(exported), slug=f"events-{ruleset}-again", organizers=[organizer])
    assert export_data(again) == exported
    assert fileio.dump(fileio.load(exported)) == exported
    # the pages, in both languages
    row = Game.objects.get(table__round__stage__tournament=imported)
    staff = Client()
    staff.force_login(organizer)
    public = Client()
    for language, warned, awarded in (("en", "verbal warning", "Win awarded"),
                                      ("ru", "устн", "Победа присуждена")):
        staff.cookies["django_language"] = public.cookies["django_language"] = language
        protocol = staff.get(reverse("games:protocol", args=[imported.slug, row.table_id])).content.decode()
        game_page = public.get(reverse("public:game", args=[imported.slug, "q", 1, 1])).content.decode()
        for page in (protocol, game_page):
            assert (warned in page) == (ruleset in WARNS), (language, ruleset)
            assert (awarded in page) == (ruleset in AWARDS), (language, ruleset)


def test_the_desk_card_says_the_warnings_and_the_award(make_round: Any) -> None:
    screen = screen_for(make_round, "zvezdy")
    screen.tap("warn", seat=6, warning="gestures")
    screen.tap("remove", seat=5, removal="oath")
    screen.tap("award", seat=5, award="removed_spoke")
    desk = screen.client.get(reverse("games:desk", args=[screen.game.table.round.stage.tournament.slug]))
    text = desk.content.decode()
    assert "Verbal warnings" in text and "6: 1" in text
    assert "Win awarded to black: a player removed without a last word spoke or gestured (seat 5)" in text


@pytest.mark.parametrize(("change", "where"), [
    ({"seats": {3: {"warnings": 1}}}, "table 1, seat 3"),
    ({"awarded": {"reason": "monsters", "seats": [2]}}, "table 1"),
])
def test_the_import_refuses_an_event_the_regulation_does_not_have(organizer: Any, change: dict[str, Any],
                                                                  where: str) -> None:
    data = tournament("tomsk", [stage("q", [round_(1, [game("tomsk", players(12), "red", **change)])])])
    with pytest.raises(InvalidTournament) as refused:
        import_text(json.dumps(data), slug="refused", organizers=[organizer])
    assert where in str(refused.value)


def test_the_last_departure_taken_back_takes_its_first_kill_with_it(make_round: Any) -> None:
    screen = screen_for(make_round, "fiim")
    screen.tap("phase", value="next")
    screen.tap("killed", seat=6)
    screen.tap("best_move", seat=1)
    assert screen.game.first_killed == 6
    assert "best_move" in said(screen.tap("back", seat=6)).lower()  # the best move needs its first kill: refused
    screen.tap("best_move", seat=1)
    screen.tap("back", seat=6)
    assert screen.game.first_killed is None  # not the stored 6 of a kill no longer recorded
