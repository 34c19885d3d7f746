"""mafiaratings.com's game JSON (docs/formats/mafiaratings.md): a tournament as the list of its games, as
``api/get/games.php?tournament_id=…`` answers it (szotin/mafiaratings, ``include/game.php`` ``Game::api_help``).

A whole-game format: each player's death (round and type), warnings, the don's and the sheriff's checks,
nominations, votes and shots. Its deaths and checks become our ``Game.log``; first kill and the mafia's missed
nights are derived from that log through ``scoring.gamelog``, as the judge's screen derives them.
"""

from __future__ import annotations

import json

from ...model import Tournament
from ..base import Exported, Imported, Platform, register
from .codes import ENVELOPE_KEYS, NAME, SOURCE
from .reading import read_game, read_games
from .tournament import Placed, assemble, names_apart, player_ids, tournament_losses
from .writing import game_json, reductions, with_ids


@register
class MafiaRatings(Platform):
    """mafiaratings.com: the games of a tournament as its API lists them, each a whole game."""

    name = NAME
    title = "mafiaratings.com"
    source = SOURCE

    def export(self, tournament: Tournament) -> Exported:
        tournament, namesakes = names_apart(tournament, NAME)
        written, lost = reductions(tournament)
        players = tournament.players_by_id()
        games = [game_json(order, number, reduced, players) for order, _, number, reduced in written]
        ids = player_ids(tournament, NAME)
        kept_players = {s.player for _, _, _, r in written for s in r.game.seats}
        lost = namesakes + tournament_losses(tournament, NAME, kept_players) + lost
        lost += [f"stage {stage.id}: its id (read back as event-{order}, the stage's place)"
                 for order, stage in {o: s for o, s, _, _ in written}.items() if stage.id != f"event-{order}"]
        lost += [f"player {pid}: its id (read back as {new}, from the name)" for pid, new in ids.items()
                 if pid != new and pid in kept_players]
        document = {"count": len(games), "games": games}
        return Exported(json.dumps(document, ensure_ascii=False, indent=1), tuple(lost))

    def read(self, text: str, *, ruleset: str | None = None) -> Imported:
        return read_games(text, ruleset or self.default_ruleset, NAME, ENVELOPE_KEYS, read_game)

    def kept(self, tournament: Tournament) -> Tournament:
        tournament, _ = names_apart(tournament, NAME)
        written, _ = reductions(tournament)
        ids = player_ids(tournament, NAME)
        names = {ids[p.id]: p.name for p in tournament.players}
        placed = [Placed(order, f"event-{order}", number, with_ids(reduced.game, ids))
                  for order, _, number, reduced in written]
        return assemble(tournament.ruleset, placed, names)
