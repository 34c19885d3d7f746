"""Organizer-facing names of ``scoring``'s ids (its own labels are English)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from scoring.metrics import METRICS

METRIC_LABELS: dict[str, Promise] = {
    "wins": _("wins"),
    "best": _("times named best"),
    "don_wins": _("wins as don"),
    "sheriff_wins": _("wins as sheriff"),
    "mafia_wins": _("wins as mafia"),
    "don_sheriff_wins": _("wins as don or sheriff"),
    "first_killed": _("times killed in the first night"),
    "extra": _("extra points"),
    "days_survived": _("days survived"),
    "red_points": _("points as red"),
    "black_points": _("points as black"),
    "sheriff_average": _("average as sheriff"),
    "don_average": _("average as don"),
    "head_to_head": _("head-to-head"),
}


# Tie-break metrics the standings already show in a column of their own (games, wins): not repeated.
SHOWN_APART = frozenset({"wins"})


def chain_columns(chain: tuple[str, ...] | list[str]) -> list[str]:
    """The tie-break metrics that get a column in a standings table (the chain minus ``SHOWN_APART``)."""
    return [metric for metric in chain if metric not in SHOWN_APART]


def metric_label(metric: str) -> str:
    if metric in METRIC_LABELS:
        return str(METRIC_LABELS[metric])
    known = METRICS.get(metric)
    return known.label if known is not None else metric
