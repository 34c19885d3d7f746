"""The tournament file's players and the player registry (docs/registry.md): which of them are players the
registry has already. The import page shows every match and imports once the organizer has answered each
(``choose``); ``import_tournament --match-players`` takes the exact matches alone (``exact_players``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from scoring.errors import InvalidTournament, Location, Problem
from tournaments.models import Player
from tournaments.services.registry import Match, Typed, Verdict, answer, match_many

from .writing import split_name

if TYPE_CHECKING:
    from collections.abc import Mapping

    from django.http import QueryDict

    from scoring import model as m


@dataclass
class FileRow:
    """One player of the file, the registry's players they may be and the organizer's answer."""

    player: m.Player
    match: Match
    choice: str = ""
    chosen: Player | None = None
    errors: list[str] = field(default_factory=list)

    @property
    def line(self) -> str:
        return self.player.id

    @property
    def choice_name(self) -> str:
        return f"player-{self.player.id}"

    @property
    def selected(self) -> str:
        if self.choice:
            return self.choice
        proposed = self.match.proposed
        return str(proposed.player.pk) if proposed else ""


def typed(player: m.Player) -> Typed:
    """A file player as the registry compares them: the name split as the import stores it, no club."""
    surname, rest = split_name(player.name)
    return Typed(surname, rest, "", player.nickname or "")


def file_rows(model: m.Tournament) -> list[FileRow]:
    """Every file player with their matches: one query for the whole file."""
    return [FileRow(p, match) for p, match in zip(model.players, match_many([typed(p) for p in model.players]),
                                                  strict=True)]


def choose(rows: list[FileRow], data: QueryDict) -> list[str]:
    """Reads the answers (``player-ID``) of the matched rows; the problems, each naming the file player."""
    problems: list[str] = []
    taken: dict[int, str | int] = {}
    for row in rows:
        if not row.match.candidates:
            continue
        row.choice = data.get(row.choice_name, "")
        answered, player = answer(row.choice, row.match)
        name = f"{row.player.id} ({row.player.name})"
        if not answered:
            problems.append(_("%(player)s: choose whether this is one of the players found or a new player.")
                            % {"player": name})
        elif player is not None and player.pk in taken:
            problems.append(_("%(first)s and %(player)s are both %(name)s; a player plays a tournament once.")
                            % {"first": taken[player.pk], "player": name, "name": player.display_name})
        elif player is not None:
            taken[player.pk] = name
            row.chosen = player
    return problems


def chosen(rows: list[FileRow]) -> dict[str, int]:
    """The registry's player id of each file player answered as one."""
    return {row.player.id: row.chosen.pk for row in rows if row.chosen is not None}


def still_there(ids: Mapping[str, int]) -> dict[str, Player]:
    """The players chosen, locked for the import; one merged or deleted since the answer refuses it."""
    players = Player.objects.select_for_update().in_bulk(set(ids.values()))
    gone = sorted(pid for pid, pk in ids.items() if pk not in players)
    if gone:
        raise InvalidTournament([Problem(Location(), _(
            "The registry's player chosen for %(players)s is gone (merged or deleted meanwhile); import the file "
            "again.") % {"players": ", ".join(gone)})])
    return {pid: players[pk] for pid, pk in ids.items()}


def exact_players(model: m.Tournament) -> dict[str, Player]:
    """The file players who are exactly one player of the registry (``--match-players``); ambiguous ones and two
    file players matching one registry player stay new players."""
    rows = file_rows(model)
    counts: dict[int, int] = {}
    for row in rows:
        if row.match.verdict == Verdict.EXISTING and row.match.proposed:
            counts[row.match.proposed.player.pk] = counts.get(row.match.proposed.player.pk, 0) + 1
    return {row.player.id: row.match.proposed.player for row in rows
            if row.match.verdict == Verdict.EXISTING and row.match.proposed
            and counts[row.match.proposed.player.pk] == 1}
