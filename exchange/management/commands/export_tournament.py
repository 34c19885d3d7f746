"""``python manage.py export_tournament SLUG``: print the tournament file."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from exchange.files import export_text
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Print a tournament as a tournament file (mafia-tournament/1)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            tournament = Tournament.objects.get(slug=options["slug"])
        except Tournament.DoesNotExist:
            raise CommandError(f"no tournament {options['slug']!r}") from None
        self.stdout.write(export_text(tournament), ending="")
