"""Adding players: one by one or a whole checked list, all or nothing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from ..models import Player, Team, Tournament
from .registration import Outcome, register


@transaction.atomic
def add_player(tournament: Tournament, data: dict[str, Any], *, team: Team | None = None,
               guest: bool = False) -> Outcome:
    """Create the registry entry and register it; a refusal rolls the player back too."""
    player = Player.objects.create(**data)
    return register(tournament, player, team=team, guest=guest)


@transaction.atomic
def add_players(tournament: Tournament, rows: Sequence[tuple[dict[str, Any], Team | None]]) -> list[Outcome]:
    """Every row or none: the first refusal rolls back the whole list."""
    return [add_player(tournament, data, team=team) for data, team in rows]
