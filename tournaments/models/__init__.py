"""The tournament's database rows; ``exchange.reading`` turns them into ``scoring``'s model."""

from __future__ import annotations

from ..labels import SeatingMethod, StageKind
from .apart import KeepApart
from .awards import Award, Diplomas
from .changes import ParamChange
from .event import AdvanceKind, RulesetId, Stage, StagePlayer, Tournament, TournamentLevel
from .groups import TableGroup
from .jobs import JobState, SeatingJob
from .lots import DrawMethod, LotDraw
from .people import Participant, ParticipantStatus, Player, Team, normal_key
from .registry import PlayerMerge
from .rounds import Absence, Bye, Penalty, Round, RoundState, Seat, Table

__all__ = [
    "Absence",
    "AdvanceKind",
    "Award",
    "Bye",
    "Diplomas",
    "DrawMethod",
    "JobState",
    "KeepApart",
    "LotDraw",
    "ParamChange",
    "Participant",
    "ParticipantStatus",
    "Penalty",
    "Player",
    "PlayerMerge",
    "Round",
    "RoundState",
    "RulesetId",
    "Seat",
    "SeatingJob",
    "SeatingMethod",
    "Stage",
    "StageKind",
    "StagePlayer",
    "Table",
    "TableGroup",
    "Team",
    "Tournament",
    "TournamentLevel",
    "normal_key",
]
