"""``python manage.py recompute_ratings``: every player's rating from scratch (CONTRACT: prints how many players
and games it counted)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services.compute import recompute


class Command(BaseCommand):
    help = "Recompute every player's rating from scratch, from the confirmed games of rated tournaments."

    def handle(self, *args: Any, **options: Any) -> None:
        outcome = recompute()
        self.stdout.write(
            f"Rated {outcome.players} players from {outcome.games} games in {outcome.rounds} rounds "
            f"({outcome.written} changes written, {outcome.removed} removed)."
        )
