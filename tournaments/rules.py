"""The tournament's ruleset from ``scoring``, with the organizer's parameter overrides applied, and the facts of
its regulation the web application enforces (read from the ruleset class)."""

from __future__ import annotations

from fractions import Fraction

from scoring.model import StageKind
from scoring.rulesets import Ruleset, get_ruleset

from .models import Stage, Tournament


def ruleset_for(tournament: Tournament) -> Ruleset:
    """The one way from a tournament's row to its ruleset (the parameters were checked when they were saved)."""
    return get_ruleset(tournament.ruleset).with_overrides(tournament.params or {})


def uses_applications(tournament: Tournament) -> bool:
    return get_ruleset(tournament.ruleset).takes_applications


def team_size_limit(tournament: Tournament) -> int | None:
    return get_ruleset(tournament.ruleset).team_size


def stage_multiplier(stage: Stage, ruleset: Ruleset) -> Fraction:
    """The stage's multiplier, or the ruleset's for its kind (from its position when not given)."""
    if stage.multiplier is not None:
        return Fraction(stage.multiplier)
    if stage.kind and stage.kind != StageKind.OTHER:
        kind = StageKind(stage.kind)
    else:
        orders = sorted(Stage.objects.filter(tournament=stage.tournament_id).values_list("order", flat=True))
        if stage.order == orders[0]:
            kind = StageKind.QUALIFYING
        elif stage.order == orders[-1]:
            kind = StageKind.FINAL
        else:
            kind = StageKind.SEMIFINAL
    return ruleset.multiplier_for(kind)


def protests_enabled(tournament: Tournament) -> bool:
    """Whether the tournament takes protests: the organizer's setting, else the regulation's default."""
    if tournament.protests_enabled is not None:
        return tournament.protests_enabled
    return get_ruleset(tournament.ruleset).protests_by_default
