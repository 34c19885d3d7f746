"""Benchmark: notifications (docs/notifications.md) under the production profile (PostgreSQL, Redis, the
``notices`` queue's ``db_worker`` process as the README runs it). A ``fiim`` round of 70 players at 7 tables, half
of them by e-mail (a real SMTP server on loopback, aiosmtpd) and half by Telegram (a local Bot API server, the
tests' own), in both languages:

1. the round published: the time from the commit of ``publish_round`` to the 70th message handed to its channel
   (each message's row ``handed_at``), and what the servers received;
2. a re-seat of two players (unpublished, two seats swapped, published again): the time to the 2 messages, and
   that nobody else is told (the worker's queue looked at again 3 s later).

It prints the figures and, last, one JSON line. No timing is asserted. Run from the repository root with
PostgreSQL and Redis up: ``python bench/notify.py [--tables 7]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from harness import (
    ROOT,
    drop_database,
    load_average,
    manage,
    production_env,
    recreate_database,
    setup_django,
    start_workers,
    stop,
)


def wait_for(count: int, since: int, timeout: float) -> tuple[float | None, int]:
    """Seconds until ``count`` messages after id ``since`` are handed to their channel (None: not in time)."""
    from notices.models import Message

    started = time.perf_counter()
    handed = 0
    while time.perf_counter() - started < timeout:
        handed = Message.objects.filter(pk__gt=since, handed_at__isnull=False).count()
        if handed >= count:
            return time.perf_counter() - started, handed
        time.sleep(0.02)
    return None, handed


def ready(timeout: float) -> None:
    """Waits until the notices worker has run a task (one retry of nothing)."""
    from django_tasks_db.models import DBTaskResult

    from notices import tasks

    result = tasks.retry.enqueue([])
    started = time.perf_counter()
    while time.perf_counter() - started < timeout:
        if DBTaskResult.objects.filter(pk=result.id, status="SUCCESSFUL").exists():
            return
        time.sleep(0.1)
    raise SystemExit("the notices worker did not start")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=7, help="tables of 10 (7: the fiim 70)")
    parser.add_argument("--server-url", default=os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432"))
    parser.add_argument("--database", default="bench_notify")
    parser.add_argument("--keep", action="store_true", help="keep the database afterwards (to look into it)")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.notices.servers import TOKEN, BotServer, SMTPServer

    smtp, bot = SMTPServer().start(), BotServer().start()
    os.environ.update({"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(smtp.port), "TELEGRAM_API_URL": bot.url,
                       "TELEGRAM_BOT_TOKEN": TOKEN, "SITE_URL": "https://mafia.example.org"})
    env = production_env(args.server_url, args.database)
    print(f"load average {load_average()} (1, 5, 15 min) on {os.cpu_count()} cores, shared with other work")
    recreate_database(args.server_url, args.database)
    manage(env, "migrate", "--noinput")
    setup_django()
    from django.contrib.auth import get_user_model

    from entries.models import Entry
    from entries.services import registering
    from notices.models import Message
    from running.services.seating import publish_round, swap_seats, unpublish_round
    from tests.conftest import new_round
    from tournaments.models import Seat

    organizer = get_user_model().objects.create_user("bench-organizer")
    round_ = new_round(organizer, "fiim", args.tables)
    players = Seat.objects.filter(round=round_).count()
    registering.ensure_entries(round_.stage.tournament)
    for i, seat in enumerate(Seat.objects.filter(round=round_).order_by("table__number", "number")):
        entry = Entry.objects.get(participant_id=seat.participant_id)
        if i % 2:
            entry.telegram_chat_id = 10_000 + i
        else:
            entry.email = f"player{i}@example.org"
        entry.language = "en" if i % 3 == 0 else "ru"
        entry.save()
    unpublish_round(round_)
    workers = start_workers(env, ("notices",))
    figures: dict[str, Any] = {"players": players}
    try:
        ready(60)  # the worker up (its start is not the publication's cost)
        since = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        started = time.perf_counter()
        from django.utils import timezone

        published = timezone.now()
        publish_round(round_, organizer)
        took, handed = wait_for(players, since, 60)
        rows = Message.objects.filter(pk__gt=since)
        first = min(rows.values_list("created", flat=True))
        last = max(h for h in rows.values_list("handed_at", flat=True) if h is not None)
        emails = [h for h in rows.filter(channel="email").values_list("handed_at", flat=True) if h is not None]
        figures["round_parts"] = {"queued_to_composed": round((first - published).total_seconds(), 2),
                                  "composed_to_last_handed": round((last - first).total_seconds(), 2)}
        print(f"  the worker took the task and composed the 70 rows {figures['round_parts']['queued_to_composed']} s "
              f"after the publication; the last handed {figures['round_parts']['composed_to_last_handed']} s after "
              f"(e-mails handed by {(max(emails) - first).total_seconds():.2f} s)")
        figures["round_published"] = {"messages": handed, "seconds": None if took is None else round(took, 2),
                                      "emails_received": len(smtp.mails), "telegram_received": len(bot.api.sent)}
        print(f"round of {players} published: {handed} messages handed to their channel in "
              f"{took if took is None else f'{took:.2f}'} s (publish itself {time.perf_counter() - started:.2f} s "
              f"ago); the SMTP server received {len(smtp.mails)}, the Bot API {len(bot.api.sent)}")
        since = Message.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
        a = Seat.objects.get(round=round_, table__number=1, number=1)
        b = Seat.objects.get(round=round_, table__number=2, number=2)
        unpublish_round(round_)
        swap_seats(round_, a.pk, b.pk)
        publish_round(round_, organizer)
        took, handed = wait_for(2, since, 60)
        time.sleep(3)
        after = Message.objects.filter(pk__gt=since).count()
        figures["reseat_2"] = {"messages": after, "seconds": None if took is None else round(took, 2)}
        print(f"re-seat of 2 players: {after} messages ({handed} handed in "
              f"{took if took is None else f'{took:.2f}'} s; 3 s later still {after})")
    finally:
        for worker in workers:
            stop(worker)
        smtp.stop()
        bot.stop()
        if not args.keep:
            from django.db import connections

            connections.close_all()
            drop_database(args.server_url, args.database)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
