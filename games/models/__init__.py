"""Game protocols (one per table), the tournament's judges and their tables, protests."""

from __future__ import annotations

from tournaments.labels import ProtestDecision, Role, Side

from .protocol import Game, GameSeat, GameState, Left, Protest
from .staff import Judge, JudgeAssignment, PrivateLink

__all__ = [
    "Game",
    "GameSeat",
    "GameState",
    "Judge",
    "JudgeAssignment",
    "Left",
    "PrivateLink",
    "Protest",
    "ProtestDecision",
    "Role",
    "Side",
]
