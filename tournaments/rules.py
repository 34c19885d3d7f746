"""The tournament's ruleset from ``scoring``, with the organizer's parameter overrides applied."""

from __future__ import annotations

from scoring.rulesets import Ruleset, get_ruleset

from .models import Tournament


def ruleset_for(tournament: Tournament) -> Ruleset:
    return get_ruleset(tournament.ruleset).with_overrides(tournament.params or {})
