"""The rating from the database: every ruleset, from scratch and from a round on giving the same numbers, and what
moves it (protocols confirmed and reopened, a tournament's level, rated flag and date)."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games.models import Game, GameState
from ratings.models import PlayerRating, RatingChange
from ratings.services.compute import recompute
from scoring import fileio
from scoring.rating import RatedGame, RatedSeat, apply, rate_round
from tests.conftest import SEASON as EXAMPLES
from tests.helpers import example_text

pytestmark = pytest.mark.django_db

def snapshot() -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    return (list(RatingChange.objects.order_by("game_id", "player_id").values_list(
                "game_id", "player_id", "position", "side", "won", "before", "after")),
            list(PlayerRating.objects.order_by("player_id").values_list("player_id", "rating", "games")))


def by_hand(tournaments: list[Any]) -> dict[int, float]:
    """The same season replayed straight from the tournament files (scoring alone), by the players' names."""
    k = {"club": 10.0, "open": 20.0, "championship": 30.0}
    ratings: dict[int, float] = {}
    for t in tournaments:
        data = fileio.loads(example_text(f"{t.ruleset}-example.json"))
        ids = {p.ext_id: p.player_id for p in t.participants.all()}
        for stage in data.stages:
            for r in stage.rounds:
                games = [RatedGame(g.table, g.winner.value, tuple(sorted(
                    (RatedSeat(ids[s.player], s.effective_side.value) for s in g.seats), key=lambda s: s.player)),
                    k[t.level], k[t.level]) for g in r.games if g.winner is not None]
                apply(ratings, rate_round(ratings, games))
    return ratings


def test_every_ruleset_counts_and_the_numbers_are_the_files(season: list[Any]) -> None:
    rated = {row.player_id: row for row in PlayerRating.objects.all()}
    expected = by_hand(season)
    assert rated and set(rated) == set(expected)
    for player, value in expected.items():
        assert rated[player].rating == pytest.approx(value, abs=1e-9)
    confirmed = Game.objects.filter(state=GameState.CONFIRMED).exclude(winner="").count()
    assert RatingChange.objects.values("game_id").distinct().count() == confirmed
    assert {t.ruleset for t in season} == set(EXAMPLES)
    for t in season:  # every ruleset's games are in the rating
        assert RatingChange.objects.filter(tournament=t).exists(), t.ruleset


def test_from_a_round_on_gives_the_same_numbers_as_from_scratch(
        season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    before = snapshot()
    game = Game.objects.filter(table__round__stage__tournament=season[1], state=GameState.CONFIRMED).first()
    assert game is not None
    with django_capture_on_commit_callbacks(execute=True):  # reopened, as games.services.protocol.reopen saves it
        game.state, game.confirmed_at = GameState.SUBMITTED, None
        game.save(update_fields=["state", "confirmed_at"])
    reopened = snapshot()
    assert reopened != before and not RatingChange.objects.filter(game=game).exists()
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    recompute()
    assert snapshot() == reopened  # the incremental result is the from-scratch one, to the last bit
    with django_capture_on_commit_callbacks(execute=True):
        game.state = GameState.CONFIRMED
        game.save(update_fields=["state", "confirmed_at"])
    assert snapshot() == before


def test_a_tournament_not_rated_or_of_another_level(season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    fiim = season[2]
    with django_capture_on_commit_callbacks(execute=True):
        fiim.rated = False
        fiim.save()
    assert not RatingChange.objects.filter(tournament=fiim).exists()
    with django_capture_on_commit_callbacks(execute=True):
        fiim.rated, fiim.level = True, "club"
        fiim.save()
    first = RatingChange.objects.filter(tournament=fiim).order_by("position", "game_id").first()
    assert first is not None and abs(first.after - first.before) <= 10
    assert snapshot() == (lambda s: (recompute(), snapshot())[1])(None)


def test_a_later_start_date_moves_a_tournament_in_the_history(
        season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    tomsk = season[0]
    with django_capture_on_commit_callbacks(execute=True):
        tomsk.starts = tomsk.ends = __import__("datetime").date(2025, 12, 1)
        tomsk.save()
    last = RatingChange.objects.order_by("-position").first()
    assert last is not None and last.tournament_id == tomsk.pk
    now = snapshot()
    RatingChange.objects.all().delete()
    recompute()
    assert snapshot() == now


def test_the_command_prints_what_it_counted(season: list[Any], capsys: Any) -> None:
    call_command("recompute_ratings")
    out = capsys.readouterr().out
    players = PlayerRating.objects.count()
    games = Game.objects.filter(state=GameState.CONFIRMED).exclude(winner="").count()
    assert f"Rated {players} players from {games} games" in out


def test_confirming_one_game_writes_only_its_changes(
        season: list[Any], django_capture_on_commit_callbacks: Any, django_assert_max_num_queries: Any) -> None:
    game = Game.objects.filter(table__round__stage__tournament=season[3], state=GameState.CONFIRMED).last()
    assert game is not None
    with django_capture_on_commit_callbacks(execute=True):
        game.state, game.confirmed_at = GameState.SUBMITTED, None
        game.save(update_fields=["state", "confirmed_at"])
    with django_capture_on_commit_callbacks(execute=True), django_assert_max_num_queries(16):
        game.state = GameState.CONFIRMED
        game.save(update_fields=["state", "confirmed_at"])
    assert RatingChange.objects.filter(game=game).count() == game.seats.count()


def test_the_last_rounds_games_confirmed_one_by_one(
        season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    """Nothing rated after the round: each confirmation replays its own game alone (``recompute_games``), and the
    changes and ratings are those of a recomputation from scratch, to the last bit, after every confirmation."""
    from ratings.services import compute

    last = Game.objects.filter(state=GameState.CONFIRMED).exclude(winner="").order_by(
        "-table__round__stage__tournament__starts", "-table__round__stage__tournament_id",
        "-table__round__stage__order", "-table__round__number").first()
    assert last is not None
    games = list(Game.objects.filter(table__round=last.table.round_id, state=GameState.CONFIRMED).order_by("id"))
    assert len(games) >= 1
    with django_capture_on_commit_callbacks(execute=True):
        for game in games:  # the round in play again: every game of it reopened, in one transaction
            game.state, game.confirmed_at = GameState.SUBMITTED, None
            game.save(update_fields=["state", "confirmed_at"])
    assert not RatingChange.objects.filter(game__in=games).exists()
    replayed: list[set[int] | None] = []
    real_history = compute.history

    def history(since: str, the_rules: Any, only: set[int] | None = None) -> Any:
        replayed.append(only)
        return real_history(since, the_rules, only)

    for game in games:
        with pytest.MonkeyPatch.context() as patch, django_capture_on_commit_callbacks(execute=True):
            patch.setattr(compute, "history", history)  # (the callbacks run on leaving, before the patch is undone)
            game.state = GameState.CONFIRMED
            game.save(update_fields=["state", "confirmed_at"])
        assert replayed[-1] == {game.pk}  # its own game read, not the round's
        now = snapshot()
        RatingChange.objects.all().delete()
        PlayerRating.objects.all().delete()
        recompute()
        assert snapshot() == now


def test_a_game_of_an_earlier_round_replays_what_follows(
        season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    """A round after the game's is rated: the history from its round is replayed, not the game alone."""
    from ratings.services import compute

    game = Game.objects.filter(table__round__stage__tournament=season[0], state=GameState.CONFIRMED).order_by(
        "table__round__stage__order", "table__round__number").first()
    assert game is not None
    calls: list[str] = []
    real = compute.recompute

    def recompute_spy(since: str = "") -> Any:
        calls.append(since)
        return real(since)

    before = snapshot()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(compute, "recompute", recompute_spy)
        with django_capture_on_commit_callbacks(execute=True):
            game.winner = "black" if game.winner == "red" else "red"
            game.save(update_fields=["winner", "confirmed_at"])
    assert len(calls) == 1
    changed = snapshot()
    assert changed != before
    RatingChange.objects.all().delete()
    PlayerRating.objects.all().delete()
    recompute()
    assert snapshot() == changed


def test_hidden_standings_count_once_shown(season: list[Any], django_capture_on_commit_callbacks: Any) -> None:
    """Their games would show through the changes: a tournament counts once its standings are shown."""
    shown = snapshot()
    zvezdy = season[3]
    with django_capture_on_commit_callbacks(execute=True):
        zvezdy.standings_hidden = True
        zvezdy.save(update_fields=["standings_hidden"])
    assert not RatingChange.objects.filter(tournament=zvezdy).exists()
    with django_capture_on_commit_callbacks(execute=True):
        zvezdy.standings_hidden = False
        zvezdy.save(update_fields=["standings_hidden"])
    assert snapshot() == shown


def test_merging_two_players_makes_one_history(season: list[Any], django_capture_on_commit_callbacks: Any,
                                              make_user: Any) -> None:
    """The same person entered twice (tomsk's and fiim's player lists): merged, their games are one history."""
    from tournaments.models import Player
    from tournaments.services.merging import merge_players

    kept = season[0].participants.order_by("number").first().player
    other = season[2].participants.order_by("number").first().player
    with django_capture_on_commit_callbacks(execute=True):
        merge_players(kept, other, by=make_user("registrar", superuser=True), reason="один человек")
    assert not Player.objects.filter(pk=other.pk).exists()
    rating = PlayerRating.objects.get(player=kept)
    changes = RatingChange.objects.filter(player=kept).order_by("position")
    assert {c.tournament_id for c in changes} >= {season[0].pk, season[2].pk}
    assert rating.games == changes.count() and rating.rating == changes.last().after
    now = snapshot()
    RatingChange.objects.all().delete()
    recompute()
    assert snapshot() == now
