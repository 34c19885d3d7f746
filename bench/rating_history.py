"""Benchmark: the rating of a 10-season, 200-tournament, 5,000-player history.

Builds the history straight into a fresh PostgreSQL database (rows written in bulk: no recomputation while it
loads), then prints: the recomputation from scratch (target: under a minute), the same again with nothing to
change, a confirmation in the last round of the last tournament and in the first round of the first (the
incremental recomputation's best and worst case), and the rating pages against a tournament's public standings
page (the median of 30 requests each, in-process, warm). Run from the repository root with PostgreSQL and Redis
up: ``python bench/rating_history.py [--seasons 10] [--per-season 20] [--players 5000]``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness import (
    load_average,
    manage,
    production_env,
    recreate_database,
    setup_django,
    static_is_current,
)

SERVER = "postgres://postgres@127.0.0.1:5432"
DATABASE = "bench_ratings"
LINEUPS = {
    "fiim": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "kostroma": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "zvezdy": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "tomsk": ["mafia", "mafia", "mafia", "maniac", "sheriff", "doctor"] + ["civilian"] * 6,
}


def build_history(seasons: int, per_season: int, players: int, rng: random.Random) -> dict[str, int]:
    """Tournaments of 20 to 120 players (tomsk: tables of 12), 6 to 12 rounds, every game confirmed."""
    from games.models import Game, GameSeat, GameState
    from tournaments.models import Participant, Player, Round, Seat, Stage, Table, Tournament

    people = Player.objects.bulk_create(Player(surname=f"Игрок{i:05d}", first_name="Тест", club=f"Клуб {i % 60}",
                                               city=f"Город {i % 25}") for i in range(players))
    counts = {"tournaments": 0, "games": 0, "seats": 0}
    for season in range(seasons):
        for n in range(per_season):
            ruleset = rng.choice(list(LINEUPS))
            size = len(LINEUPS[ruleset])
            day = dt.date(2016 + season, 1, 1) + dt.timedelta(days=n * 17)
            tournament = Tournament.objects.create(
                slug=f"s{season}-t{n}", name=f"Сезон {season + 1}, турнир {n + 1}", ruleset=ruleset, starts=day,
                ends=day, level=rng.choice(["club", "open", "open", "championship"]))
            stage = Stage.objects.create(tournament=tournament, ext_id="qualifying", kind="qualifying", order=1)
            field = rng.sample(people, rng.randint(2, 12) * size)
            entries = Participant.objects.bulk_create(
                Participant(tournament=tournament, player=p, ext_id=f"p{i}", number=i + 1)
                for i, p in enumerate(field))
            rounds = Round.objects.bulk_create(Round(stage=stage, number=r + 1, state="published")
                                               for r in range(rng.randint(6, 12)))
            for round_ in rounds:
                order = entries[:]
                rng.shuffle(order)
                tables = Table.objects.bulk_create(Table(round=round_, number=t + 1) for t in range(len(order) // size))
                seats = Seat.objects.bulk_create(
                    Seat(table=table, round=round_, number=s + 1, participant=order[t * size + s])
                    for t, table in enumerate(tables) for s in range(size))
                winners = ["red", "black"] + (["maniac"] if ruleset == "tomsk" else [])
                games = Game.objects.bulk_create(Game(table=table, state=GameState.CONFIRMED,
                                                      winner=rng.choice(winners)) for table in tables)
                GameSeat.objects.bulk_create(
                    GameSeat(game=games[i // size], seat=seat, role=LINEUPS[ruleset][i % size])
                    for i, seat in enumerate(seats))
                counts["games"] += len(games)
                counts["seats"] += len(seats)
            counts["tournaments"] += 1
    return counts


def timed(work: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def confirm_again(game: Any) -> float:
    """Reopen (not timed) and confirm one game as the protocol services save it; the recomputation runs at once
    (autocommit: after the save's commit), so its time is in the figure."""
    from games.models import GameState

    game.state, game.confirmed_at = GameState.SUBMITTED, None
    game.save(update_fields=["state", "confirmed_at"])
    game.state = GameState.CONFIRMED
    return timed(lambda: game.save(update_fields=["state", "confirmed_at"]))[0]


def median_ms(client: Any, url: str, runs: int = 30) -> tuple[float, int]:
    client.get(url)  # warm: built once
    times = []
    size = 0
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, (url, response.status_code)
        size = len(response.content)
    return statistics.median(times) * 1000, size


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seasons", type=int, default=10)
    parser.add_argument("--per-season", type=int, default=20)
    parser.add_argument("--players", type=int, default=5000)
    args = parser.parse_args()
    env = production_env(SERVER, DATABASE)
    recreate_database(SERVER, DATABASE)
    manage(env, "migrate", "--noinput")
    if not static_is_current():
        manage(env, "collectstatic", "--noinput")
    setup_django()
    from django.test import Client

    from games.models import Game
    from ratings.models import PlayerRating, RatingChange
    from ratings.services.compute import recompute

    seconds, counts = timed(lambda: build_history(args.seasons, args.per_season, args.players, random.Random(19)))
    from django.db import connection

    with connection.cursor() as cursor:  # the statistics autovacuum would gather after such a load
        cursor.execute("ANALYZE")
    print(f"history: {counts['tournaments']} tournaments, {counts['games']:,} games, {counts['seats']:,} seats, "
          f"{args.players:,} players; built in {seconds:.1f} s (load {load_average()})")
    seconds, outcome = timed(recompute)
    print(f"recompute from scratch:        {seconds:6.2f} s  ({outcome.players:,} players, {outcome.games:,} games, "
          f"{outcome.written:,} changes written)  target < 60 s")
    seconds, outcome = timed(recompute)
    print(f"recompute, nothing to change:  {seconds:6.2f} s  ({outcome.written} written, {outcome.removed} removed)")
    last = Game.objects.order_by("-table__round__stage__tournament__starts", "-table__round__number", "-pk").first()
    first = Game.objects.order_by("table__round__stage__tournament__starts", "table__round__number", "pk").first()
    assert last is not None and first is not None
    print(f"confirm a game of the last round:   {confirm_again(last) * 1000:8.1f} ms (recomputation included)")
    print(f"confirm a game of the first round:  {confirm_again(first) * 1000:8.1f} ms (replays the whole history)")
    assert RatingChange.objects.count() == counts["seats"] and PlayerRating.objects.count() <= args.players

    client = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="ru", HTTP_X_FORWARDED_PROTO="https")
    top = PlayerRating.objects.order_by("-games").values_list("player_id", flat=True).first()
    biggest = Game.objects.values("table__round__stage__tournament__slug").order_by("-table__round__number").first()
    assert biggest is not None
    slug = biggest["table__round__stage__tournament__slug"]
    print("median of 30 warm requests (in-process):")
    for name, url in (("rating table, page 1", "/ratings/"), ("rating table, a club", "/ratings/?club=Клуб 7"),
                      ("rating table, a period", "/ratings/?since=2020-01-01&until=2020-12-31"),
                      ("a player's rating page", f"/ratings/players/{top}/"),
                      ("GET /api/ratings/ (all)", "/api/ratings/"),
                      ("GET /api/ratings/?tournament=", f"/api/ratings/?tournament={slug}"),
                      ("public standings (for comparison)", f"/p/{slug}/standings/")):
        ms, size = median_ms(client, url)
        print(f"  {name:36} {ms:7.1f} ms  {size / 1024:7.1f} KiB")


if __name__ == "__main__":
    main()
