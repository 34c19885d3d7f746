"""The four regulations, each a registered ``Ruleset`` subclass (docs/rules/, a page each).

Adding a fifth regulation is one new module here, imported below, plus its tests.
"""

from __future__ import annotations

from . import fiim, kostroma, tomsk, zvezdy
from .base import RULESETS, AwardProposal, Ruleset, SeatPoints, StageFormat, get_ruleset, register

__all__ = ["RULESETS", "AwardProposal", "Ruleset", "SeatPoints", "StageFormat", "fiim", "get_ruleset", "kostroma",
           "register", "tomsk", "zvezdy"]
