"""When a final is over, and the winners the pages name from then on: one reading for the organizer's standings,
the public pages and the results documents (the organizer's final standings named nobody while the public page
named the winners).

A round is played when it has games, none of its tables is still in play and every game has a result; the final is
over when it is closed, or all its rounds (as planned, else as the regulation says) are published and played.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from scoring import model as m
from scoring.rulesets import Ruleset
from scoring.standings import Standings
from tournaments.models import Stage


def tables_in_play(model: m.Tournament) -> list[dict[str, Any]]:
    """The tables the model's file lists as still in play (``tables_in_play``) that name their stage and round;
    malformed entries ignored (the import checks them)."""
    text = dict(model.info.other).get(m.TABLES_IN_PLAY_KEY) if model.info is not None else None
    tables = json.loads(text) if text is not None else []
    return [t for t in tables if isinstance(t, dict) and isinstance(t.get("stage"), str)
            and isinstance(t.get("round"), int)] if isinstance(tables, list) else []


def rounds_in_play(model: m.Tournament) -> set[tuple[str, int]]:
    """(stage, round) of every table the model's file lists as still in play."""
    return {(t["stage"], t["round"]) for t in tables_in_play(model)}


def round_played(games: Sequence[m.Game], in_play: bool) -> bool:
    return bool(games) and not in_play and all(game.has_result for game in games)


def final_over(stage: Stage, ruleset: Ruleset, played: Sequence[bool]) -> bool:
    """Whether the final ``stage`` is over; ``played``: whether each of its published rounds is played."""
    if stage.closed:
        return True
    planned = stage.planned_rounds or ruleset.stage_format(m.StageKind.FINAL).rounds
    return len(played) >= planned and all(played)


def final_over_in(model: m.Tournament, stage: Stage, ruleset: Ruleset) -> bool:
    """``final_over`` from the model alone (its rounds are the published ones): no query."""
    in_play = rounds_in_play(model)
    rounds = model.stage(stage.ext_id).rounds
    return final_over(stage, ruleset, [round_played(r.games, (stage.ext_id, r.number) in in_play) for r in rounds])


def named_winners(standings: Standings, over: bool) -> tuple[str, ...] | None:
    """The winners the pages and documents name: the engine's, of a final that is over; None otherwise."""
    if standings.kind is not m.StageKind.FINAL or standings.winners is None or not over:
        return None
    return tuple(standings.winners)
