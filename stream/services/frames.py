"""What one table looks like to the stream, as a "frame" (docs/stream-overlay.md), and which table that is.

A frame is a small JSON-able dict built from the table's protocol and the judge's game log: the players with their
numbers, who is out and how, fouls, who is speaking, the day's nominations and votes, the last events and the
result. The roles (and the night's checks and heals, which would give them away) are in it only when the organizer
shows them to the stream. Frames carry codes and numbers, never words: the overlay page says them in its own
language. A frame is for a table *number*: the overlay follows that number from round to round (``current_table``).
"""

from __future__ import annotations

from typing import Any

from games.models import Game, GameState
from games.services.stream import speaker
from games.words import check_found
from scoring.model import ROLE_SIDE, Role, Side
from tournaments.models import Round, Seat, Table
from tournaments.models.rounds import RoundState

from ..models import StreamOverlay

FORMAT = 1  # the frame's layout; the page ignores a frame of another
LOOK_BACK_ROUNDS = 4  # the rounds searched for the table being played
CHECKS = ("don_check", "sheriff_check", "heal", "shot")  # night events that give roles away
EVENTS_SHOWN = 6


def in_progress(game: Game | None) -> bool:
    """Opened and touched by the judge, no result yet."""
    return game is not None and game.state == GameState.DRAFT and not game.winner and game.version > 1


def current_table(tournament_id: int, number: int) -> Table | None:
    """Table ``number`` of the game being played: the newest published round where it is in progress, else the
    newest published round that has it (the next line-up, or the game just ended)."""
    tables = list(Table.objects.filter(round__stage__tournament_id=tournament_id, number=number,
                                       round__state=RoundState.PUBLISHED)
                  .select_related("round__stage", "game")
                  .order_by("-round__stage__order", "-round__number")[:LOOK_BACK_ROUNDS])
    for table in tables:
        if in_progress(getattr(table, "game", None)):
            return table
    return tables[0] if tables else None


def table_numbers(tournament_id: int) -> list[int]:
    """The table numbers of the newest published round (what the organizer gives links for)."""
    latest = (Round.objects.filter(stage__tournament_id=tournament_id, state=RoundState.PUBLISHED)
              .order_by("-stage__order", "-number").first())
    if latest is None:
        return []
    return list(latest.tables.order_by("number").values_list("number", flat=True))


def display_name(player: Any) -> str:
    return player.nickname or " ".join(part for part in (player.surname, player.first_name) if part)


def build_frame(table: Table | None, overlay: StreamOverlay) -> dict[str, Any] | None:
    """What the stream shows of ``table`` (None: no published round has that table)."""
    if table is None:
        return None
    game: Game | None = getattr(table, "game", None)
    rows = list(Seat.objects.filter(table=table).select_related("participant__player", "result")
                .order_by("number"))
    phase = game.phase if game is not None else 1
    ended = bool(game and game.winner)
    events: list[dict[str, Any]] = list(game.log) if game is not None else []
    roles = {row.number: getattr(getattr(row, "result", None), "role", "") for row in rows}
    sides = {row.number: getattr(getattr(row, "result", None), "side", "") for row in rows}  # chosen, if any
    talking = speaker(game) if game is not None and not ended and phase % 2 == 1 else None
    seats = []
    for row in rows:
        result = getattr(row, "result", None)
        out = result.left if result is not None else ""
        seat: dict[str, Any] = {
            "n": row.number, "name": display_name(row.participant.player),
            "out": out, "when": result.left_number if result is not None and out else None,
            "fouls": result.fouls if result is not None else 0,
        }
        role = seat["role"] = roles.get(row.number, "")
        seat["side"] = sides[row.number] or (str(ROLE_SIDE.get(Role(role), Side.RED)) if role else "")
        seats.append(seat)
    day = [e for e in events if e.get("phase") == phase and e["kind"] in ("nominated", "votes")] \
        if phase % 2 == 1 else []
    shown = [dict(e) for e in events]
    for event in shown:
        if event["kind"] in ("don_check", "sheriff_check"):  # the same answer as the judge's log says
            seat_number = event.get("seat", 0)
            event["found"] = check_found(event["kind"], roles.get(seat_number, ""), sides.get(seat_number, ""))
    frame: dict[str, Any] = {
        "format": FORMAT, "tournament": table.round.stage.tournament_id, "table": table.number,
        "round": table.round.number, "stage": table.round.stage.name,
        "stage_kind": table.round.stage.kind, "phase": phase,
        "started": game is not None and game.version > 1, "winner": game.winner if game is not None else "",
        "ended": ended, "speaking": talking, "seats": seats,
        "nominated": [e["seat"] for e in day if e["kind"] == "nominated" and "seat" in e],
        "votes": [{"seat": e["seat"], "count": e.get("count")} for e in day if e["kind"] == "votes" and "seat" in e],
        "events": shown, "roles": True,
    }
    shown_to_stream = frame if overlay.show_roles else roles_hidden(frame)  # one definition of what roles hide
    return {**shown_to_stream, "events": shown_to_stream["events"][-EVENTS_SHOWN:]}


def without_roles(frame: dict[str, Any] | None) -> dict[str, Any] | None:
    """``frame`` with the roles hidden (``roles_hidden``); None stays None."""
    return None if frame is None else roles_hidden(frame)


def roles_hidden(frame: dict[str, Any]) -> dict[str, Any]:
    """No role or side on a seat, no check or heal (and so no check's answer). What ``build_frame`` gives while the
    roles are off, and what the frames kept or held back become when they are turned off."""
    if not frame.get("roles"):
        return frame
    return {**frame, "roles": False,
            "seats": [{k: v for k, v in seat.items() if k not in ("role", "side")} for seat in frame["seats"]],
            "events": [e for e in frame["events"] if e["kind"] not in CHECKS]}
