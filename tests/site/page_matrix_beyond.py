"""The matrix's checks of what goes beyond one tournament's pages: the rating (its table, a player's page, the API,
the downloads, the rules) and the hall's screen, for every world (tests/site/test_page_matrix.py)."""

from __future__ import annotations

import io
import re

from openpyxl import load_workbook

from tests.site.page_matrix_world import World, get, page, visible_text


def rated(world: World) -> None:
    """The rating as the site keeps it (the import's own recomputation runs after its commit, which a test's
    transaction never reaches): recomputed once a state, by the first rating check (``set_hidden`` asks again);
    the rating checks run one after the other, nothing between them rates a game."""
    from ratings.services.compute import recompute

    if world.rated_as is world.hidden:
        return
    recompute()
    world.rated_as = world.hidden


def ranked_names(world: World) -> list[str]:
    return [row.name for standings in world.standings.values() for row in standings.rows if row.rank is not None]


def check_ratings_list(world: World) -> None:
    rated(world)
    text = visible_text(page(world.anonymous, "/ratings/?q=" + world.truth.players[0].name.split()[0]))
    if not world.hidden:  # hidden: the tournament does not count yet (the same names may be another world's)
        assert world.truth.players[0].name in text, world.truth.players[0].name


def check_ratings_player(world: World) -> None:
    rated(world)
    player = world.tournament.participants.order_by("number").first().player_id
    text = page(world.anonymous, f"/ratings/players/{player}/")
    assert world.tournament.name in visible_text(text)
    if not world.hidden:
        assert "<polyline" in text


def check_api_ratings(world: World) -> None:
    from ratings.models import RatingChange

    rated(world)
    url = f"/api/ratings/?tournament={world.slug}"
    if world.hidden:
        get(world.anonymous, url, 403)
        assert not RatingChange.objects.filter(tournament=world.tournament).exists()
        return
    answer = get(world.anonymous, url).json()
    assert {row["participant"] for row in answer} == {p.id for p in world.truth.players}
    for row in answer:
        changes = RatingChange.objects.filter(tournament=world.tournament, player_id=row["player"])
        assert row["change"] == round(sum(c.after - c.before for c in changes), 1)
    everyone = get(world.anonymous, "/api/ratings/").json()
    assert [r["rating"] for r in everyone] == sorted((r["rating"] for r in everyone), reverse=True)


def check_rating_csv(world: World) -> None:
    rated(world)
    url = f"/ratings/export/rating.csv?tournament={world.slug}"
    if world.hidden:
        get(world.anonymous, url, 404)
        return
    lines = get(world.anonymous, url).content.decode("utf-8-sig").strip().splitlines()
    assert len(lines) == len(world.truth.players) + 1


def check_rating_xlsx(world: World) -> None:
    rated(world)
    url = f"/ratings/export/rating.xlsx?tournament={world.slug}"
    if world.hidden:
        get(world.anonymous, url, 404)
        return
    sheet = load_workbook(io.BytesIO(get(world.anonymous, url).content)).active
    assert sheet.max_row == len(world.truth.players) + 1


def check_rating_rules(world: World) -> None:
    get(world.organizer, "/ratings/rules/", 403)  # the site's administrators only


def check_screen(world: World) -> None:
    text = page(world.anonymous, f"/p/{world.slug}/screen/")
    kinds = set(re.findall(r'data-key="([a-z]+)-\d+"', text))
    assert {"tables", "alphabetical"} <= kinds, kinds
    assert ("standings" in kinds) == (not world.hidden and bool(ranked_names(world))), kinds
    body = visible_text(text)
    assert any(name in body for name in (p.name for p in world.truth.players))
    page(world.anonymous, f"/p/{world.slug}/screen/", **{"HX-Request": "true"})


def check_screen_control(world: World) -> None:
    text = page(world.organizer, f"/p/{world.slug}/screen/control/")
    assert f"/p/{world.slug}/screen/" in text
    get(world.anonymous, f"/p/{world.slug}/screen/control/", 302)


def check_stream_control(world: World) -> None:
    get(world.anonymous, f"/t/{world.slug}/stream/", 302)
    text = page(world.organizer, f"/t/{world.slug}/stream/")
    from stream.services import frames, overlays

    overlay = overlays.overlay_of(world.tournament)
    if overlay is None:
        assert 'id="stream-open"' in text
        return
    for number in frames.table_numbers(world.tournament.pk):
        assert f"/t/{world.slug}/stream/{overlay.token}/{number}/" in text


def check_overlay(world: World) -> None:
    """Table 1 of the game being played (the live world) or of the last round, its players by number; the roles
    only once shown, and then those of its protocol. Hidden standings hide nothing here: the link is secret."""
    from django.core.cache import cache

    from games.models import GameSeat
    from stream.services import delay, frames, overlays

    overlay = overlays.open_overlay(world.tournament)
    base = f"/t/{world.slug}/stream/{overlay.token}/1/"
    assert "overlay-labels" in page(world.anonymous, base + "?lang=ru")
    table = frames.current_table(world.tournament.pk, 1)
    from tournaments.models import Round

    newest = (Round.objects.filter(stage__tournament=world.tournament, state="published", tables__number=1)
              .order_by("-stage__order", "-number").first())
    assert table is not None and newest is not None and table.round_id == newest.pk  # no game in progress here
    seats = list(table.seats.select_related("participant__player").order_by("number"))
    for show_roles in (False, True):
        overlay.show_roles = show_roles
        overlay.save()
        cache.delete(delay.FRAMES.format(tournament=world.tournament.pk, number=1))
        answer = get(world.anonymous, base + "state/").json()
        frame = answer["frame"]
        assert answer["known"] and frame["table"] == 1 and frame["round"] == table.round.number
        assert [s["n"] for s in frame["seats"]] == [s.number for s in seats]
        assert [s["name"] for s in frame["seats"]] == [frames.display_name(s.participant.player) for s in seats]
        roles = dict(GameSeat.objects.filter(game__table=table).values_list("seat__number", "role"))
        if show_roles:
            assert [s["role"] for s in frame["seats"]] == [roles.get(s.number, "") for s in seats]
        else:
            assert all("role" not in s for s in frame["seats"])
            assert not {e["kind"] for e in frame["events"]} & {"don_check", "sheriff_check", "heal"}
            assert all(set(s) == {"n", "name", "out", "when", "fouls"} for s in frame["seats"])
