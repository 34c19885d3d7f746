"""``python manage.py telegram_poll [--once] [--timeout N]``: the bot reads its messages (getUpdates, long
polling) and links the chats that sent ``/start TOKEN``, unlinks those that sent ``/stop`` (docs/notifications.md).
One process beside the workers; ``--once``: one read and out."""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from notices.services import bot


class Command(BaseCommand):
    help = "Reads the Telegram bot's messages: /start TOKEN links a chat, /stop unlinks it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--once", action="store_true", help="one getUpdates, then exit")
        parser.add_argument("--timeout", type=int, default=30, help="seconds a getUpdates waits for a message")

    def handle(self, *args: Any, **options: Any) -> None:
        if not settings.TELEGRAM_BOT_TOKEN:
            raise CommandError("TELEGRAM_BOT_TOKEN is not set")
        while True:
            try:
                count = bot.poll(0 if options["once"] else options["timeout"])
                if options["verbosity"] > 1 or options["once"]:
                    self.stdout.write(f"{count} update(s)")
            except Exception as error:  # the network: say so, wait, go on
                if options["once"]:
                    raise CommandError(str(error)) from error
                self.stderr.write(f"getUpdates failed: {error}")
                time.sleep(5)
            if options["once"]:
                return
