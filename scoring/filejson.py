"""The tournament file's JSON and the model, both ways: ``from_json`` builds the model from schema-valid JSON,
``dump`` writes the model back in a canonical form (defaults left out), so that ``load(dump(t)) == t`` and
``dump(load(dump(t))) == dump(t)`` (``fileio`` reads, checks and loads; docs/tournament-file.md)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .model import (
    ZERO,
    Advance,
    AwardedWin,
    Circle,
    Game,
    LogEvent,
    Penalty,
    Player,
    Protest,
    ProtestDecision,
    Role,
    Round,
    Seat,
    SeatingMethod,
    Side,
    Stage,
    StageKind,
    Team,
    Tournament,
    TournamentInfo,
)
from .numbers import known_fraction, to_file_number, to_fraction, to_json_number

FORMAT = "mafia-tournament/1"
JSON = Any  # parsed JSON: dicts, lists, str, int, float, bool, None


# --- JSON → model ---------------------------------------------------------------------------------


def from_json(data: Mapping[str, JSON]) -> Tournament:
    """Build the model from schema-valid JSON (no rule checks)."""
    info = data.get("tournament")
    teams = data.get("teams")
    params = data.get("params")
    return Tournament(
        format=data["format"],
        ruleset=data["ruleset"],
        params=None if params is None else tuple((k, json.dumps(v)) for k, v in params.items()),
        info=None if info is None else _info(info),
        teams=None if teams is None else tuple(Team(t["id"], t["name"]) for t in teams),
        players=tuple(_player(p) for p in data["players"]),
        stages=tuple(_stage(s) for s in data["stages"]),
    )


INFO_FIELDS = ("name", "city", "venue", "starts", "ends", "standings_hidden")


def _info(info: Mapping[str, JSON]) -> TournamentInfo:
    other = tuple((k, json.dumps(v)) for k, v in info.items() if k not in INFO_FIELDS)
    return TournamentInfo(**{k: info[k] for k in INFO_FIELDS if k in info}, other=other)


def _player(p: Mapping[str, JSON]) -> Player:
    return Player(p["id"], p["name"], p.get("nickname"), p.get("team"), bool(p.get("guest", False)))


def _stage(s: Mapping[str, JSON]) -> Stage:
    advance = s.get("advance")
    multiplier = s.get("multiplier")
    players, lots = s.get("players"), s.get("lots")
    return Stage(
        id=s["id"],
        name=s.get("name"),
        kind=StageKind(s["kind"]) if "kind" in s else None,
        players=None if players is None else tuple(players),
        advance=None if advance is None else Advance(*next(iter(advance.items()))),
        reset=s.get("reset"),
        multiplier=None if multiplier is None else to_fraction(multiplier),
        lots=None if lots is None else tuple(lots),
        rounds=tuple(_round(r) for r in s["rounds"]),
    )


def _round(r: Mapping[str, JSON]) -> Round:
    return Round(
        number=r["number"],
        seating=SeatingMethod(r["seating"]) if "seating" in r else None,
        games=tuple(_game(g) for g in r["games"]),
        byes=tuple(r.get("byes", ())),
        absent=tuple(r.get("absent", ())),
        penalties=tuple(Penalty(p["player"], to_fraction(p["points"]), p.get("reason"))
                        for p in r.get("penalties", ())),
    )


def _game(g: Mapping[str, JSON]) -> Game:
    winner = g["winner"]
    return Game(
        table=g["table"],
        winner=None if winner is None else Side(winner),
        seats=tuple(_seat(s) for s in g["seats"]),
        first_killed=g.get("first_killed"),
        best_move=tuple(g.get("best_move", ())),
        circles=tuple(Circle(tuple(c.get("best", ())), tuple(c.get("worst", ()))) for c in g.get("circles", ())),
        mafia_missed_three_nights=bool(g.get("mafia_missed_three_nights", False)),
        judge=g.get("judge"),
        notes=g.get("notes"),
        protests=tuple(_protest(p) for p in g.get("protests", ())),
        log=tuple(LogEvent(e["kind"], e["phase"], e.get("seat"), e.get("count"), e.get("by"))
                  for e in g.get("log", ())),
        awarded=_awarded(g["awarded"]) if "awarded" in g else None,
    )


def _awarded(a: Mapping[str, JSON]) -> AwardedWin:
    return AwardedWin(a["reason"], tuple(a.get("seats", ())))


PROTEST_FIELDS = ("seat", "text", "lodged_at", "decision", "decided_by")


def _protest(p: Mapping[str, JSON]) -> Protest:
    decision = p.get("decision")
    return Protest(
        seat=p["seat"],
        text=p["text"],
        lodged_at=p.get("lodged_at"),
        decision=None if decision is None else ProtestDecision(decision),
        decided_by=p.get("decided_by"),
        other=tuple((k, json.dumps(v)) for k, v in p.items() if k not in PROTEST_FIELDS),
    )


# The members by value, looked up once a seat (``Role(value)`` costs a function call through the enum's machinery).
_ROLES = {role.value: role for role in Role}


def _seat(s: Mapping[str, JSON]) -> Seat:
    side = s.get("side")
    subjective = s.get("subjective")
    try:
        role = _ROLES[s["role"]]
    except (KeyError, TypeError):
        role = Role(s["role"])  # not a role: the enum's own error
    return Seat(
        seat=s["seat"],
        player=s["player"],
        role=role,
        side=None if side is None else Side(side),
        fouls=s.get("fouls", 0),
        removed=bool(s.get("removed", False)),
        extra=known_fraction(s["extra"]) if "extra" in s else ZERO,
        best=bool(s.get("best", False)),
        days_survived=s.get("days_survived"),
        subjective=None if subjective is None else known_fraction(subjective),
        warnings=s.get("warnings", 0),
    )


# --- model → JSON ---------------------------------------------------------------------------------


def dump(t: Tournament) -> dict[str, JSON]:
    """The tournament file of ``t``, canonical: optional fields at their default are left out."""
    out: dict[str, JSON] = {"format": t.format, "ruleset": t.ruleset}
    if t.params is not None:
        out["params"] = {name: json.loads(text) for name, text in t.params}
    if t.info is not None:
        info: dict[str, JSON] = {k: getattr(t.info, k) for k in INFO_FIELDS if getattr(t.info, k) is not None}
        info.update({k: json.loads(v) for k, v in t.info.other})
        out["tournament"] = info
    if t.teams is not None:
        out["teams"] = [{"id": team.id, "name": team.name} for team in t.teams]
    out["players"] = [_dump_player(p) for p in t.players]
    out["stages"] = [_dump_stage(s) for s in t.stages]
    return out


def dumps(t: Tournament) -> str:
    return json.dumps(dump(t), ensure_ascii=False, indent=1)


def _dump_player(p: Player) -> dict[str, JSON]:
    out: dict[str, JSON] = {"id": p.id, "name": p.name}
    if p.nickname is not None:
        out["nickname"] = p.nickname
    if p.team is not None:
        out["team"] = p.team
    if p.guest:
        out["guest"] = True
    return out


def _dump_stage(s: Stage) -> dict[str, JSON]:
    out: dict[str, JSON] = {"id": s.id}
    if s.name is not None:
        out["name"] = s.name
    if s.kind is not None:
        out["kind"] = s.kind.value
    if s.players is not None:
        out["players"] = list(s.players)
    if s.advance is not None:
        out["advance"] = {s.advance.mode: s.advance.count}
    if s.reset is not None:
        out["reset"] = s.reset
    if s.multiplier is not None:
        out["multiplier"] = to_json_number(s.multiplier)
    if s.lots is not None:
        out["lots"] = list(s.lots)
    out["rounds"] = [_dump_round(r) for r in s.rounds]
    return out


def _dump_round(r: Round) -> dict[str, JSON]:
    out: dict[str, JSON] = {"number": r.number}
    if r.seating is not None:
        out["seating"] = r.seating.value
    out["games"] = [_dump_game(g) for g in r.games]
    if r.byes:
        out["byes"] = list(r.byes)
    if r.absent:
        out["absent"] = list(r.absent)
    if r.penalties:
        out["penalties"] = [_dump_penalty(p) for p in r.penalties]
    return out


def _dump_penalty(p: Penalty) -> dict[str, JSON]:
    out: dict[str, JSON] = {"player": p.player, "points": to_file_number(p.points)}
    if p.reason is not None:
        out["reason"] = p.reason
    return out


def _dump_game(g: Game) -> dict[str, JSON]:
    out: dict[str, JSON] = {
        "table": g.table,
        "winner": None if g.winner is None else g.winner.value,
        "seats": [_dump_seat(s) for s in g.seats],
    }
    if g.first_killed is not None:
        out["first_killed"] = g.first_killed
    if g.best_move:
        out["best_move"] = list(g.best_move)
    if g.circles:
        out["circles"] = [_dump_circle(c) for c in g.circles]
    if g.mafia_missed_three_nights:
        out["mafia_missed_three_nights"] = True
    if g.judge is not None:
        out["judge"] = g.judge
    if g.notes is not None:
        out["notes"] = g.notes
    if g.protests:
        out["protests"] = [_dump_protest(p) for p in g.protests]
    if g.log:
        out["log"] = [_dump_event(e) for e in g.log]
    if g.awarded is not None:
        awarded: dict[str, JSON] = {"reason": g.awarded.reason}
        if g.awarded.seats:
            awarded["seats"] = list(g.awarded.seats)
        out["awarded"] = awarded
    return out


def _dump_event(e: LogEvent) -> dict[str, JSON]:
    out: dict[str, JSON] = {"kind": e.kind, "phase": e.phase}
    if e.seat is not None:
        out["seat"] = e.seat
    if e.count is not None:
        out["count"] = e.count
    if e.by is not None:
        out["by"] = e.by
    return out


def _dump_circle(c: Circle) -> dict[str, JSON]:
    out: dict[str, JSON] = {}
    if c.best:
        out["best"] = list(c.best)
    if c.worst:
        out["worst"] = list(c.worst)
    return out


def _dump_protest(p: Protest) -> dict[str, JSON]:
    out: dict[str, JSON] = {"seat": p.seat, "text": p.text}
    if p.lodged_at is not None:
        out["lodged_at"] = p.lodged_at
    if p.decision is not None:
        out["decision"] = p.decision.value
    if p.decided_by is not None:
        out["decided_by"] = p.decided_by
    out.update({k: json.loads(v) for k, v in p.other})
    return out


def _dump_seat(s: Seat) -> dict[str, JSON]:
    out: dict[str, JSON] = {"seat": s.seat, "player": s.player, "role": s.role.value}
    if s.side is not None:
        out["side"] = s.side.value
    if s.fouls:
        out["fouls"] = s.fouls
    if s.removed:
        out["removed"] = True
    if s.extra:
        out["extra"] = to_file_number(s.extra)
    if s.best:
        out["best"] = True
    if s.days_survived is not None:
        out["days_survived"] = s.days_survived
    if s.subjective is not None:
        out["subjective"] = to_file_number(s.subjective)
    if s.warnings:
        out["warnings"] = s.warnings
    return out
