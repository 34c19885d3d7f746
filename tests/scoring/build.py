"""Small builders for tournament files in tests: a game is its winner plus what differs from usual.

Standard role layouts put the blacks first, so a test reads "seat 1 don, seats 2–3 mafia":
- fiim / zvezdy: 1 don, 2–3 mafia, 4 sheriff, 5–10 civilians;
- kostroma: 1 don, 2–3 mafia, 4 sheriff, 5 doctor, 6–10 civilians;
- tomsk: 1–3 mafia, 4 maniac, 5 sheriff, 6 doctor, 7–12 civilians.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from scoring import fileio
from scoring.model import Tournament
from scoring.standings import Standings, compute_standings

REPOSITORY = Path(__file__).resolve().parents[2]
LAYOUTS = {
    "fiim": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "zvezdy": ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6,
    "kostroma": ["don", "mafia", "mafia", "sheriff", "doctor"] + ["civilian"] * 5,
    "tomsk": ["mafia", "mafia", "mafia", "maniac", "sheriff", "doctor"] + ["civilian"] * 6,
}


def game(ruleset: str, players: Sequence[str], winner: str | None, table: int = 1,
         seats: dict[int, dict[str, Any]] | None = None, **facts: Any) -> dict[str, Any]:
    """A game at ``table`` with ``players`` in seats 1..k in the standard layout of ``ruleset``."""
    layout = LAYOUTS[ruleset]
    assert len(players) == len(layout), f"{ruleset} needs {len(layout)} players"
    out_seats = []
    for number, (player, role) in enumerate(zip(players, layout, strict=True), start=1):
        seat: dict[str, Any] = {"seat": number, "player": player, "role": role}
        if ruleset == "tomsk":
            seat.update(days_survived=1, subjective=0)
        seat.update((seats or {}).get(number, {}))
        out_seats.append(seat)
    return {"table": table, "winner": winner, "seats": out_seats, **facts}


def round_(number: int, games: Iterable[dict[str, Any]], **facts: Any) -> dict[str, Any]:
    return {"number": number, "games": list(games), **facts}


def stage(stage_id: str, rounds: Iterable[dict[str, Any]], **facts: Any) -> dict[str, Any]:
    return {"id": stage_id, "rounds": list(rounds), **facts}


def players(count: int, prefix: str = "p", start: int = 1) -> list[str]:
    return [f"{prefix}{n:02d}" for n in range(start, start + count)]


def tournament(ruleset: str, stages: Iterable[dict[str, Any]], player_ids: Iterable[str] | None = None,
               guests: Iterable[str] = (), **facts: Any) -> dict[str, Any]:
    """A tournament file; players default to everyone named in the stages."""
    stage_list = list(stages)
    ids = list(player_ids) if player_ids is not None else _named(stage_list)
    guest_set = set(guests)
    return {
        "format": "mafia-tournament/1",
        "ruleset": ruleset,
        "players": [{"id": pid, "name": f"Player {pid}", **({"guest": True} if pid in guest_set else {})}
                    for pid in ids],
        "stages": stage_list,
        **facts,
    }


def _named(stages: list[dict[str, Any]]) -> list[str]:
    seen: dict[str, None] = {}
    for s in stages:
        seen.update(dict.fromkeys(s.get("players", [])))
        for r in s["rounds"]:
            for g in r["games"]:
                seen.update(dict.fromkeys(seat["player"] for seat in g["seats"]))
            seen.update(dict.fromkeys(r.get("byes", [])))
            seen.update(dict.fromkeys(r.get("absent", [])))
    return list(seen)


def load(data: dict[str, Any]) -> Tournament:
    return fileio.load(data)


def standings(data: dict[str, Any], stage_id: str | None = None) -> Standings:
    return compute_standings(fileio.load(data), stage_id)


def points(data: dict[str, Any], stage_id: str | None = None) -> dict[str, float]:
    """Player → points as a float (exact for the halves and quarters used in tests)."""
    return {row.player: float(row.points) for row in standings(data, stage_id).rows}


def problems(data: dict[str, Any]) -> list[str]:
    try:
        fileio.load(data)
    except fileio.InvalidTournament as error:
        return [str(problem) for problem in error.problems]
    return []


def run_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin, capture_output=True,
                          text=True, check=False, cwd=REPOSITORY)


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data)
