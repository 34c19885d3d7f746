"""The page matrix's checks of the public pages and the API, each against the figures scoring computes."""

from __future__ import annotations

import re
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.test import Client

from scoring import model as m
from scoring.lots import decided_by_lot
from scoring.params import PARAM_NAMES
from scoring.rulesets import get_ruleset
from scoring.standings import Standings, compute_standings
from tests.site.page_matrix_world import (
    World,
    get,
    page,
    rank_cell,
    ranked_neighbours_by_contract,
    rounds_of,
    ru_points,
    seated,
    stages_of,
    tables_of,
    visible_text,
)


def expect_public_standings(world: World, text: str, standings: Standings) -> None:
    if world.hidden:
        assert 'id="standings"' not in text and 'id="standings-hidden"' in text
        listed = visible_text(text[text.index('id="hidden-players"'):])
        for row in standings.rows:
            assert row.name in listed, row.name
        return
    rows = tables_of(text)["standings"][1:]
    assert len(rows) == len(standings.rows), (len(rows), len(standings.rows))
    decided = decided_by_lot(standings)
    for cells, row in zip(rows, standings.rows, strict=True):
        # The public page puts "by lot" under the player's name (a narrow rank column on a phone).
        assert cells[0] == rank_cell(row, frozenset(), blank=""), (cells, row.rank, row.name)
        assert cells[1].startswith(row.name), (cells, row.rank, row.name)
        by_lot = rank_cell(row, decided, blank="")[len(cells[0]):].strip()  # "по жребию" where a draw decided
        assert cells[1].endswith(by_lot) if by_lot else "жребию" not in cells[1], (cells, row.rank, row.name)
        if row.disqualified is not None:
            assert row.disqualified in cells[1], (cells, row)
        assert cells[2:5] == [ru_points(row.points), str(row.tally.games), str(row.tally.wins)], (cells, row)
    expect_team_table(text, standings, "teams", ru_points)


def expect_team_table(text: str, standings: Standings, table_id: str, points: Callable[[Fraction], str]) -> None:
    """The team table in standings order with its points, the teams going on marked, the champion named."""
    if standings.teams is None:
        assert f'id="{table_id}"' not in text
        return
    rows = tables_of(text)[table_id][1:]
    assert [(cells[0], cells[1].split(" (")[0], cells[2]) for cells in rows] == \
        [(str(t.rank), t.name, points(t.points)) for t in standings.teams]
    assert text.count("team-cut-line") == (1 if 0 < len(standings.team_advance) < len(standings.teams) else 0)
    assert ('id="team-cut"' in text) is (standings.team_cut is not None)
    if standings.champion_teams:
        names = {t.team: t.name for t in standings.teams}
        champion = visible_text(text[text.index('id="champion-team"'):])
        assert all(names[tid] in champion for tid in standings.champion_teams)


def check_public_standings(world: World) -> None:
    default = compute_standings(world.truth, None)
    for client_url, headers in ((f"/p/{world.slug}/standings/", {}),
                                (f"/p/{world.slug}/standings/", {"HX-Request": "true"})):
        expect_public_standings(world, page(world.anonymous, client_url, **headers), default)
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.cookies["django_language"] = "en"
    text = page(english, f"/p/{world.slug}/standings/")
    assert ("Standings:" in text) is not world.hidden and 'lang="en"' in text


def check_stage_standings(world: World) -> None:
    for stage in stages_of(world):
        url = f"/p/{world.slug}/standings/{stage.id}/"
        expect_public_standings(world, page(world.anonymous, url), world.standings[stage.id])
        expect_public_standings(world, page(world.anonymous, url, **{"HX-Request": "true"}),
                                world.standings[stage.id])
        # a query string is the same page (and must not defeat the cache; tests/public test that)
        expect_public_standings(world, page(world.anonymous, url + "?utm=1"), world.standings[stage.id])


def check_public_home(world: World) -> None:
    html = page(world.anonymous, f"/p/{world.slug}/")
    assert world.tournament.name in visible_text(html)
    for stage, round_ in rounds_of(world):
        assert f"/p/{world.slug}/seating/{stage.id}/{round_.number}/" in html, (stage.id, round_.number)


def check_public_list(world: World) -> None:
    assert world.tournament.name in visible_text(page(world.anonymous, "/p/"))


def check_tournament_list(world: World) -> None:
    assert world.tournament.name in visible_text(page(world.anonymous, "/"))
    assert world.tournament.name in visible_text(page(world.organizer, "/"))


def check_rules(world: World) -> None:
    html = page(world.anonymous, f"/p/{world.slug}/rules/")
    text = visible_text(html)
    assert world.tournament.name in text or world.tournament.get_ruleset_display() in text
    # each parameter that applies, in order, with a sentence; no raw JSON; named in words only,
    # its code name left to the row's id (``param-NAME``), never shown.
    names = [name for name in PARAM_NAMES if name not in get_ruleset(world.tournament.ruleset).not_applicable]
    rows = tables_of(html)["params"][1:]
    assert len(rows) == len(names), (len(rows), len(names))
    assert re.findall(r'<tr id="param-(\w+)"', html) == names
    for (label, words), name in zip(rows, names, strict=True):
        assert label and name not in label, (label, name)
        assert words.endswith(".") and not any(raw in words for raw in ("{", "[", '"', "null", "None")), words


def check_where(world: World) -> None:
    stage, round_ = list(rounds_of(world))[-1]
    _table, players = sorted(seated(world, stage, round_).items())[-1]
    player = next(p for p in world.truth.players if p.id == players[0])
    text = visible_text(page(world.anonymous, f"/p/{world.slug}/where/?q={player.name.split()[0]}"))
    assert player.name in text


def expect_seating(world: World, text: str, stage: m.Stage, round_: m.Round) -> None:
    tables = seated(world, stage, round_)
    body = visible_text(text)
    for players in tables.values():
        for pid in players:
            assert world.name(pid) in body, (stage.id, round_.number, pid)


def check_seating(world: World) -> None:
    text = page(world.anonymous, f"/p/{world.slug}/seating/")
    stage, round_ = list(rounds_of(world))[-1]
    expect_seating(world, text, stage, round_)
    page(world.anonymous, f"/p/{world.slug}/seating/", **{"HX-Request": "true"})


def check_round_seating(world: World) -> None:
    for stage, round_ in rounds_of(world):
        text = page(world.anonymous, f"/p/{world.slug}/seating/{stage.id}/{round_.number}/")
        expect_seating(world, text, stage, round_)


def takes_part(world: World, stage: m.Stage, pid: str) -> bool:
    """Whether the player has anything in the stage to show: a seat (played or in play), a bye, an absence, a
    penalty."""
    for round_ in stage.rounds:
        if pid in round_.byes or pid in round_.absent or any(p.player == pid for p in round_.penalties) or \
                any(s.player == pid for g in round_.games for s in g.seats):
            return True
    return any(t["stage"] == stage.id and pid in {s["player"] for s in t["seats"]} for t in world.in_play)


def check_player(world: World) -> None:
    for player in world.truth.players:
        url = f"/p/{world.slug}/players/{player.id}/"
        text = world.answers[url] = page(world.anonymous, url)
        assert player.name in visible_text(text)
        for stage in stages_of(world):
            row = next((r for r in world.standings[stage.id].rows if r.player == player.id), None)
            marker = f'id="total-{stage.id}"'
            if world.hidden or row is None or not takes_part(world, stage, player.id):
                assert marker not in text, (player.id, stage.id)  # nothing of the stage to show, or no figure
                continue
            assert marker in text, (player.id, stage.id)
            total = visible_text(text[text.index(marker):text.index("</p>", text.index(marker))])
            if row.disqualified is not None:
                assert row.disqualified in total and "Место" not in total, (total, row)
                continue
            expected = (rf"Место в таблице: {row.rank} · баллов: {re.escape(ru_points(row.points))} · "
                        rf"игр: {row.tally.games} ")
            assert re.search(expected, total), (total, row)
            for t in world.in_play:  # the seat of a round in play: "not yet", no protocol to link
                if t["stage"] == stage.id and player.id in {s["player"] for s in t["seats"]}:
                    assert f'/p/{world.slug}/games/{stage.id}/{t["round"]}/{t["table"]}/' not in text
                    assert "ещё нет" in text[text.index(marker):]


def why_players(world: World, stage: m.Stage) -> list[str]:
    """Whose "why am I ranked here?" to open: a dozen players of each world (each answer computes the stage), and
    in every stage the players whose neighbour in the list shares their rank (a tie nothing breaks), where the
    player ranked just above or below is not the row next to theirs (7 of 63 lacked it)."""
    rows = list(world.standings[stage.id].rows)
    tied = [row.player for i, row in enumerate(rows) if row.rank is not None and any(
        0 <= j < len(rows) and rows[j].rank == row.rank for j in (i - 1, i + 1))]
    return list(dict.fromkeys([p.id for p in world.truth.players[:12]] + tied[:6]))


def check_player_why(world: World) -> None:
    """"Why am I ranked here?" as the player's page loads it when opened: one comparison for each player the
    contract names (docs/explain.md, read here without ``scoring.explain``: the ranks just above and below, everyone
    level on points or sharing the rank), or why there is nothing to explain."""
    from scoring.explain import PlayerNotRanked, explain_standings

    for stage in stages_of(world):
        for pid in why_players(world, stage):
            text = page(world.anonymous, f"/p/{world.slug}/players/{pid}/why/{stage.id}/")
            try:
                answer = None if world.hidden else explain_standings(world.truth, world.standings[stage.id], pid)
            except PlayerNotRanked:
                answer = None
            if answer is None:
                assert "Нечего объяснять" in visible_text(text), (pid, stage.id)
                continue
            expected = ranked_neighbours_by_contract(world.standings[stage.id], pid)
            listed = text.split('class="list-unstyled small mb-0 player-why-list"')[1].split("</ul>")[0]
            assert listed.count("<li") == len(expected), (pid, stage.id, sorted(expected))
            names = visible_text(listed)
            for other in expected:
                assert world.truth.players_by_id()[other].name in names, (pid, stage.id, other)


def played(round_: m.Round) -> list[m.Game]:
    """The games with a result (a seated table without one is no public game)."""
    return [g for g in round_.games if g.winner is not None]


def check_game(world: World) -> None:
    for stage, round_ in rounds_of(world):
        for game in played(round_):
            html = page(world.anonymous, f"/p/{world.slug}/games/{stage.id}/{round_.number}/{game.table}/")
            text = visible_text(html)
            for seat in game.seats:
                assert world.name(seat.player) in text
            # "named best" is the judges' naming (``best: true``), shown where it is, not extra points as its proxy
            rows = tables_of(html)["protocol"][1:]
            named = [cells[0] for cells in rows if "назван лучшим" in cells[4]]
            assert named == ([] if world.hidden else [str(s.seat) for s in sorted(game.seats, key=lambda s: s.seat)
                                                      if s.best]), (stage.id, round_.number, game.table, named)
    for t in world.in_play:  # no result yet: not a public game
        get(world.anonymous, f"/p/{world.slug}/games/{t['stage']}/{t['round']}/{t['table']}/", 404)


def api(world: World, client: Client, url: str, status: int = 200) -> Any:
    response = get(client, url, status)
    return response.json()


def expect_api_standings(data: dict[str, Any], standings: Standings) -> None:
    rows = data["rows"] if "rows" in data else data["standings"]
    assert [r["player"] for r in rows] == [r.player for r in standings.rows]
    for got, row in zip(rows, standings.rows, strict=True):
        # the JSON's points are floats (docs/command-line.md): the nearest to the exact value
        assert got["rank"] == row.rank and got["points"] == float(row.points), (got, row.points)


def check_api_standings(world: World) -> None:
    for stage in stages_of(world):
        url = f"/api/tournaments/{world.slug}/standings/?stage={stage.id}"
        if world.hidden:
            api(world, world.anonymous, url, 403)
        else:
            expect_api_standings(api(world, world.anonymous, url), world.standings[stage.id])
        expect_api_standings(api(world, world.organizer, url), world.standings[stage.id])


def check_api_awards(world: World) -> None:
    """The given awards with their computed recipients: the same as scoring's candidates."""
    from scoring.awards import compute_candidate
    from scoring.rulesets import get_ruleset

    url = f"/api/tournaments/{world.slug}/awards/"
    if world.hidden:
        api(world, world.anonymous, url, 403)
    data = api(world, world.organizer, url)
    given = [p for p in get_ruleset(world.truth.ruleset)().proposed_awards() if p.enabled]
    assert [a["kind"] for a in data["awards"]] == [p.kind for p in given]
    for award, proposal in zip(data["awards"], given, strict=True):
        assert tuple(award["players"]) == compute_candidate(world.truth, proposal.kind, proposal.min_games).players


def items_of(data: Any) -> list[Any]:
    """A list answer of the API, paginated or not."""
    return list(data["results"] if isinstance(data, dict) else data)


def check_api_lists(world: World) -> None:
    assert world.slug in [t["slug"] for t in items_of(api(world, world.anonymous, "/api/tournaments/"))]


def check_api_tournament(world: World) -> None:
    data = api(world, world.anonymous, f"/api/tournaments/{world.slug}/")
    assert data["slug"] == world.slug and data["ruleset"] == world.truth.ruleset


def check_api_stages(world: World) -> None:
    items = items_of(api(world, world.anonymous, f"/api/tournaments/{world.slug}/stages/"))
    assert [s["id"] if "id" in s else s["ext_id"] for s in items] == [s.id for s in world.truth.stages]


def check_api_rounds(world: World) -> None:
    items = items_of(api(world, world.anonymous, f"/api/tournaments/{world.slug}/rounds/"))
    assert len(items) == len(list(rounds_of(world)))


def check_api_seating(world: World) -> None:
    for stage, round_ in rounds_of(world):
        data = api(world, world.anonymous, f"/api/tournaments/{world.slug}/rounds/{stage.id}/{round_.number}/seating/")
        got = {t["table"]: [s["player"] for s in sorted(t["seats"], key=lambda s: s["seat"])] for t in data["tables"]}
        assert sorted(map(sorted, got.values())) == sorted(map(sorted, seated(world, stage, round_).values()))


def check_api_games(world: World) -> None:
    items = items_of(api(world, world.anonymous, f"/api/tournaments/{world.slug}/games/"))
    assert len(items) == sum(len(played(r)) for _s, r in rounds_of(world))


def check_api_schema(world: World) -> None:
    assert b"openapi" in get(world.anonymous, "/api/schema/").content


def check_api_protocol(world: World) -> None:
    table = world.tournament_tables[-1]  # type: ignore[attr-defined]
    data = api(world, world.organizer, f"/api/tournaments/{world.slug}/protocols/{table.pk}/")
    assert "seats" in data


# organizer pages


def check_api_export(world: World) -> None:
    """A platform's document through the public API: only for results final and public (403 otherwise, to
    everyone), and then the platform's document of what the public sees."""
    from public.snapshot import Snapshot
    from scoring.formats import PLATFORMS

    snapshot = Snapshot(world.tournament)  # what the public sees: one snapshot for every platform
    for name, platform in PLATFORMS.items():
        url = f"/api/tournaments/{world.slug}/export/{name}/"
        if world.hidden or not snapshot.final_over:
            assert "detail" in api(world, world.anonymous, url, 403)
            continue
        document = get(world.anonymous, url).content.decode()
        back = platform.read(document, ruleset=world.truth.ruleset).tournament
        assert [s.id for s in back.stages] == [s.id for s in platform.kept(world.truth).stages]
        assert document == platform.export(snapshot.model).document
    api(world, world.anonymous, f"/api/tournaments/{world.slug}/export/nowhere/", 404)


# --- the players' own pages (entries/: docs/players-channel.md) -----------------------------------------------


def entries_of(world: World) -> dict[str, Any]:
    """Each participant's entry (their private link) by player id."""
    from entries.models import Entry
    from entries.services import registering

    registering.ensure_entries(world.tournament)
    return {e.participant.ext_id: e for e in Entry.objects.filter(tournament=world.tournament)
            .select_related("participant", "tournament") if e.participant is not None}


def seats_now(world: World) -> dict[str, tuple[int, int]]:
    """Where each player sits, by the file, in the round the public pages call current (the first published round
    not over, else the last): its games and its tables in play."""
    from public.snapshot import Snapshot

    current, _ = Snapshot(world.tournament).current_rounds()
    assert current is not None
    stage = next(s for s in world.truth.stages if s.id == current.stage.ext_id)
    round_ = next(r for r in stage.rounds if r.number == current.number)
    seats = {s.player: (g.table, s.seat) for g in round_.games for s in g.seats}
    for t in world.in_play:
        if t["stage"] == stage.id and t["round"] == round_.number:
            seats.update({s["player"]: (t["table"], s["seat"]) for s in t["seats"]})
    return seats


def check_me(world: World) -> None:
    """A player's private page: their table and seat in the current round, highlighted; their games and totals
    as their public page shows them (checked against scoring by ``check_player``), none while hidden."""
    entries, seats = entries_of(world), seats_now(world)
    chosen = [p.id for p in world.truth.players[:6]] + [s["player"] for t in world.in_play[:1] for s in t["seats"]]
    for pid in dict.fromkeys(chosen):
        text = page(world.anonymous, f"/p/{world.slug}/me/{entries[pid].token}/")
        assert world.name(pid) in visible_text(text), pid
        now = text[text.index('id="me-now"'):]
        now = visible_text(now[:now.index("</div>\n</div>")])
        if pid in seats:
            assert f"Стол {seats[pid][0]}, место {seats[pid][1]}" in now, (pid, now)
        else:
            assert "Стол" not in now, (pid, now)
        url = f"/p/{world.slug}/players/{pid}/"  # as ``check_player`` read it in this state (checked there)
        public = world.answers.get(url) or page(world.anonymous, url)
        for stage in stages_of(world):
            marker = f'id="total-{stage.id}"'
            assert (marker in text) is (marker in public) is (marker in public and not world.hidden), (pid, stage.id)
            if marker in text:
                mine = text[text.index(marker):text.index("</p>", text.index(marker))]
                theirs = public[public.index(marker):public.index("</p>", public.index(marker))]
                assert visible_text(mine) == visible_text(theirs), (pid, stage.id)


def parsed_calendar(world: World, url: str) -> Any:
    from icalendar import Calendar

    response = get(world.anonymous, url)
    assert response["Content-Type"].startswith("text/calendar")
    return Calendar.from_ical(response.content)


def check_calendar(world: World) -> None:
    """The programme: the tournament's days and every round with a start time, at the venue."""
    from tournaments.models import Round

    cal = parsed_calendar(world, f"/p/{world.slug}/calendar.ics")
    assert str(cal["X-WR-CALNAME"]) == world.tournament.name
    timed = Round.objects.filter(stage__tournament=world.tournament, starts_at__isnull=False)
    rounds = [e for e in cal.walk("VEVENT") if "-round-" in str(e["UID"])]
    assert len(rounds) == timed.count()
    assert len(cal.walk("VEVENT")) >= len(rounds) + (1 if world.tournament.starts else 0)


def check_my_calendar(world: World) -> None:
    """A player's calendar: the programme's events, each with the player's private link."""
    entries = entries_of(world)
    public = parsed_calendar(world, f"/p/{world.slug}/calendar.ics")
    for pid in [p.id for p in world.truth.players[:3]]:
        cal = parsed_calendar(world, f"/p/{world.slug}/me/{entries[pid].token}/calendar.ics")
        assert len(cal.walk("VEVENT")) == len(public.walk("VEVENT"))
        assert all(entries[pid].token in str(e["DESCRIPTION"]) for e in cal.walk("VEVENT"))


def check_coming(world: World) -> None:
    """Who is coming: every participant of the file (none registered online, no waiting list)."""
    from tournaments.models import ParticipantStatus

    text = page(world.anonymous, f"/p/{world.slug}/coming/")
    accepted = world.tournament.participants.filter(status=ParticipantStatus.ACCEPTED).count()
    assert accepted == len(world.truth.players)
    start = text.index(">", text.index('id="coming-counts"')) + 1
    counts = visible_text(text[start:text.index("</p>", start)])
    assert counts.startswith(f"{accepted} участник"), counts
    listed = text[text.index('id="coming-accepted"'):text.index("</ol>", text.index('id="coming-accepted"'))]
    assert listed.count("<li>") == accepted


def check_register(world: World) -> None:
    """The registration form of an imported tournament: closed until the organizer opens it."""
    text = page(world.anonymous, f"/p/{world.slug}/register/")
    assert 'id="register-closed"' in text and 'id="register-form"' not in text


def check_registration(world: World) -> None:
    """The organizer's list: every participant with their private link."""
    entries = entries_of(world)
    text = page(world.organizer, f"/t/{world.slug}/registration/")
    assert text.count('class="private-link"') == len(world.truth.players)
    assert all(f"/me/{entry.token}/" in text for entry in entries.values())


def check_badges(world: World) -> None:
    entries = entries_of(world)
    text = page(world.organizer, f"/t/{world.slug}/registration/badges/")
    assert text.count('class="badge-card') == len(world.truth.players) and text.count("<svg") == len(entries)


def check_badge(world: World) -> None:
    entry = next(iter(entries_of(world).values()))
    text = page(world.organizer, f"/t/{world.slug}/registration/badges/{entry.pk}/")
    assert text.count('class="badge-card') == 1 and entry.name in visible_text(text)
