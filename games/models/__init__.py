"""Game protocols (one per table), the tournament's judges and their tables, protests."""

from __future__ import annotations

from tournaments.labels import ProtestDecision, Role, Side

from .protocol import Game, GameSeat, GameState, Left, Protest

__all__ = [
    "Game",
    "GameSeat",
    "GameState",
    "Left",
    "Protest",
    "ProtestDecision",
    "Role",
    "Side",
]
