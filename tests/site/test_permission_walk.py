"""Every URL of the app, as every role: who gets what.

The URL patterns come from ``get_resolver()``, so a new page without an entry in ``EXPECTED`` fails
``test_every_url_has_an_entry``. Path parameters are filled from one fixture tournament: a published fiim
round of two tables, a protocol on table 1 with a protest, a seating job. Roles:

- ``anonymous``; ``player``: logged in, no role anywhere;
- ``other_judge``: judge of table 2; ``judge``: judge of table 1 (the table in the URLs);
- ``chief``: the chief judge; ``rival``: organizer of another tournament; ``organizer``: of this one, and of a
  series holding it.

A GET is expected to give the status written in the matrix. A POST with no data from a role that may not
change anything gets the same refusal as its GET (or 405); a role that may gets anything but a refusal
or a server error.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from checkin import services as checkin
from entries.models import Entry
from entries.services import registering
from games.models import Protest
from games.services import protocol as protocol_service
from scoring.formats import PLATFORMS
from series.models import Series, SeriesTournament
from tests.helpers import table
from tournaments.models import SeatingJob, Tournament

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "player", "other_judge", "judge", "chief", "rival", "organizer")


def walk(patterns: list[Any], prefix: str = "", namespace: str = "") -> Iterator[tuple[str, str]]:
    """(name, route) of every URL pattern; unnamed ones are named by their route."""
    for p in patterns:
        if isinstance(p, URLResolver):
            ns = ":".join(filter(None, [namespace, p.namespace]))
            yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
        elif isinstance(p, URLPattern):
            route = prefix + str(p.pattern)
            yield ":".join(filter(None, [namespace, p.name])) if p.name else f"{namespace}:{route}", route


def app_urls() -> dict[str, str]:
    return {name: route for name, route in walk(get_resolver().url_patterns) if not name.startswith("admin:")}


def admin_urls() -> dict[str, str]:
    return {name: route for name, route in walk(get_resolver().url_patterns) if name.startswith("admin:")}


@pytest.fixture
def world(round_: Any, people: dict[str, Any], make_user: Callable[..., User], add_participants: Any) -> dict[str, Any]:
    tournament = round_.stage.tournament
    first = table(round_, 1)
    game = protocol_service.open_protocol(first, people["judge"])
    protest = Protest.objects.create(game=game, seat=1, text="seat 1 was not allowed a speech")
    job = SeatingJob.objects.create(stage=round_.stage, method="random", seed=1, created_by=people["organizer"])
    rival = make_user("rival", can_create=True)
    theirs = Tournament.objects.create(slug="theirs", name="Theirs", ruleset="fiim", starts=dt.date(2025, 1, 1))
    theirs.organizers.add(rival)
    participant = tournament.participants.order_by("number").first()
    league = Series.objects.create(name="League", slug="league")  # the organizer's series of this tournament
    league.organizers.add(people["organizer"])
    SeriesTournament.objects.create(series=league, tournament=tournament)
    users = {"anonymous": None, "player": make_user("player"), "other_judge": people["other"],
             "judge": people["judge"], "chief": people["chief"], "rival": rival, "organizer": people["organizer"]}
    values = {"slug": tournament.slug, "pk": participant.pk, "decision": "accept", "stage": round_.stage.ext_id,
              "number": round_.number, "table": first.pk, "protest": protest.pk, "player": participant.ext_id,
              "object_id": participant.pk, "id": people["organizer"].pk, "content_type_id": 1,
              "token": "no-such-token", "series": league.slug, "platform": next(iter(sorted(PLATFORMS)), "none")}
    check_in = checkin.open_check_in(tournament, people["organizer"])
    registering.ensure_entries(tournament)  # the players' private links (entries/)
    entry = Entry.objects.get(participant=participant)
    overrides = {"entries_public:me": {"token": entry.token}, "entries_public:my_calendar": {"token": entry.token},
                 "entries:badge": {"pk": entry.pk},
                 "running:job": {"pk": job.pk}, "public:game": {"table": first.number},
                 "ratings:player": {"player": participant.player_id},
                 "running:checkin_phone": {"pk": check_in.pk}, "running:checkin_door": {"pk": check_in.pk}}
    return {"users": users, "values": values, "overrides": overrides}


def url_of(name: str, route: str, world: dict[str, Any]) -> str:
    values = {**world["values"], **world["overrides"].get(name, {})}
    route = route.replace("^", "").replace("$", "")
    route = re.sub(r"\(\?P<app_label>[^)]*\)", "games", route)
    route = re.sub(r"\(\?P<url>[^)]*\)", "nowhere/", route)
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


def client_for(user: User | None) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    if user is not None:
        client.force_login(user)
    return client


# One row a URL: (GET, POST) statuses for ROLES in order:
# anonymous, player, other_judge, judge, chief, rival, organizer.
PUBLIC = ((200,) * 7, (405,) * 7)
ORGANIZER = (302, 403, 403, 403, 403, 403, 200)
ORGANIZER_POST = (302, 403, 403, 403, 403, 403, 400)
ORGANIZER_ACTION = ((302, 403, 403, 403, 403, 403, 405), (302, 403, 403, 403, 403, 403, 302))
CREATOR = ((302, 403, 403, 403, 403, 200, 200), (302, 403, 403, 403, 403, 400, 400))
# the player registry's site-level pages: superusers and users given tournaments.merge_player (none of these roles)
REGISTRY = ((302,) + (403,) * 6, (302,) + (403,) * 6)
TABLE = ((302, 403, 403, 200, 200, 403, 200), (302, 403, 403, 400, 400, 403, 400))
PRINT = ((302, 403, 403, 403, 200, 403, 200), (302, 403, 403, 403, 405, 403, 405))

EXPECTED: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "site:tournaments": PUBLIC,
    ":favicon.ico": ((302,) * 7, (405,) * 7),  # the icon browsers ask for by themselves
    "site:new_tournament": CREATOR,
    "site:import_tournament": CREATOR,
    "site:duplicate_players": REGISTRY,
    "site:merge_players": REGISTRY,
    "site:player": REGISTRY,
    # where the login lands: a judge with one table to record goes to its live screen, anyone else to the list
    "site:start": ((302,) * 7, (302,) + (405,) * 6),
    "tournaments:detail": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    "exchange:export": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    "exchange:exports": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    "exchange:export_platform": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    "tournaments:participants": (ORGANIZER, ORGANIZER_POST),
    "tournaments:import_players": (ORGANIZER, ORGANIZER_POST),
    "tournaments:participant_edit": (ORGANIZER, ORGANIZER_POST),
    "tournaments:participant_remove": ORGANIZER_ACTION,
    "tournaments:participant_disqualify": ORGANIZER_ACTION,
    "tournaments:participant_reinstate": ORGANIZER_ACTION,
    "tournaments:decide": ORGANIZER_ACTION,
    "tournaments:decide_many": ORGANIZER_ACTION,
    "tournaments:settings": ((302, 403, 403, 403, 403, 403, 302), (302, 403, 403, 403, 403, 403, 302)),
    "tournaments:teams": (ORGANIZER, ORGANIZER_POST),
    "tournaments:keep_apart": (ORGANIZER, ORGANIZER_POST),
    "tournaments:parameters": (ORGANIZER, ORGANIZER_POST),
    "running:stage": (ORGANIZER, ORGANIZER_POST),
    "running:round": (ORGANIZER, ORGANIZER_POST),
    "running:job": (ORGANIZER, (302, 403, 403, 403, 403, 403, 302)),
    "running:round_start": ORGANIZER_ACTION,
    "running:standings": (ORGANIZER, (302, 403, 403, 403, 403, 403, 302)),
    "running:awards": (ORGANIZER, (302, 403, 403, 403, 403, 403, 302)),
    # check-in at the venue: the organizer's pages (an empty POST is refused: no action, no player)...
    "running:checkins": (ORGANIZER, ORGANIZER_POST),
    "running:checkin_phone": (ORGANIZER, (302, 403, 403, 403, 403, 403, 302)),
    "running:checkin_door": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    # ...and the volunteer's and the door's links: no such token here (tests/checkin/test_checkin.py opens real ones)
    "running:checkin_volunteer": ((404,) * 7, (404,) * 7),
    "running:checkin_self": ((404,) * 7, (404,) * 7),
    # the players' own pages (entries/): the form (an empty POST is refused: closed), who is coming, the calendars,
    # a player's private page (an empty POST: no action); the organizer's registration tab and the badges
    "entries_public:register": ((200,) * 7, (400,) * 7),
    "entries_public:coming": PUBLIC,
    "entries_public:calendar": PUBLIC,
    "entries_public:me": ((200,) * 7, (400,) * 7),
    "entries_public:my_calendar": PUBLIC,
    "entries:registration": (ORGANIZER, ORGANIZER_POST),
    "entries:badges": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    "entries:badge": (ORGANIZER, (302, 403, 403, 403, 403, 403, 405)),
    # notifications: the organizer's tab (an empty POST: no message, 400); a judge's own Telegram link (judges and
    # organizers; no POST); a player's links to the bot and to unsubscribe: no such token here
    # (tests/notices/ opens real ones)
    "notices:notices": (ORGANIZER, ORGANIZER_POST),
    "notices:judge_telegram": ((302, 403, 200, 200, 200, 403, 200), (302, 403, 405, 405, 405, 403, 405)),
    "notices_public:telegram": ((404,) * 7, (404,) * 7),
    "notices_public:unsubscribe": ((404,) * 7, (404,) * 7),
    "public:list": PUBLIC,
    "public:home": PUBLIC,
    "public:rules": PUBLIC,
    "public:where": PUBLIC,
    "public:seating": PUBLIC,
    "public:round_seating": PUBLIC,
    "public:standings": PUBLIC,
    "public:stage_standings": PUBLIC,
    "public:player": PUBLIC,
    "public:player_why": PUBLIC,
    "public:screen": PUBLIC,
    "venue_screen:control": (ORGANIZER, ORGANIZER_POST),
    # the stream overlay: the organizer's tab (an empty POST changes nothing: back to the tab)...
    "games:stream": (ORGANIZER, (302, 403, 403, 403, 403, 403, 302)),
    # ...and its secret links: no such token here (tests/games/test_stream_overlay.py opens real ones)
    "games:overlay": ((404,) * 7, (405,) * 7),
    "games:overlay_state": ((404,) * 7, (405,) * 7),
    "public:game": ((404,) * 7, (405,) * 7),  # table 1's protocol is a draft: not public
    "public:standings_visibility": ORGANIZER_ACTION,
    "api:schema": PUBLIC,
    "api:tournaments": PUBLIC,
    "api:tournament": PUBLIC,
    "api:stages": PUBLIC,
    "api:rounds": PUBLIC,
    "api:seating": PUBLIC,
    "api:games": PUBLIC,
    "api:standings": PUBLIC,
    "api:awards": PUBLIC,
    # a platform's document of final, public results: this round is in play, so refused to everyone
    "api:export": ((403,) * 7, (405,) * 7),
    "rating_api:ratings": PUBLIC,
    "ratings:list": PUBLIC,
    "ratings:player": PUBLIC,
    "rating_exports:csv": PUBLIC,
    "rating_exports:xlsx": PUBLIC,
    "rating_rules:rules": ((302,) + (403,) * 6, (302,) + (403,) * 6),  # the site's administrators only
    "api:token": ((405,) * 7, (400,) * 7),  # POST username and password for a token
    # the write API (session or token): the protocol of table 1 for those who may open it
    "api:protocol": ((401, 403, 403, 200, 200, 403, 200), (401, 403, 403, 405, 405, 403, 405)),
    "api:submit": ((401, 403, 403, 405, 405, 403, 405), (401, 403, 403, 400, 400, 403, 400)),
    "api:confirm": ((401, 403, 403, 405, 405, 403, 405), (401, 403, 403, 403, 400, 403, 400)),
    "api:reopen": ((401, 403, 403, 405, 405, 403, 405), (401, 403, 403, 403, 400, 403, 403)),
    "games:staff": (ORGANIZER, (302, 403, 403, 403, 403, 403, 302)),
    "games:protocols": ((302, 403, 200, 200, 200, 403, 200), (302, 403, 405, 405, 405, 403, 405)),
    "games:protocol": TABLE,
    # the chief judge's desk: the chief judge and the organizers; its actions confirm or send back (POST)
    "games:desk": ((302, 403, 403, 403, 200, 403, 200), (302, 403, 403, 403, 405, 403, 405)),
    "games:desk_action": ((302, 403, 403, 403, 405, 403, 405), (302, 403, 403, 403, 302, 403, 302)),
    # a judge's private link: no such token here (tests/judges/test_private_links.py opens real ones)
    "games:private_link": ((404,) * 7, (404,) * 7),
    "games:state": ((302, 403, 403, 405, 405, 403, 405), (302, 403, 403, 302, 302, 403, 302)),
    "games:history": ((302, 403, 403, 200, 200, 403, 200), (302, 403, 403, 405, 405, 403, 405)),
    "games:protests": TABLE,
    # only the chief judge decides a protest; the others who see the table are sent back to it
    "games:decide": ((302, 403, 403, 302, 302, 403, 302), (302, 403, 403, 403, 400, 403, 403)),
    "games:table": TABLE,
    "paper:seating": PRINT,
    "paper:seating_pdf": PRINT,
    "paper:forms": PRINT,
    "paper:forms_pdf": PRINT,
    # kostroma's application form (annex 1.1): those who print; this fiim tournament takes no applications (404)
    "paper:application_form": ((302, 403, 403, 403, 404, 403, 404), (302, 403, 403, 403, 404, 403, 404)),
    "paper:application_form_pdf": ((302, 403, 403, 403, 404, 403, 404), (302, 403, 403, 403, 404, 403, 404)),
    "paper:results": PUBLIC,
    "paper:diplomas": PUBLIC,
    "paper:diplomas_pdf": PUBLIC,
    "paper:results_pdf": PUBLIC,
    "paper:results_xlsx": PUBLIC,
    "paper:results_csv": PUBLIC,
    "paper:stage_csv": PUBLIC,
    "paper:teams_csv": ((404,) * 7, (405,) * 7),  # this fiim tournament has no teams (the page matrix has some)
    # a series: its organizer's page (not the organizers of its tournaments, nor of another series); the rest public
    "series:list": PUBLIC,
    "series:new": CREATOR,
    "series:detail": PUBLIC,
    "series:edit": (ORGANIZER, ORGANIZER_POST),
    "series:csv": PUBLIC,
    "series:xlsx": PUBLIC,
    "login": ((200,) * 7, (200,) * 7),
    "logout": ((405,) * 7, (302,) * 7),
    "set_language": ((302,) * 7, (302,) * 7),
}


def test_every_url_has_an_entry() -> None:
    urls = set(app_urls())
    new, gone = sorted(urls - set(EXPECTED)), sorted(set(EXPECTED) - urls)
    assert not new, f"new URLs: add who gets what to EXPECTED: {new}"
    assert not gone, f"URLs gone: remove them from EXPECTED: {gone}"


def test_who_gets_what(world: dict[str, Any]) -> None:
    """One walk (one fixture world): every GET first, then every empty POST, each from a fresh client."""
    urls = {name: url_of(name, route, world) for name, route in app_urls().items()}
    got: dict[str, list[list[int]]] = {name: [[], []] for name in urls}
    for column, method in enumerate(("get", "post")):
        for name, url in urls.items():
            for role in ROLES:
                response = getattr(client_for(world["users"][role]), method)(url)
                got[name][column].append(response.status_code)
                if role == "anonymous" and response.status_code == 302 and name not in {"logout", "set_language",
                                                                                        ":favicon.ico"}:
                    assert response["Location"].startswith("/accounts/login/"), (name, response["Location"])
    wrong = {name: (tuple(g), tuple(p)) for name, (g, p) in got.items() if (tuple(g), tuple(p)) != EXPECTED.get(name)}
    assert not wrong, "\n".join(f'    "{name}": {rows},  # {urls[name]}' for name, rows in wrong.items())


def test_admin_is_for_staff_only(world: dict[str, Any]) -> None:
    """No role of the app is Django staff: every admin page sends each of them to the admin's login."""
    for role in ROLES:
        client = client_for(world["users"][role])
        for name, route in admin_urls().items():
            if name in {"admin:login", "admin:logout"}:
                continue
            response = client.get(url_of(name, route, world))
            assert response.status_code == 302, (role, name)
            assert response["Location"].startswith("/admin/login/"), (role, name, response["Location"])


# POSTs that need no CSRF token from a logged-in browser, and why (the API's token endpoint, an APIView, enforces
# it through SessionAuthentication when a session is there).
CSRF_EXEMPT: dict[str, str] = {
    "set_language": "public pages are one copy for every anonymous reader, kept by the proxy "
                    "(public/conditional.py), so they carry nobody's token; a forged switch changes only the "
                    "language of the one it is forged for",
}


def test_every_post_needs_the_csrf_token(world: dict[str, Any], make_user: Callable[..., User]) -> None:
    """A logged-in superuser's POST without the token is refused on every URL; with it, the same POST is not."""
    admin = make_user("root", superuser=True)
    refused, exempt = [], []
    for name, route in app_urls().items():
        url = url_of(name, route, world)
        client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
        client.force_login(admin)
        status = client.post(url).status_code
        (exempt if status != 403 else refused).append(name)
    assert sorted(exempt) == sorted(CSRF_EXEMPT)
    # the token makes the difference: a form page posted with its token is not refused
    client = Client(enforce_csrf_checks=True, HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(admin)
    client.get(url_of("tournaments:participants", app_urls()["tournaments:participants"], world))
    token = client.cookies["csrftoken"].value
    url = url_of("tournaments:participants", app_urls()["tournaments:participants"], world)
    assert client.post(url, {"csrfmiddlewaretoken": token}).status_code == 400
