"""A player's page (every game with its points broken down, byes, absences, totals per stage)
and a game's page (its protocol, once public)."""

from __future__ import annotations

from typing import Any

from django.http import Http404

from games.words import awarded_words, event_words
from scoring import model as m
from tournaments.labels import PROTEST_DECISIONS, ROLES, SIDES, part_label, short_of_games_note

from ..explanations import needs_of, why_ranked
from ..snapshot import Snapshot, protocol_is_public
from .base import PublicTournamentView


def seat_points(snapshot: Snapshot, stage: str, round_: int, table: int, player: str) -> dict[str, Any] | None:
    if snapshot.hidden:
        return None
    scored = snapshot.scored_seat(stage, round_, table, player)
    if scored is None:
        return None
    parts = [(part_label(name), value) for name, value in scored.points.parts().items()]
    return {"parts": parts, "multiplier": scored.multiplier, "total": scored.total}


def result_of(game: m.Game, seat: m.Seat) -> str:
    if not protocol_is_public(game):
        return "pending"
    return "won" if game.won(seat) else "lost"


class PlayerView(PublicTournamentView):
    page_template = "public/page.html"
    fragment_template = "public/player.html"
    live = True

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        snapshot, pid = self.snapshot, kwargs["player"]
        player = snapshot.players.get(pid)
        if player is None:
            raise Http404(pid)
        params = snapshot.ruleset.params
        seated = snapshot.seated_in_play(pid)  # the tables of a round in play: no result yet
        played_by = snapshot.games_of(pid)
        stages = []
        for stage in snapshot.stages:
            entries = []
            for round_ in sorted(snapshot.model_stage(stage.ext_id).rounds, key=lambda r: r.number):
                for table, seat_number in seated.get((stage.ext_id, round_.number), []):
                    entries.append({"round": round_.number, "kind": "game", "table": table,
                                    "seat": seat_number, "role": None, "result": "pending", "points": None})
                for game, seat in played_by.get((stage.ext_id, round_.number), ()):
                    public = protocol_is_public(game)
                    entries.append({
                        "round": round_.number, "kind": "game", "table": game.table, "seat": seat.seat,
                        "role": ROLES[seat.role] if public else None, "result": result_of(game, seat),
                        "points": seat_points(snapshot, stage.ext_id, round_.number, game.table, pid)
                        if public else None,
                    })
                if pid in round_.byes:
                    entries.append({"round": round_.number, "kind": "bye", "value": params.bye_points})
                if pid in round_.absent:
                    entries.append({"round": round_.number, "kind": "absent", "value": params.absence_points})
                for penalty in round_.penalties:
                    if penalty.player == pid:
                        entries.append({"round": round_.number, "kind": "penalty", "value": penalty.points,
                                        "reason": penalty.reason})
            if not entries:
                continue
            total = None
            if not snapshot.hidden and not player.guest:
                total = snapshot.totals(stage.ext_id).get(pid)
            if total is not None and total.get("short"):  # the note in the reader's language (the cache has none)
                total = {**total, "short_note": short_of_games_note(total["short"])}
            answers = needs_of(snapshot, stage) if total is not None else None
            # "Why am I ranked here?" is loaded when opened (PlayerWhyView): it needs the stage's whole standings,
            # which each worker would compute for its first player's page of every results version
            stages.append({"stage": stage, "entries": entries, "total": total,
                           "why": total is not None and not snapshot.hidden,
                           "need": answers.get(pid) if answers else None})
        return {"player": player, "number": snapshot.numbers.get(pid), "stages": stages}


class PlayerWhyView(PublicTournamentView):
    """"Why am I ranked here?" of one player in one stage: what the player's page loads when its reader opens the
    section (or, without scripts, a page of its own)."""

    page_template = "public/page.html"
    fragment_template = "public/player_why.html"

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        snapshot, pid = self.snapshot, kwargs["player"]
        player = snapshot.players.get(pid)
        if player is None:
            raise Http404(pid)
        stage = snapshot.stage(kwargs["stage"])
        return {"player": player, "stage": stage, "why": why_ranked(snapshot, stage, pid)}


class GameView(PublicTournamentView):
    page_template = "public/page.html"
    fragment_template = "public/game.html"
    live = True

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        snapshot = self.snapshot
        stage = snapshot.stage(kwargs["stage"])
        rounds = [r for r in snapshot.model_stage(stage.ext_id).rounds if r.number == kwargs["number"]]
        game = next((g for r in rounds for g in r.games if g.table == kwargs["table"]), None)
        if game is None or not protocol_is_public(game):
            raise Http404("no public protocol")
        # While the standings are hidden, the judges' marks go too: with the winner and the roles they
        # would give each seat's points away (a zvezdy circle mark or a fiim extra point decides a close race).
        marks = not snapshot.hidden
        seats = [{
            "seat": s.seat, "player": s.player, "name": snapshot.name(s.player),
            "role": ROLES[s.role], "black": s.effective_side is not m.Side.RED, "fouls": s.fouls,
            "removed": snapshot.ruleset.is_removed(s), "best": marks and s.best, "extra": s.extra if marks else 0,
            "days": s.days_survived, "subjective": s.subjective if marks else None, "won": game.won(s),
            "first_killed": game.first_killed == s.seat, "warnings": s.warnings,
            "points": seat_points(snapshot, stage.ext_id, kwargs["number"], game.table, s.player),
        } for s in sorted(game.seats, key=lambda s: s.seat)]
        circles = [{"number": i, "best": c.best, "worst": c.worst}
                   for i, c in enumerate(game.circles, start=1)] if marks else []
        protests = [{
            "seat": p.seat, "text": p.text, "lodged_at": p.lodged_at, "decided_by": p.decided_by,
            "decision": PROTEST_DECISIONS[p.decision] if p.decision else None,
        } for p in game.protests]
        return {
            "stage": stage, "number": kwargs["number"], "game": game, "seats": seats, "circles": circles,
            "protests": protests, "winner": SIDES[game.winner] if game.winner else None,
            "best_move": ", ".join(str(n) for n in game.best_move) if marks else "",
            "marks_hidden": not marks,
            "awarded": awarded_words({"reason": game.awarded.reason, "seats": list(game.awarded.seats)},
                                     str(SIDES[game.winner]) if game.winner else "") if game.awarded else "",
            # the judge's game log (the protocol is public only after the game): facts everyone at the table saw
            "log": [event_words(e.kind, e.phase, e.seat, e.count, {s.seat: s.role.value for s in game.seats},
                                {s.seat: s.effective_side.value for s in game.seats}, e.by) for e in game.log],
        }
