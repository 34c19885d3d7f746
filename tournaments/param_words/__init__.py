"""The ruleset's parameters in words, for the public rules page and under the parameters form's fields.

``describe(ruleset, stages)`` gives one sentence per parameter that applies to the ruleset (every parameter of
``scoring.params.PARAM_NAMES`` but ``ruleset.not_applicable``), in the active language, with the numbers written
as the reader writes them (a decimal comma and a real minus sign in Russian), whether the value differs from the
regulation's default, and then the default in words. First-night compensation (Ci) also works its numbers for
each stage. Pure functions over a ``scoring`` ruleset: no database; the view passes the stages and their rounds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.text import capfirst

from scoring.model import StageKind
from scoring.params import PARAM_NAMES
from scoring.rulesets import Ruleset

from ..labels import STAGE_KINDS, param_label
from .sentences import SENTENCES, StageRounds

# StageRounds is the type of describe's stages.
__all__ = ["ParamWords", "StageRounds", "describe", "regulation_stages", "regulation_words"]


@dataclass(frozen=True)
class ParamWords:
    """One parameter in words: its code name and label, the sentence, the worked examples (Ci's stages),
    whether the tournament changed it, and then the regulation's default in words."""

    name: str
    label: str
    text: str
    changed: bool = False
    default: str = ""
    details: tuple[str, ...] = ()


def describe(ruleset: Ruleset, stages: Sequence[StageRounds] | None = None) -> list[ParamWords]:
    """Every parameter that applies to ``ruleset``, in ``PARAM_NAMES`` order. ``stages``: the tournament's
    stages and their rounds; None: the stages the regulation proposes (``stage_format``)."""
    if stages is None:
        stages = regulation_stages(ruleset)
    regulation = type(ruleset)(type(ruleset).defaults)
    out = []
    for name in PARAM_NAMES:
        if name in ruleset.not_applicable:
            continue
        text, details = SENTENCES[name](ruleset, stages)
        changed = getattr(ruleset.params, name) != getattr(regulation.params, name)
        default = SENTENCES[name](regulation, ())[0] if changed else ""
        out.append(ParamWords(name, capfirst(param_label(name)), text, changed, default, tuple(details)))
    return out


def regulation_words(ruleset_class: type[Ruleset], name: str) -> str:
    """The regulation's own value of parameter ``name`` in one sentence (the parameters' form says it under a
    structured field, whose value is typed as JSON)."""
    return SENTENCES[name](ruleset_class(ruleset_class.defaults), ())[0]


def regulation_stages(ruleset: Ruleset) -> list[StageRounds]:
    """The qualifying, semifinal and final with the rounds the regulation proposes."""
    kinds = (StageKind.QUALIFYING, StageKind.SEMIFINAL, StageKind.FINAL)
    return [StageRounds(str(STAGE_KINDS[kind]), ruleset.stage_format(kind).rounds) for kind in kinds]
