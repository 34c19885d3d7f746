"""Every page × every ruleset: each public page, organizer page, htmx fragment, printable, export
and API answer, for every regulation's shared example and a generated tournament of each, with the standings
hidden and published, after the last round and with a round in play. Each must answer 200 (or the refusal the
rules call for) with the figures ``scoring`` computes from the file itself: ranks, names and points in the
standings of every stage, the seating of every round, the players' totals, the exports' rows.

The URL names come from the resolver (as in ``test_permission_walk.py``): a new URL without an entry in
``PAGES`` or ``NOT_PAGES`` fails ``test_every_url_is_in_the_matrix``, so each new page joins the matrix.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from tests.site.page_matrix_beyond import (
    check_api_ratings,
    check_overlay,
    check_rating_csv,
    check_rating_rules,
    check_rating_xlsx,
    check_ratings_list,
    check_ratings_player,
    check_screen,
    check_screen_control,
    check_stream_control,
)
from tests.site.page_matrix_notices import check_notices
from tests.site.page_matrix_public import (
    check_api_awards,
    check_api_export,
    check_api_games,
    check_api_lists,
    check_api_protocol,
    check_api_rounds,
    check_api_schema,
    check_api_seating,
    check_api_stages,
    check_api_standings,
    check_api_tournament,
    check_badge,
    check_badges,
    check_calendar,
    check_coming,
    check_game,
    check_me,
    check_my_calendar,
    check_player,
    check_player_why,
    check_public_home,
    check_public_list,
    check_public_standings,
    check_register,
    check_registration,
    check_round_seating,
    check_rules,
    check_seating,
    check_stage_standings,
    check_tournament_list,
    check_where,
)
from tests.site.page_matrix_staff import (
    check_application_form,
    check_awards,
    check_create,
    check_desk,
    check_detail,
    check_diplomas,
    check_duplicates,
    check_export,
    check_export_platform,
    check_exports,
    check_history,
    check_import,
    check_import_players,
    check_job,
    check_keep_apart,
    check_login,
    check_merge,
    check_organizer_standings,
    check_parameters,
    check_participant_edit,
    check_participants,
    check_print_forms,
    check_print_seating,
    check_protests,
    check_protocol,
    check_protocols,
    check_registry_player,
    check_results_csv,
    check_results_pdf,
    check_results_print,
    check_results_xlsx,
    check_round,
    check_staff,
    check_stage,
    check_stage_csv,
    check_table_screen,
    check_teams,
    check_teams_csv,
)
from tests.site.page_matrix_world import (
    RULESETS,
    Check,
    World,
    first_round_in_play,
    set_hidden,
    source_data,
    truth_of,
    with_round_in_play,
)
from tests.site.test_permission_walk import app_urls

pytestmark = pytest.mark.django_db

PAGES: dict[str, Check] = {
    "site:tournaments": check_tournament_list,
    "site:new_tournament": check_create,
    "site:import_tournament": check_import,
    "site:duplicate_players": check_duplicates,
    "site:merge_players": check_merge,
    "site:player": check_registry_player,
    "tournaments:detail": check_detail,
    "exchange:export": check_export,
    "exchange:exports": check_exports,
    "exchange:export_platform": check_export_platform,
    "tournaments:participants": check_participants,
    "tournaments:import_players": check_import_players,
    "tournaments:participant_edit": check_participant_edit,
    "tournaments:teams": check_teams,
    "tournaments:keep_apart": check_keep_apart,
    "tournaments:parameters": check_parameters,
    "running:stage": check_stage,
    "running:round": check_round,
    "running:job": check_job,
    "running:standings": check_organizer_standings,
    "running:awards": check_awards,
    "public:list": check_public_list,
    "public:home": check_public_home,
    "public:rules": check_rules,
    "public:where": check_where,
    "public:seating": check_seating,
    "public:round_seating": check_round_seating,
    "public:standings": check_public_standings,
    "public:stage_standings": check_stage_standings,
    "public:player": check_player,
    "public:player_why": check_player_why,
    "public:game": check_game,
    "api:schema": check_api_schema,
    "api:tournaments": check_api_lists,
    "api:tournament": check_api_tournament,
    "api:stages": check_api_stages,
    "api:rounds": check_api_rounds,
    "api:seating": check_api_seating,
    "api:games": check_api_games,
    "api:standings": check_api_standings,
    "api:awards": check_api_awards,
    "api:export": check_api_export,
    "api:protocol": check_api_protocol,
    "games:staff": check_staff,
    "games:protocols": check_protocols,
    "games:desk": check_desk,
    "games:protocol": check_protocol,
    "games:history": check_history,
    "games:protests": check_protests,
    "games:table": check_table_screen,
    "paper:seating": check_print_seating,
    "paper:seating_pdf": lambda world: check_print_seating(world, pdf=True),
    "paper:forms": check_print_forms,
    "paper:forms_pdf": lambda world: check_print_forms(world, pdf=True),
    "paper:results": check_results_print,
    "paper:results_pdf": check_results_pdf,
    "paper:results_xlsx": check_results_xlsx,
    "paper:results_csv": check_results_csv,
    "paper:stage_csv": check_stage_csv,
    "paper:teams_csv": check_teams_csv,
    "paper:application_form": check_application_form,
    "paper:application_form_pdf": lambda world: check_application_form(world, pdf=True),
    "paper:diplomas": check_diplomas,
    "paper:diplomas_pdf": lambda world: check_diplomas(world, pdf=True),
    "login": check_login,
    "public:screen": check_screen,
    "venue_screen:control": check_screen_control,
    "games:stream": check_stream_control,
    "games:overlay": check_overlay,
    "games:overlay_state": check_overlay,
    "ratings:list": check_ratings_list,
    "ratings:player": check_ratings_player,
    "rating_api:ratings": check_api_ratings,
    "rating_exports:csv": check_rating_csv,
    "rating_exports:xlsx": check_rating_xlsx,
    "rating_rules:rules": check_rating_rules,
    "entries_public:register": check_register,
    "entries_public:coming": check_coming,
    "entries_public:calendar": check_calendar,
    "entries_public:me": check_me,
    "entries_public:my_calendar": check_my_calendar,
    "entries:registration": check_registration,
    "entries:badges": check_badges,
    "entries:badge": check_badge,
    "notices:notices": check_notices,
}

# URLs that are actions (POST only, or a redirect), not pages: tested where the action is.
NOT_PAGES: dict[str, str] = {
    ":favicon.ico": "a redirect to the icon: tests/judges/test_private_links.py, tests/site/test_permission_walk.py",
    "tournaments:participant_remove": "POST: tests/running/test_standings_pages.py",
    "tournaments:participant_disqualify": "POST: tests/tournaments/test_disqualification.py",
    "tournaments:participant_reinstate": "POST: tests/tournaments/test_disqualification.py",
    "tournaments:decide": "POST: an application's decision (kostroma)",
    "tournaments:decide_many": "POST: tests/tournaments/test_registration_rules.py (applications in bulk)",
    "tournaments:settings": "POST: tests/tournaments/test_registration_rules.py (the settings form)",
    "running:round_start": "POST: the round's start time",
    "public:standings_visibility": "POST: used by this matrix to hide and publish",
    "api:token": "POST: tests/api",
    "api:submit": "POST: tests/api/test_protocols.py",
    "api:confirm": "POST: tests/api/test_protocols.py",
    "api:reopen": "POST: tests/api/test_protocols.py",
    "games:state": "POST: a protocol's state",
    "games:decide": "POST: a protest's decision",
    "games:desk_action": "POST: tests/games/test_desk.py (confirm, send back)",
    "games:private_link": "a judge's private link (signs in): tests/judges/test_private_links.py",
    # check-in pages show no results (nothing scoring computes): their lists, counts, permissions and query counts
    "running:checkins": "check-in, no results: tests/checkin/test_checkin.py",
    "running:checkin_phone": "check-in, no results: tests/checkin/test_checkin.py",
    "running:checkin_door": "check-in, no results: tests/checkin/test_checkin.py",
    "running:checkin_volunteer": "a volunteer's token link: tests/checkin/test_checkin.py",
    "running:checkin_self": "the door's token link: tests/checkin/test_checkin.py",
    "logout": "POST",
    "set_language": "POST (a redirect)",
    "site:start": "a redirect: tests/games/test_start.py",
    # a series holds several tournaments: its pages and exports are checked against scoring there
    "series:list": "a series' page, not a tournament's: tests/series/test_pages.py",
    "series:new": "a series' page: tests/series/test_pages.py",
    "series:detail": "a series' page: tests/series/test_pages.py, tests/series/test_series_table.py",
    "series:edit": "a series' page: tests/series/test_pages.py",
    "series:csv": "a series' export: tests/series/test_pages.py",
    "series:xlsx": "a series' export: tests/series/test_pages.py",
    # notifications (notices/): a judge's own Telegram link, a player's link to the bot and unsubscribe
    "notices:judge_telegram": "a judge's Telegram link, no results: tests/notices/test_organizer_page.py",
    "notices_public:telegram": "a redirect to the bot's deep link: tests/notices/test_notifications.py",
    "notices_public:unsubscribe": "one tap unsubscribes, no results: tests/notices/test_notifications.py",
}


def test_every_url_is_in_the_matrix() -> None:
    urls = set(app_urls())
    listed = set(PAGES) | set(NOT_PAGES)
    assert not set(PAGES) & set(NOT_PAGES)
    assert not urls - listed, f"new URLs: add a check to PAGES (or a reason to NOT_PAGES): {sorted(urls - listed)}"
    assert not listed - urls, f"URLs gone: {sorted(listed - urls)}"


def build_world(label: str, data: dict[str, Any], in_play: list[dict[str, Any]], organizer: Any) -> World:
    from exchange.files import import_text
    from games.services import protocol as protocol_service
    from tournaments.models import Table

    truth, standings = truth_of(data)
    tournament = import_text(json.dumps(data), slug=label, organizers=[organizer])
    organizer_client = Client()
    organizer_client.force_login(organizer)
    world = World(label, tournament, truth, standings, tournament.standings_hidden, in_play, organizer_client,
                  Client())
    tables = list(Table.objects.filter(round__stage__tournament=tournament)
                  .order_by("round__stage__order", "round__number", "number"))
    # the first and last table of the last round, and of every first round; a table in play gets a draft
    chosen = {tables[0].pk: tables[0], tables[-1].pk: tables[-1]}
    world.tournament_tables = list(chosen.values())  # type: ignore[attr-defined]
    if in_play:
        last = tables[-1]
        protocol_service.open_protocol(last, organizer)  # a judge has opened it: a draft, not public
    return world


@pytest.mark.parametrize("moment", ["done", "live"])
@pytest.mark.parametrize("source", ["example", "generated"])
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_page_of_every_ruleset(ruleset: str, source: str, moment: str, organizer: Any,
                                     django_capture_on_commit_callbacks: Any, settings: Any) -> None:
    """One world a test (after the last round, or with a round in play), so the two share the processes."""
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"matrix-{ruleset}-{source}-{moment}"}}
    cache.clear()
    data = source_data(source, ruleset)
    index = ("done", "live").index(moment)
    if moment == "live":
        live_data, in_play = with_round_in_play(data)
        world = build_world(f"{ruleset}-{source}-live", live_data, in_play, organizer)
    else:
        world = build_world(f"{ruleset}-{source}-done", data, [], organizer)
    failures: list[str] = []
    for state, hidden in enumerate((world.hidden, not world.hidden)):
        set_hidden(world, hidden, django_capture_on_commit_callbacks)
        world.pdf = state == index  # the finished world's PDFs in one state, the live world's in the other
        ran: set[Check] = set()
        for name, check in PAGES.items():
            if check in ran:  # one check for two URL names (the overlay's page and its state): once a state
                continue
            ran.add(check)
            try:
                check(world)
            except Exception as error:  # every page's failure at once, not the first only
                failures.append(f"{world.label} hidden={hidden} {name}: {str(error)[:400]}")
    assert not failures, "\n".join(failures)


# The tournament day's first hour: round 1 of the first stage with half its tables in play, nothing
# later played. Every player seated is on the standings (0 games at a table in play), "why am I ranked here?" names
# the ranks around them, and the diplomas print nobody as a finalist (the final has no players yet).
FIRST_HOUR = {name: PAGES[name] for name in (
    "public:standings", "public:stage_standings", "public:player", "public:player_why", "api:standings",
    "running:standings", "running:stage", "running:round", "exchange:export", "paper:diplomas", "paper:results")}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_first_hour_every_ruleset(ruleset: str, organizer: Any, django_capture_on_commit_callbacks: Any,
                                      settings: Any) -> None:
    from django.core.cache import cache

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"matrix-{ruleset}-first-hour"}}
    cache.clear()
    data, in_play = first_round_in_play(source_data("generated", ruleset))
    world = build_world(f"{ruleset}-first-hour", data, in_play, organizer)
    first = world.truth.stages[0]
    seated_now = {s["player"] for t in in_play for s in t["seats"]}
    assert seated_now and seated_now <= {row.player for row in world.standings[first.id].rows} | {
        p.id for p in world.truth.players if p.guest}
    assert len(world.standings[first.id].rows) > len(first.participants())  # the truth without them: fewer rows
    world.pdf = False
    failures: list[str] = []
    for hidden in (False, True):
        set_hidden(world, hidden, django_capture_on_commit_callbacks)
        for name, check in FIRST_HOUR.items():
            try:
                check(world)
            except Exception as error:
                failures.append(f"{world.label} hidden={hidden} {name}: {str(error)[:400]}")
    assert not failures, "\n".join(failures)


def test_the_demo_stage_page_names_the_method_each_round_was_seated_with(organizer: Any) -> None:
    """The fiim demo's rounds 1-4 were balanced ("компьютерная выборка", 003): its stage page said «случайная»."""
    import io

    from django.core.management import call_command
    from django.test import Client

    from tests.site.page_matrix_staff import seating_label
    from tests.site.page_matrix_world import page, visible_text
    from tournaments.models import Tournament

    call_command("load_demo", stdout=io.StringIO())
    demo = Tournament.objects.get(slug="demo")
    demo.organizers.add(organizer)
    client = Client()
    client.force_login(organizer)
    text = visible_text(page(client, f"/t/{demo.slug}/stages/qualifying/"))
    for number in range(1, 5):
        assert f"Тур {number} {seating_label('balanced')}" in text, number
        assert f"Тур {number} {seating_label('random')}" not in text, number
