"""The presets of the new-tournament page: each of the four regulations as written, and the rated-tournament
variants played under their rules (docs/rules/parameters.md, "Options of rated tournaments").

A preset is a regulation plus parameter overrides; the tournament keeps only the regulation and the overrides,
so a preset added here needs nothing else (no migration, nothing in the file).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from .models import RulesetId


@dataclass(frozen=True)
class Preset:
    id: str
    label: Promise | str
    ruleset: str
    overrides: Mapping[str, object] = field(default_factory=dict)
    description: Promise | str = ""


# FIIM-style rated events: a win 1 point, the first-night compensation Ci at 0.4 (B = 40 % of the stage's
# rounds), ties by extra points with best move, then wins, wins as don, wins as sheriff.
FIIM_RATED = Preset(
    "fiim_rated", _("FIIM-style rated tournament"), RulesetId.FIIM,
    {"win_points": 1, "ci_rate": 0.4, "tiebreaks": ["extra_total", "wins", "don_wins", "sheriff_wins"]},
    _("The FIIM regulation with the options rated tournaments use: a win gives 1 point, a red player killed "
      "in the first night of a game the red side lost gets the compensation Ci (rate 0.4), and ties are "
      "broken by extra points with best move, then wins, wins as don and wins as sheriff. Change any of it "
      "below."),
)

PRESETS: dict[str, Preset] = {
    **{ruleset.value: Preset(ruleset.value, ruleset.label, ruleset.value) for ruleset in RulesetId},
    FIIM_RATED.id: FIIM_RATED,
}


def get_preset(preset_id: str | None) -> Preset:
    """The preset of this id; the FIIM regulation for anything unknown (the page's default)."""
    return PRESETS.get(preset_id or "", PRESETS[RulesetId.FIIM])
