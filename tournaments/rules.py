"""The tournament's ruleset from ``scoring``, with the organizer's parameter overrides applied."""

from __future__ import annotations

from scoring.rulesets import Ruleset, get_ruleset

from .models import Tournament


def ruleset_for(tournament: Tournament) -> Ruleset:
    return get_ruleset(tournament.ruleset).with_overrides(tournament.params or {})


# Regulations where players apply and the organizer accepts or rejects (kostroma, annex 1.1).
APPLICATION_RULESETS = frozenset({"kostroma"})


def uses_applications(tournament: Tournament) -> bool:
    return tournament.ruleset in APPLICATION_RULESETS


# The most players of one team, where the regulation sets a team's size (tomsk 4.5: teams of 12).
TEAM_SIZES = {"tomsk": 12}


def team_size_limit(tournament: Tournament) -> int | None:
    return TEAM_SIZES.get(tournament.ruleset)
