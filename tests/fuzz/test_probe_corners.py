"""The probe's untested corners, now tested, each under the four regulations where it applies:

- the chief judge's desk confirms exactly the version it showed: a protocol changed meanwhile (on the protocol page,
  through the API, or sent back and submitted again) is refused with a message, and the version now shown confirms;
- a judge cannot change a submitted protocol through any door: the table screen (a tap, the roles, the extra points,
  the phone's queue), the protocol page's form, the state buttons, the desk, the API; each refused, nothing changed
  (a protocol the chief judge reopened, sent back and got submitted again included);
- the protests window, at the second: kostroma takes a protest 10 minutes after the game's end and refuses one a
  second later, saying why; tomsk and zvezdy have no window; fiim takes none unless the organizer turns them on,
  then with no window;
- the parameters page posted with the parameters seen before another organizer's change answers 409 and saves
  nothing (also when the change lands between the page's check and the save);
- the 10 MB bodies: every URL that takes a POST, posted a 10 MB urlencoded body, a 10 MB multipart field and a
  10 MB uploaded file by an organizer: never a server error, nothing saved.

HTML and formula payloads are in tests/fuzz/test_payloads.py."""

from __future__ import annotations

import datetime as dt
import html
import json
import re
from fractions import Fraction
from html.parser import HTMLParser
from typing import TYPE_CHECKING, Any

import pytest
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameSeat, GameState, Protest
from games.permissions import staff_of
from games.services import protocol as service
from games.services.facts import ProtocolFacts
from tests.conftest import new_people
from tests.helpers import ROLES, table
from tests.site.test_permission_walk import world as world
from tournaments.models import ParamChange, Tournament
from tournaments.services.params import canonical, change_params

if TYPE_CHECKING:
    from collections.abc import Callable

    from django.contrib.auth.models import User

pytestmark = [pytest.mark.django_db, pytest.mark.templates_recorded]  # reads response.context or .templates

RULESETS = ["fiim", "tomsk", "kostroma", "zvezdy"]
HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def client_for(user: User) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(user)
    return client


def text_of(response: Any) -> str:
    """A page's text as a reader sees it (entities decoded)."""
    return html.unescape(response.content.decode())


def finish(ruleset: str, winner: str = "red") -> Callable[[ProtocolFacts], None]:
    """A protocol the regulation takes: every role dealt, the winner, tomsk's jury marks."""

    def fill(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES[ruleset], strict=True):
            seat.role = role
            if ruleset == "tomsk":
                seat.subjective = Fraction(0)
        facts.winner = winner

    return fill


def submitted_by_judge(round_: Any, people: dict[str, Any], ruleset: str) -> Game:
    """Table 1 played by its judge and submitted."""
    judge = people["judge"]
    game = service.open_protocol(table(round_, 1), judge)
    game = service.change(game, judge, game.version, finish(ruleset))
    game = service.submit(game, judge, game.version)
    assert game.state == GameState.SUBMITTED
    return game


def snapshot(game: Game) -> tuple[Any, ...]:
    """Everything a change of the protocol would touch: the game's row, its seats, its history."""
    row = Game.objects.filter(pk=game.pk).values().get()
    seats = list(GameSeat.objects.filter(game=game).order_by("pk").values())
    return row, seats, game.history.count(), Protest.objects.filter(game=game).count()


class Form(HTMLParser):
    """The fields of one form of a page as a browser would post them (the selected options, the checked boxes)."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker, self.inside, self.select, self.textarea = marker, False, "", ""
        self.data: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form" and self.marker in a.get("class", "") + a.get("id", ""):
            self.inside = True
        if not self.inside:
            return
        name = a.get("name", "")
        if tag == "input" and name and name != "csrfmiddlewaretoken":
            if a.get("type") in ("checkbox", "radio"):
                if "checked" in a:
                    self.data[name] = a.get("value") or "on"
            else:
                self.data[name] = a.get("value", "")
        elif tag == "select":
            self.select = name
            self.data.setdefault(name, "")
        elif tag == "option" and self.select and "selected" in a:
            self.data[self.select] = a.get("value", "")
        elif tag == "textarea":
            self.textarea = name
            self.data[name] = ""

    def handle_data(self, data: str) -> None:
        if self.inside and self.textarea:
            self.data[self.textarea] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.inside = False
        elif tag == "select":
            self.select = ""
        elif tag == "textarea":
            self.textarea = ""


def form_of(page: str, marker: str) -> dict[str, str]:
    parser = Form(marker)
    parser.feed(page)
    assert parser.data, f"no form {marker!r} on the page"
    return parser.data


def api_body(got: dict[str, Any], **changes: Any) -> dict[str, Any]:
    """What the write API takes, from what it answered (``changes`` typed over it)."""
    keys = ("version", "winner", "first_killed", "best_move", "circles", "mafia_missed_three_nights", "notes")
    seat_keys = ("seat", "role", "side", "fouls", "removed", "left", "left_number", "extra", "best",
                 "days_survived", "subjective")
    body = {k: got[k] for k in keys}
    body["seats"] = [{k: seat[k] for k in seat_keys} for seat in got["seats"]]
    body.update(changes)
    return body


def api_client(user: User) -> Any:
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    client = APIClient(HTTP_ACCEPT_LANGUAGE="en")
    token, _created = Token.objects.get_or_create(user=user)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


@pytest.fixture(params=RULESETS)
def ruleset(request: Any) -> str:
    return str(request.param)


@pytest.fixture
def day(make_round: Any, ruleset: str) -> dict[str, Any]:
    """A published round of one table under ``ruleset``, its judge, chief judge and organizer; the protocol of
    table 1 played and submitted by its judge."""
    round_ = make_round(ruleset, tables=1)
    people = new_people(round_)
    game = submitted_by_judge(round_, people, ruleset)
    kwargs = {"slug": round_.stage.tournament.slug, "table": game.table_id}
    urls = {name: reverse(f"games:{name}", kwargs=kwargs) for name in ("protocol", "state", "table", "protests",
                                                                      "desk_action")}
    urls["desk"] = reverse("games:desk", kwargs={"slug": kwargs["slug"]})
    urls["api"] = reverse("api:protocol", args=[kwargs["slug"], game.table_id])
    for action in ("submit", "confirm", "reopen"):
        urls[f"api_{action}"] = reverse(f"api:{action}", args=[kwargs["slug"], game.table_id])
    return {"round": round_, "people": people, "game": game, "urls": urls, "ruleset": ruleset,
            "tournament": round_.stage.tournament}


# --- 1. the desk confirms exactly the version shown -------------------------------------------------------------


def version_on_the_desk(client: Client, day: dict[str, Any]) -> int:
    """The version the desk's card of table 1 shows (its confirmation posts it back)."""
    page = client.get(day["urls"]["desk"]).content.decode()
    card = page.split('id="table-1"', 1)[1]
    found = re.search(r'name="version" value="(\d+)"', card)
    assert found is not None, "no confirmation on the card of table 1"
    return int(found.group(1))


def desk_confirm(client: Client, day: dict[str, Any], version: int) -> str:
    response = client.post(day["urls"]["desk_action"], {"action": "confirm", "version": version}, follow=True)
    assert response.status_code == 200
    return " ".join(str(m) for m in response.context["messages"])


def change_on_the_protocol_page(day: dict[str, Any], who: User) -> None:
    """``who`` saves the protocol page's form as it shows, a note added."""
    client = client_for(who)
    data = form_of(client.get(day["urls"]["protocol"]).content.decode(), "protocol-form")
    data["notes"] = "checked by the chief judge"
    response = client.post(day["urls"]["protocol"], data)
    assert response.status_code == 302, text_of(response)[:2000]


def change_through_the_api(day: dict[str, Any], who: User) -> None:
    client = api_client(who)
    got = client.get(day["urls"]["api"]).json()
    response = client.put(day["urls"]["api"], api_body(got, notes="changed through the API"), format="json")
    assert response.status_code == 200, response.json()


def sent_back_and_submitted_again(day: dict[str, Any], who: User) -> None:
    """The organizer sends the protocol back; its judge submits it again (a new version, submitted as before)."""
    organizer, judge = day["people"]["organizer"], day["people"]["judge"]
    game = Game.objects.get(pk=day["game"].pk)
    game = service.send_back(game, staff_of(organizer, day["tournament"]), organizer, game.version, "seat 2?")
    service.submit(game, judge, game.version)


MEANWHILE = {"protocol page": change_on_the_protocol_page, "api": change_through_the_api,
             "sent back and submitted again": sent_back_and_submitted_again}


@pytest.mark.parametrize("meanwhile", list(MEANWHILE))
def test_the_desk_confirms_exactly_the_version_it_showed(day: dict[str, Any], meanwhile: str) -> None:
    chief = day["people"]["chief"]
    desk = client_for(chief)
    shown = version_on_the_desk(desk, day)
    assert shown == day["game"].version
    MEANWHILE[meanwhile](day, chief)
    game = Game.objects.get(pk=day["game"].pk)
    assert game.state == GameState.SUBMITTED and game.version > shown
    before = snapshot(game)
    said = desk_confirm(desk, day, shown)
    assert f"Table 1: The protocol was changed meanwhile (version {game.version} by" in said
    assert f"based on version {shown} and was not saved" in said
    assert snapshot(game) == before  # still submitted, not confirmed, nothing written
    assert Game.objects.get(pk=game.pk).confirmed_by is None
    # the desk now shows the current version, and that one is confirmed
    now = version_on_the_desk(desk, day)
    assert now == game.version
    assert "the protocol is confirmed and locked" in desk_confirm(desk, day, now)
    game.refresh_from_db()
    assert game.state == GameState.CONFIRMED and game.confirmed_by == chief and game.version == now + 1


# --- 2. a judge cannot change a submitted protocol through any door --------------------------------------------


def judge_doors(day: dict[str, Any]) -> dict[str, Callable[[], Any]]:
    """Every way a judge's browser or script could change table 1's protocol, each a request with the current
    version (a stale one would be refused for that alone)."""
    judge = day["people"]["judge"]
    urls, ruleset = day["urls"], day["ruleset"]

    def version() -> int:
        return Game.objects.get(pk=day["game"].pk).version

    screen, api = client_for(judge), api_client(judge)

    def tap(headers: dict[str, Any], **data: Any) -> Callable[[], Any]:
        return lambda: screen.post(urls["table"], {"version": version(), **data}, **headers)

    def queue() -> Any:
        taps = [{"action": "foul", "seat": 2, "reason": "", "version": version()},
                {"action": "winner", "value": "black"}]
        return screen.post(urls["table"], {"taps": json.dumps(taps)}, **HTMX)

    def protocol_form() -> Any:
        data = form_of(screen.get(urls["protocol"]).content.decode(), "protocol-form")
        data.update(winner="black", notes="changed by the judge after the submission")
        return screen.post(urls["protocol"], data)

    def api_put() -> Any:
        got = api.get(urls["api"]).json()
        return api.put(urls["api"], api_body(got, winner="black", notes="after the submission"), format="json")

    roles = {f"s{n}_role": role for n, role in enumerate(reversed(ROLES[ruleset]), start=1)}
    return {
        "screen: a foul": tap({}, action="foul", seat=2, reason=""),
        "screen: a foul (htmx)": tap(HTMX, action="foul", seat=2, reason=""),
        "screen: the winner": tap({}, action="winner", value="black"),
        "screen: the roles": tap({}, action="roles", **roles),
        "screen: extra points": tap({}, action="extras", x1="0.5"),
        "screen: submit again": tap({}, action="submit"),
        "screen: confirm": tap({}, action="confirm"),
        "screen: the phone's queue": queue,
        "protocol page: the form": protocol_form,
        "protocol page: submit": lambda: screen.post(urls["state"], {"action": "submit", "version": version()}),
        "protocol page: confirm": lambda: screen.post(urls["state"], {"action": "confirm", "version": version()}),
        "protocol page: reopen": lambda: screen.post(urls["state"], {"action": "reopen", "version": version(),
                                                                     "reason": "mine"}),
        "desk: confirm": lambda: screen.post(urls["desk_action"], {"action": "confirm", "version": version()}),
        "desk: send back": lambda: screen.post(urls["desk_action"], {"action": "send_back", "version": version(),
                                                                     "comment": "to myself"}),
        "api: put": api_put,
        "api: submit": lambda: api.post(urls["api_submit"], {"version": version()}, format="json"),
        "api: confirm": lambda: api.post(urls["api_confirm"], {"version": version()}, format="json"),
        "api: reopen": lambda: api.post(urls["api_reopen"], {"version": version(), "reason": "x"}, format="json"),
    }


def refusal_of(response: Any) -> str:
    """What the answer says to the judge: a 4xx, or the page or message that refuses."""
    if 400 <= response.status_code < 500:
        return f"{response.status_code}"
    if response.status_code == 302:  # the state buttons answer as a form does: back to the page, with the reason
        errors = [str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "error"]
        assert errors, "redirected without a refusal"
        return " ".join(errors)
    page = response.content.decode()
    assert response.status_code == 200 and 'id="screen-error"' in page, (response.status_code, page[:500])
    return "screen-error"  # htmx swaps 200 answers only: the screen comes back saying it refused


def assert_every_door_is_shut(day: dict[str, Any], only: tuple[str, ...] = ()) -> dict[str, str]:
    game = Game.objects.get(pk=day["game"].pk)
    before = snapshot(game)
    said = {}
    for door, knock in judge_doors(day).items():
        if only and door not in only:
            continue
        response = knock()
        assert response.status_code < 500, door
        said[door] = refusal_of(response)
        assert snapshot(game) == before, f"{door}: the submitted protocol changed"
    return said


def test_a_judge_cannot_change_a_submitted_protocol_through_any_door(day: dict[str, Any]) -> None:
    said = assert_every_door_is_shut(day)
    # the doors that change the facts say why, in 4xx
    for door in ("screen: a foul", "screen: the winner", "screen: the roles", "screen: extra points"):
        assert said[door] == "400", (door, said[door])
    assert said["protocol page: the form"] == "409"
    assert said["api: put"] == "409" and said["api: submit"] == "409"
    assert said["api: confirm"] == "403" and said["api: reopen"] == "403"
    assert said["desk: confirm"] == "403" and said["desk: send back"] == "403"
    assert "Only a draft can be submitted" in said["protocol page: submit"]
    assert "Only the chief judge or an organizer can confirm" in said["protocol page: confirm"]
    assert "Only the chief judge can reopen" in said["protocol page: reopen"]
    answer = api_client(day["people"]["judge"]).put(day["urls"]["api"], {}, format="json")
    assert answer.status_code == 400  # not even an empty body changes it
    put = judge_doors(day)["api: put"]()
    assert "The protocol is submitted: the chief judge confirms it or sends it back" in put.json()["detail"]
    assert put.json()["state"] == "submitted"


def test_nor_after_a_reopened_protocol_was_sent_back_and_submitted_again(day: dict[str, Any]) -> None:
    """A protocol the chief judge reopened is open for its correction; once sent back to the judge and submitted
    again, it is the judge's submission like any other, closed to the judge."""
    people, tournament = day["people"], day["tournament"]
    chief, judge = people["chief"], people["judge"]
    game = Game.objects.get(pk=day["game"].pk)
    game = service.confirm(game, staff_of(chief, tournament), chief, game.version)
    game = service.reopen(game, staff_of(chief, tournament), chief, game.version, "seat 3 was the sheriff")
    game = service.send_back(game, staff_of(chief, tournament), chief, game.version, "swap seats 3 and 4")
    game = service.change(game, judge, game.version, lambda facts: setattr(facts, "notes", "swapped"))
    game = service.submit(game, judge, game.version)
    assert game.state == GameState.SUBMITTED
    said = assert_every_door_is_shut(day, only=("screen: a foul", "screen: the roles", "screen: the phone's queue",
                                               "protocol page: the form", "api: put"))
    assert said["screen: a foul"] == "400" and said["protocol page: the form"] == "409" and said["api: put"] == "409"
    with pytest.raises(service.ProtocolError, match="The protocol is submitted"):
        service.change(game, judge, game.version, lambda facts: setattr(facts, "notes", "again"))
    # the chief judge still corrects it, and confirms
    game = service.change(game, chief, game.version, lambda facts: setattr(facts, "notes", "checked"))
    game = service.confirm(game, staff_of(people["organizer"], tournament), people["organizer"], game.version)
    assert game.state == GameState.CONFIRMED


# --- 3. the protests window, at the second -----------------------------------------------------------------------


ENDED = dt.datetime(2025, 3, 15, 14, 0, 0, tzinfo=dt.UTC)  # the game's end


def lodge_at(day: dict[str, Any], monkeypatch: pytest.MonkeyPatch, moment: dt.datetime, text: str) -> Any:
    """The judge lodges a protest for seat 3 on the protests page, the clock showing ``moment`` (the service reads
    ``django.utils.timezone.now``)."""
    client = client_for(day["people"]["judge"])
    with monkeypatch.context() as frozen:
        frozen.setattr(timezone, "now", lambda: moment)
        return client.post(day["urls"]["protests"], {"seat": 3, "text": text})


@pytest.fixture
def ended(day: dict[str, Any]) -> dict[str, Any]:
    Game.objects.filter(pk=day["game"].pk).update(ended_at=ENDED)
    return day


# (ruleset, whether it takes protests unless the organizer says, its window in minutes)
WINDOWS = {"fiim": (False, None), "tomsk": (True, None), "kostroma": (True, 10), "zvezdy": (True, None)}


def test_the_protests_window_at_the_second(ended: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from scoring.rulesets import get_ruleset

    day = ended
    on, minutes = WINDOWS[day["ruleset"]]
    assert get_ruleset(day["ruleset"]).protest_minutes == minutes
    assert get_ruleset(day["ruleset"]).protests_by_default is on
    if not on:
        refused = lodge_at(day, monkeypatch, ENDED + dt.timedelta(seconds=1), "a second after the end")
        assert refused.status_code == 400
        assert "This tournament takes no protests: the judges' decisions are not subject to appeal" in \
            text_of(refused)
        assert not Protest.objects.exists()
        Tournament.objects.filter(pk=day["tournament"].pk).update(protests_enabled=True)  # the organizer's choice
    if minutes is None:  # no window: a day later is in time
        accepted = lodge_at(day, monkeypatch, ENDED + dt.timedelta(days=1), "a day later")
        assert accepted.status_code == 302
        assert Protest.objects.get().text == "a day later"
        return
    closes = ENDED + dt.timedelta(minutes=minutes)
    inside = lodge_at(day, monkeypatch, closes, "at the last second")
    assert inside.status_code == 302
    protest = Protest.objects.get()
    assert protest.text == "at the last second" and protest.recorded_at == closes
    outside = lodge_at(day, monkeypatch, closes + dt.timedelta(seconds=1), "a second late")
    assert outside.status_code == 400
    local = timezone.localtime
    said = text_of(outside)
    assert (f"Protests are accepted within 10 minutes of the game's end (it ended at "
            f"{local(ENDED).strftime('%H:%M:%S')}); the window closed at {local(closes).strftime('%H:%M:%S')} and "
            f"this one comes at {local(closes + dt.timedelta(seconds=1)).strftime('%H:%M:%S')}.") in said
    assert "The window is absolute: a later protest is not accepted." in said
    assert list(Protest.objects.values_list("text", flat=True)) == ["at the last second"]
    # the organizer and the chief judge are refused the same
    for who in ("organizer", "chief"):
        client = client_for(day["people"][who])
        with monkeypatch.context() as frozen:
            frozen.setattr(timezone, "now", lambda: closes + dt.timedelta(seconds=1))
            assert client.post(day["urls"]["protests"], {"seat": 3, "text": who}).status_code == 400
    assert Protest.objects.count() == 1


# --- 4. the 409 on a concurrent parameter change ----------------------------------------------------------------


def params_form(client: Client, slug: str, **changes: str) -> dict[str, str]:
    """The parameters page's form as the browser posts it, ``changes`` typed over it."""
    data = form_of(client.get(f"/t/{slug}/parameters/").content.decode(), "parameters-form")
    data.update(changes)
    return data


@pytest.fixture
def two_organizers(make_tournament: Any, make_user: Any, ruleset: str) -> tuple[Any, Client, Client]:
    tournament = make_tournament(ruleset, slug=f"params-{ruleset}")
    other = make_user("second")
    tournament.organizers.add(other)
    return tournament, client_for(tournament.organizers.get(username="director")), client_for(other)


def test_a_stale_parameters_page_answers_409_and_saves_nothing(two_organizers: tuple[Any, Client, Client]) -> None:
    tournament, mine, theirs = two_organizers
    url = f"/t/{tournament.slug}/parameters/"
    stale = params_form(mine, tournament.slug, **{"param-removal_points": "-2"})
    assert theirs.post(url, params_form(theirs, tournament.slug, **{"param-bye_points": "1"})).status_code == 302
    tournament.refresh_from_db()
    saved = tournament.params
    assert saved == {"bye_points": 1}
    late = mine.post(url, stale)
    assert late.status_code == 409
    assert "Someone changed the parameters since you opened this page, so nothing was saved" in text_of(late)
    tournament.refresh_from_db()
    assert tournament.params == saved and ParamChange.objects.count() == 1
    # the page keeps what was typed, and its check is now against the parameters in force
    kept = form_of(late.content.decode(), "parameters-form")
    assert kept["param-removal_points"] == "-2" and kept["seen"] == canonical(saved)
    assert mine.post(url, params_form(mine, tournament.slug, **{"param-removal_points": "-2"})).status_code == 302
    tournament.refresh_from_db()
    assert tournament.params == {"bye_points": 1, "removal_points": -2} and ParamChange.objects.count() == 2


def test_a_change_landing_between_the_check_and_the_save_answers_409(
    two_organizers: tuple[Any, Client, Client], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page's check passes, then another organizer's save commits before this one locks the row."""
    from tournaments.views import params as params_view

    tournament, mine, _theirs = two_organizers
    real = change_params

    def raced(target: Tournament, *args: Any, **kwargs: Any) -> Any:
        Tournament.objects.filter(pk=target.pk).update(params={"bye_points": 1})
        return real(target, *args, **kwargs)

    monkeypatch.setattr(params_view, "change_params", raced)
    response = mine.post(f"/t/{tournament.slug}/parameters/",
                         params_form(mine, tournament.slug, **{"param-removal_points": "-2"}))
    assert response.status_code == 409
    tournament.refresh_from_db()
    assert tournament.params == {"bye_points": 1} and not ParamChange.objects.exists()


# --- 5. 10 MB bodies on every POST ------------------------------------------------------------------------------

TEN_MB = 10 * 1024 * 1024
BOUNDARY = "probe-corners-boundary"
MULTIPART = f"multipart/form-data; boundary={BOUNDARY}"
URLENCODED = "application/x-www-form-urlencoded"


def multipart(name: str, content: bytes, filename: str | None = None) -> bytes:
    disposition = f'form-data; name="{name}"' + (f'; filename="{filename}"' if filename else "")
    head = f"--{BOUNDARY}\r\nContent-Disposition: {disposition}\r\n"
    if filename:
        head += "Content-Type: application/octet-stream\r\n"
    return head.encode() + b"\r\n" + content + f"\r\n--{BOUNDARY}--\r\n".encode()


def post_urls(world: dict[str, Any]) -> dict[str, str]:
    """Every URL an organizer may POST to (the permission walk's matrix: the organizer's POST is not 405)."""
    from tests.site.test_permission_walk import EXPECTED, ROLES, app_urls, url_of

    column = ROLES.index("organizer")
    return {name: url_of(name, route, world) for name, route in app_urls().items()
            if EXPECTED[name][1][column] != 405}


def test_ten_megabytes_on_every_post(world: dict[str, Any]) -> None:
    """Django's DATA_UPLOAD_MAX_MEMORY_SIZE refuses a large form body (400) before any view reads it; a 10 MB
    uploaded file (not counted by it) reaches the view, which refuses it cleanly (the tournament file's import
    reads up to 20 MB on purpose: this one is no tournament file) or ignores it as it ignores an empty POST."""
    from django.db import transaction

    from scoring import fileio
    from tests.fuzz.test_forms import rows
    from tournaments.models import Tournament

    assert fileio.MAX_FILE_BYTES > TEN_MB  # the file import takes this size on purpose
    junk = b"x" * TEN_MB
    json_junk = b'{"format": "mafia-tournament/1", "players": [], "stages": [], "x": "' + junk + b'"}'
    urls = post_urls(world)
    assert {"site:import_tournament", "tournaments:import_players", "api:submit", "games:table"} <= set(urls)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")  # one organizer's browser; its logout comes last
    client.force_login(world["users"]["organizer"])
    before = rows()
    tournaments = Tournament.objects.count()

    def post(url: str, body: bytes, content_type: str, method: str = "post") -> tuple[Any, bool]:
        """The answer, and whether the request changed a row (each one rolled back after)."""
        with transaction.atomic():
            response = getattr(client, method)(url, data=body, content_type=content_type)
            changed = rows() != before
            transaction.set_rollback(True)
        assert response.status_code < 500, (url, content_type[:20], response.status_code)
        return response, changed

    refused_bodies = ((b"text=" + junk, URLENCODED), (multipart("text", junk), MULTIPART))
    files = {field: multipart(field, json_junk, "big.json") for field in ("file", "upload")}
    tried = 0
    for name, url in sorted(urls.items(), key=lambda item: item[0] == "logout"):
        for body, content_type in refused_bodies:
            response, changed = post(url, body, content_type)
            assert response.status_code == 400, (name, content_type[:20], response.status_code)
            assert not changed, (name, "a refused body changed rows")
            tried += 1
        # a 10 MB file: no more than an empty POST does (most refuse that; a few act on it, as they would)
        response, changed = post(url, files["upload" if name == "tournaments:import_players" else "file"], MULTIPART)
        assert not changed or post(url, b"", URLENCODED)[1], (name, "the file changed rows an empty POST leaves")
        if name in ("site:import_tournament", "tournaments:import_players"):
            assert response.status_code == 400, (name, response.status_code)
        tried += 1
    # the API's writes read JSON themselves: a 10 MB JSON body is refused by its length before it is read (400,
    # api/parsers.py: Django's 2.5 MB form bound), not parsed and not saved
    from tests.site.test_permission_walk import app_urls, url_of

    client.force_login(world["users"]["organizer"])  # logged out by the walk's last POST
    before = rows()
    for name in ("api:protocol", "api:submit", "api:confirm", "api:reopen", "api:token"):
        url = url_of(name, app_urls()[name], world)
        for body, content_type in ((json_junk, "application/json"), *refused_bodies):
            response, changed = post(url, body, content_type, "put" if name == "api:protocol" else "post")
            assert 400 <= response.status_code < 500 and not changed, (name, response.status_code)
            if content_type == "application/json" and response.status_code == 400:  # refused by its length
                assert b"bytes; the API reads at most" in response.content or b"Bad Request (400)" in \
                    response.content, (name, response.content[:200])
            tried += 1
    assert Tournament.objects.count() == tournaments
    assert tried > 150
