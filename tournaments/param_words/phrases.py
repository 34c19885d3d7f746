"""The pieces the parameters' sentences are built from, in the reader's language: signed numbers, points,
lists, a side's or a role's points, a tie-break chain.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.metrics import METRICS as SCORING_METRICS
from scoring.model import Role, Side
from scoring.params import ValueSet, WinPoints
from scoring.rulesets import Ruleset

from ..labels import local_number as number
from ..labels import metric_label


def signed(value: Fraction | int) -> str:
    text = number(value)
    return text if text.startswith("−") or value == 0 else f"+{text}"


def points(value: Fraction | int) -> str:
    """``2 points``, ``1 point``, ``0.5 points``; ``2 балла``, ``0,5 балла`` (a fraction takes the genitive)."""
    value = Fraction(value)
    if value.denominator == 1:
        return ngettext("%(points)s point", "%(points)s points", abs(value.numerator)) % {"points": number(value)}
    return pgettext("a fractional number of points", "%(points)s points") % {"points": number(value)}


def separator() -> str:
    """Between the items of a list: a comma in English, a semicolon in Russian, where a comma is a decimal one."""
    return pgettext("between the items of a list", ", ")


def one_of(words: Sequence[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("%(items)s or %(last)s") % {"items": separator().join(words[:-1]), "last": words[-1]}


def values(allowed: ValueSet) -> str:
    """``0, 0.5 or 1``; ``from −2 to 2 in steps of 0.5``; ``none``."""
    if allowed.minimum is not None and allowed.maximum is not None and allowed.step is not None:
        return _("from %(min)s to %(max)s in steps of %(step)s") % {
            "min": number(allowed.minimum), "max": number(allowed.maximum), "step": number(allowed.step)}
    if not allowed.values:
        return _("none")
    return one_of([number(v) for v in allowed.values])


def side_points(given: WinPoints, ruleset: Ruleset) -> str:
    """``2 points``, or per side: ``3 points as red, 4 points as black`` (the maniac where the tables have one)."""
    sides = [Side.RED, Side.BLACK]
    if Role.MANIAC in ruleset.special_roles or given.maniac:
        sides.append(Side.MANIAC)
    if len({given.for_side(side) for side in sides}) == 1:
        return points(given.red)
    as_side = {
        Side.RED: pgettext("points of a side", "%(points)s as red"),
        Side.BLACK: pgettext("points of a side", "%(points)s as black"),
        Side.MANIAC: pgettext("points of a side", "%(points)s as the maniac"),
    }
    return separator().join(as_side[side] % {"points": points(given.for_side(side))} for side in sides)


def role_subject(role: Role) -> str:
    """A player of the role as the subject of a sentence: ``a don``, ``a mafia player``."""
    return {
        Role.CIVILIAN: pgettext("role as a subject", "a civilian"),
        Role.SHERIFF: pgettext("role as a subject", "a sheriff"),
        Role.DOCTOR: pgettext("role as a subject", "a doctor"),
        Role.MAFIA: pgettext("role as a subject", "a mafia player"),
        Role.DON: pgettext("role as a subject", "a don"),
        Role.MANIAC: pgettext("role as a subject", "a maniac"),
        Role.GHOST: pgettext("role as a subject", "a ghost"),
        Role.MUSICIAN: pgettext("role as a subject", "a musician"),
        Role.ARTIST: pgettext("role as a subject", "an artist"),
        Role.THIEF: pgettext("role as a subject", "a thief"),
        Role.SCREENWRITER: pgettext("role as a subject", "a screenwriter"),
    }[role]


def chain_words(chain: Sequence[str]) -> str:
    """``wins, then times named best, then lots``: the metrics in order, lots last."""
    items = []
    for metric in chain:
        label = metric_label(metric)
        known = SCORING_METRICS.get(metric)
        if known is not None and known.fewer_ranks_higher:
            label = pgettext("tie-break metric", "%(metric)s (fewer ranks higher)") % {"metric": label}
        items.append(label)
    items.append(_("lots"))
    return pgettext("tie-break chain", ", then ").join(items)
