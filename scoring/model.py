"""The domain model: a tournament as frozen dataclasses (docs/rules/game.md, docs/rules/tournament.md).

These objects are exactly what the tournament file holds (``fileio`` reads and writes them);
the web application builds the same objects from its database rows, so every computation in
``scoring`` sees one model. Optional file fields keep ``None`` when the file leaves them out and
the ruleset's default applies (see ``rulesets.base.Ruleset.stage_format``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction

# The tournament-level key under which the web app writes who was disqualified (player, reason, at).
DISQUALIFICATIONS_KEY = "disqualifications"
# The tournament-level key under which the web app writes the tables of a round in play (seated, no result yet):
# their players are players of the stage with 0 games (docs/tournament-file.md).
TABLES_IN_PLAY_KEY = "tables_in_play"

# The zero of every point a seat has not earned: one object, so the scoring's hot loops skip it by identity
# (``is not ZERO``) without Fraction's slow truth test; the rulesets and the tally use this very object.
ZERO = Fraction(0)


class Side(StrEnum):
    RED = "red"
    BLACK = "black"
    MANIAC = "maniac"


class Role(StrEnum):
    CIVILIAN = "civilian"
    SHERIFF = "sheriff"
    DOCTOR = "doctor"
    MAFIA = "mafia"
    DON = "don"
    MANIAC = "maniac"
    # Kostroma's extra characters: their side is given per seat (default red).
    GHOST = "ghost"
    MUSICIAN = "musician"
    ARTIST = "artist"
    THIEF = "thief"
    SCREENWRITER = "screenwriter"


EXTRA_CHARACTERS = frozenset({Role.GHOST, Role.MUSICIAN, Role.ARTIST, Role.THIEF, Role.SCREENWRITER})

ROLE_SIDE: dict[Role, Side] = {
    Role.CIVILIAN: Side.RED,
    Role.SHERIFF: Side.RED,
    Role.DOCTOR: Side.RED,
    Role.MAFIA: Side.BLACK,
    Role.DON: Side.BLACK,
    Role.MANIAC: Side.MANIAC,
}

# "Black" in the rules means these two roles (docs/rules/game.md), e.g. for the best move.
BLACK_ROLES = frozenset({Role.MAFIA, Role.DON})


class StageKind(StrEnum):
    QUALIFYING = "qualifying"
    SEMIFINAL = "semifinal"
    FINAL = "final"
    OTHER = "other"


class SeatingMethod(StrEnum):
    RANDOM = "random"
    BALANCED = "balanced"
    SWISS_TENS = "swiss_tens"
    SWISS_ZVEZDY = "swiss_zvezdy"
    # the 5 + 5 rule with the draw that adds the fewest repeated meetings: an organizer's choice, not the regulation's
    SWISS_ZVEZDY_SPREAD = "swiss_zvezdy_spread"


class ProtestDecision(StrEnum):
    PENDING = "pending"
    UPHELD = "upheld"
    REJECTED = "rejected"


@dataclass(frozen=True)
class Seat:
    seat: int
    player: str
    role: Role
    side: Side | None = None  # as written in the file; ``effective_side`` is what counts
    fouls: int = 0
    removed: bool = False
    extra: Fraction = ZERO
    best: bool = False
    days_survived: int | None = None
    subjective: Fraction | None = None
    # verbal warnings (устные предупреждения), apart from the remarks: only where the regulation has them
    # (``Ruleset.verbal_warnings``); none of the four makes a count of them cost anything (docs/rules/game.md)
    warnings: int = 0

    @property
    def effective_side(self) -> Side:
        if self.side is not None:
            return self.side
        return ROLE_SIDE.get(self.role, Side.RED)


@dataclass(frozen=True)
class Circle:
    """One speech circle's marks (zvezdy): seats named best and worst."""

    best: tuple[int, ...] = ()
    worst: tuple[int, ...] = ()


@dataclass(frozen=True)
class Protest:
    seat: int
    text: str
    lodged_at: str | None = None
    decision: ProtestDecision | None = None
    decided_by: str | None = None
    # Keys the schema allows beyond these, kept as (key, JSON text) so nothing is lost.
    other: tuple[tuple[str, str], ...] = ()


LOG_KINDS = ("nominated", "votes", "voted_out", "killed", "removed", "don_check", "sheriff_check", "heal", "shot")


@dataclass(frozen=True)
class LogEvent:
    """One entry of the judge's game log (optional): ``phase`` counts days and nights (day N is 2N − 1, night N
    is 2N); ``seat`` the seat it concerns, ``count`` the votes of a ``votes`` entry. A ``shot`` is a night's shot at
    ``seat`` by the seat ``by``, or, without ``by``, by every black player at the table (the mafia agreed)."""

    kind: str
    phase: int
    seat: int | None = None
    count: int | None = None
    by: int | None = None


class AwardRule(StrEnum):
    """Who a regulation's "win awarded" names (``Ruleset.win_awards``): ``against`` the seats that broke the rule (one
    side; the other side wins), ``against_removed`` one removed seat (it spoke or gestured after its removal; the
    other side wins), or ``judge`` nobody (the judge awards the result as they decide, either side)."""

    AGAINST = "against"
    AGAINST_REMOVED = "against_removed"
    JUDGE = "judge"


@dataclass(frozen=True)
class AwardedWin:
    """The game's result was awarded, not played out: the regulation's ``reason`` and the ``seats`` that caused it."""

    reason: str
    seats: tuple[int, ...] = ()


@dataclass(frozen=True)
class Game:
    """One table of one round (docs/rules/game.md). ``winner is None``: no result, counts for nothing."""

    table: int
    seats: tuple[Seat, ...]
    winner: Side | None
    first_killed: int | None = None
    best_move: tuple[int, ...] = ()
    circles: tuple[Circle, ...] = ()
    mafia_missed_three_nights: bool = False
    judge: str | None = None
    notes: str | None = None
    protests: tuple[Protest, ...] = ()
    log: tuple[LogEvent, ...] = ()
    awarded: AwardedWin | None = None

    @property
    def has_result(self) -> bool:
        return self.winner is not None

    def seat_at(self, number: int) -> Seat | None:
        for seat in self.seats:
            if seat.seat == number:
                return seat
        return None

    def won(self, seat: Seat) -> bool:
        return self.winner is not None and seat.effective_side == self.winner


@dataclass(frozen=True)
class Penalty:
    player: str
    points: Fraction
    reason: str | None = None


@dataclass(frozen=True)
class Round:
    number: int
    games: tuple[Game, ...]
    seating: SeatingMethod | None = None
    byes: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()
    penalties: tuple[Penalty, ...] = ()


@dataclass(frozen=True)
class Advance:
    """How many go on: ``top`` N overall, or ``per_game`` K (docs/rules/tournament.md)."""

    mode: str  # "top" or "per_game"
    count: int


@dataclass(frozen=True)
class Stage:
    id: str
    rounds: tuple[Round, ...]
    name: str | None = None
    kind: StageKind | None = None  # as written; ``Tournament.stage_kind`` resolves it
    players: tuple[str, ...] | None = None
    advance: Advance | None = None
    reset: bool | None = None
    multiplier: Fraction | None = None
    lots: tuple[str, ...] | None = None

    def participants(self) -> list[str]:
        """The stage's players: its list plus anyone seated, on a bye or absent in its rounds."""
        seen: dict[str, None] = dict.fromkeys(self.players or ())
        for round_ in self.rounds:
            for game in round_.games:
                for seat in game.seats:
                    seen.setdefault(seat.player)
            for player in (*round_.byes, *round_.absent):
                seen.setdefault(player)
        return list(seen)


@dataclass(frozen=True)
class Player:
    id: str
    name: str
    nickname: str | None = None
    team: str | None = None
    guest: bool = False


@dataclass(frozen=True)
class Team:
    id: str
    name: str


def kind_at(kind: StageKind | None, index: int, stages: int) -> StageKind:
    """A stage's kind as written, or from its place among ``stages``: the first is qualifying, the last of several
    final, any other a semifinal (``Tournament.stage_kind``; also read from database rows where no model is built)."""
    if kind is not None and kind is not StageKind.OTHER:
        return kind
    if index == 0:
        return StageKind.QUALIFYING
    if index == stages - 1:
        return StageKind.FINAL
    return StageKind.SEMIFINAL


@dataclass(frozen=True)
class TournamentInfo:
    name: str | None = None
    city: str | None = None
    venue: str | None = None
    starts: str | None = None
    ends: str | None = None
    standings_hidden: bool | None = None
    other: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Tournament:
    ruleset: str
    players: tuple[Player, ...]
    stages: tuple[Stage, ...]
    # The organizer's parameter overrides exactly as written (name, JSON text), parsed by the ruleset.
    params: tuple[tuple[str, str], ...] | None = None
    info: TournamentInfo | None = None
    teams: tuple[Team, ...] | None = None
    format: str = "mafia-tournament/1"
    _index: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)

    def stage_index(self, stage_id: str) -> int:
        if not self._index:
            self._index.update({stage.id: i for i, stage in enumerate(self.stages)})
        return self._index[stage_id]

    def stage(self, stage_id: str) -> Stage:
        return self.stages[self.stage_index(stage_id)]

    def stage_kind(self, stage: Stage) -> StageKind:
        """The kind as written, or from the position: first is qualifying, last of several final."""
        return kind_at(stage.kind, self.stage_index(stage.id), len(self.stages))

    def players_by_id(self) -> dict[str, Player]:
        return {player.id: player for player in self.players}

    def seated_in_play(self, stage_id: str) -> list[str]:
        """The players seated at a table of ``stage_id`` still in play: the file's ``tournament.tables_in_play``
        (docs/tournament-file.md), in round, table and seat order; malformed entries ignored (the import checks
        them)."""
        text = dict(self.info.other).get(TABLES_IN_PLAY_KEY) if self.info is not None else None
        tables = json.loads(text) if text is not None else []
        if not isinstance(tables, list):
            return []
        out: dict[str, None] = {}
        for table in tables:
            if (not isinstance(table, dict) or table.get("stage") != stage_id
                    or not isinstance(table.get("seats"), list)):
                continue
            for seat in table["seats"]:
                if isinstance(seat, dict) and isinstance(seat.get("player"), str):
                    out.setdefault(seat["player"])
        return list(out)

    def stage_participants(self, stage: Stage) -> list[str]:
        """``stage.participants()`` and the players seated at its tables still in play (``seated_in_play``): with
        round 1 in play, every seated player is on the standings, with 0 games until their table has a result."""
        found = dict.fromkeys(stage.participants())
        in_play = self.seated_in_play(stage.id)
        if in_play:
            known = self.players_by_id()
            for player in in_play:
                if player in known:
                    found.setdefault(player)
        return list(found)

    def disqualified(self) -> dict[str, str]:
        """Player → reason of everyone disqualified from the tournament: the file's
        ``tournament.disqualifications`` (docs/tournament-file.md), entries without a player id ignored."""
        text = dict(self.info.other).get(DISQUALIFICATIONS_KEY) if self.info is not None else None
        entries = json.loads(text) if text is not None else []
        if not isinstance(entries, list):
            return {}
        return {entry["player"]: str(entry.get("reason") or "") for entry in entries
                if isinstance(entry, dict) and isinstance(entry.get("player"), str)}
