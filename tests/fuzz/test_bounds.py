"""Lists and texts past their bounds, refused at once with a message naming the bound, nothing saved, never a 5xx
(a participants' list of 100,000 rows held a worker past its timeout; a timer title over 100 characters
was a database error). Each bound for every ruleset, pasted and uploaded, through the pages."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from hypothesis import given, settings
from hypothesis import strategies as st

from exchange.files import MAX_FILE_PLAYERS
from tests.helpers import example_text
from tournaments.forms.people import MAX_CSV_ROWS
from tournaments.models import Participant, Player
from venue_screen.models import VenueScreen

from .conftest import FUZZ

pytestmark = pytest.mark.django_db

RULESETS = ["fiim", "tomsk", "kostroma", "zvezdy"]


def organizer_client(user: Any, language: str = "en") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    client.force_login(user)
    return client


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("how", ["pasted", "uploaded"])
def test_a_list_past_the_row_cap_is_refused_at_once_naming_the_cap(ruleset: str, how: str, make_tournament: Any,
                                                                   organizer: Any) -> None:
    tournament = make_tournament(ruleset)
    client = organizer_client(organizer, "ru")
    text = "фамилия,город\n" + "".join(f"Ив{i},Омск\n" for i in range(100_000))  # 100,000 rows, 1.5 MB
    assert len(text.encode()) < 2_000_000  # under the 2 MB bound: only the row cap refuses it
    url = f"/t/{tournament.slug}/participants/import/"
    started = time.monotonic()
    if how == "pasted":
        response = client.post(url, {"text": text})
    else:
        response = client.post(url, {"upload": SimpleUploadedFile("list.csv", text.encode(), "text/csv")})
    took = time.monotonic() - started
    assert response.status_code == 400
    page = response.content.decode()
    assert f"100000 строк игроков; за один раз добавляется не более {MAX_CSV_ROWS}" in page
    assert "разделите" in page  # says what to do
    assert not Participant.objects.filter(tournament=tournament).exists()
    assert took < 10  # refused by its line count, not read row by row (2 s on the bench machine, bench/README.md)


def test_a_list_at_the_cap_is_read(make_tournament: Any, organizer: Any) -> None:
    tournament = make_tournament("fiim")
    client = organizer_client(organizer)
    text = "surname\n" + "".join(f"Player{i}\n" for i in range(MAX_CSV_ROWS))
    response = client.post(f"/t/{tournament.slug}/participants/import/", {"text": text})
    assert response.status_code == 200 and f"Player{MAX_CSV_ROWS - 1}" in response.content.decode()


def test_a_tournament_file_past_the_player_cap_is_refused_naming_it(make_user: Any) -> None:
    client = organizer_client(make_user("importer", can_create=True))
    data = json.loads(example_text("fiim-example.json"))
    players = [{"id": f"p{n}", "name": f"Player {n}"} for n in range(MAX_FILE_PLAYERS + 1)]
    data["players"] = players
    before = Player.objects.count()
    upload = SimpleUploadedFile("big.json", json.dumps(data).encode(), content_type="application/json")
    response = client.post("/import/", {"file": upload})
    assert response.status_code == 400
    assert f"{MAX_FILE_PLAYERS + 1} players; at most {MAX_FILE_PLAYERS}" in response.content.decode()
    assert Player.objects.count() == before


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_timer_title_past_its_length_is_refused_naming_it(ruleset: str, make_tournament: Any,
                                                              organizer: Any) -> None:
    tournament = make_tournament(ruleset)
    client = organizer_client(organizer, "ru")
    url = f"/p/{tournament.slug}/screen/control/"
    response = client.post(url, {"action": "start", "minutes": "5", "label": "Т" * 101})
    assert response.status_code == 400
    assert "не длиннее 100 символов" in response.content.decode() and "101" in response.content.decode()
    assert not VenueScreen.objects.filter(tournament=tournament, timer_ends_at__isnull=False).exists()
    assert client.post(url, {"action": "start", "minutes": "5", "label": "Т" * 100}).status_code == 302


def test_the_timer_title_fuzzed(make_tournament: Any, organizer: Any, fuzz_inputs: Any) -> None:
    tournament = make_tournament("tomsk")
    client = organizer_client(organizer)
    url = f"/p/{tournament.slug}/screen/control/"

    @settings(FUZZ, max_examples=60)
    @given(label=st.text(st.characters(blacklist_categories=("Cs",)), max_size=400)
           | st.sampled_from(["x" * 100, " " * 300, "x" * 100 + " " * 50, "ж" * 101]),
           minutes=st.sampled_from(["5", "0,5", "1e9", "-1", "", "nan"]))
    def run(label: str, minutes: str) -> None:
        fuzz_inputs()
        response = client.post(url, {"action": "start", "minutes": minutes, "label": label})
        assert response.status_code in (302, 400), (response.status_code, label[:50], minutes)
        if response.status_code == 302:
            assert len(label.strip()) <= 100 and "\x00" not in label

    run()


@pytest.mark.parametrize("text, words", [
    ("1-1000\n" * 300, "300 lines: at most 200 groups"),
    ("1-1000\n1-1000\n", "Line 2: the groups name more than 1000 tables in all"),
    ("1-900\n" + "5 " * 200_000, "Line 2: the groups name more than 1000 tables in all"),
])
def test_groups_of_tables_past_their_bounds_are_refused_naming_them(text: str, words: str) -> None:
    """Tomsk's groups of tables (running/forms.py): a list of ranges, bounded before it is expanded whole (before,
    a body of "1-1000" lines made hundreds of millions of numbers)."""
    from running.forms import GroupsForm

    started = time.monotonic()
    form = GroupsForm({"groups": text})
    assert not form.is_valid() and words in form.errors["groups"][0]
    assert time.monotonic() - started < 2


def test_groups_of_tables_fuzzed(fuzz_inputs: Any) -> None:
    from running.forms import MOST_GROUPED_TABLES, MOST_GROUPS, GroupsForm

    @settings(FUZZ, max_examples=200)
    @given(lines=st.lists(st.sampled_from(["1-4", "5 6 7 8", "1-1000", "999-1000", "x", "", "3-1", "1,2", "0"]),
                          max_size=250))
    def run(lines: list[str]) -> None:
        fuzz_inputs()
        form = GroupsForm({"groups": "\n".join(lines)})
        if form.is_valid():
            groups = form.cleaned_data["groups"]
            assert len(groups) <= MOST_GROUPS and sum(map(len, groups)) <= MOST_GROUPED_TABLES

    run()
