"""The translated names of the series' tie-breaks (``series.standings.TIEBREAKS`` keeps their ids)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def _names() -> dict[str, str]:
    return {
        "firsts": _("more tournaments won"),
        "seconds": _("more 2nd places"),
        "thirds": _("more 3rd places"),
        "countback": _("more 1st places, then more 2nd places, and so on"),
        "best_place": _("best single place"),
        "played": _("more tournaments played"),
        "place_sum": _("smaller sum of places"),
    }


def _shorts() -> dict[str, str]:
    return {
        "firsts": _("1st"), "seconds": _("2nd"), "thirds": _("3rd"), "countback": _("1st"),
        "best_place": _("Best"), "played": _("T"), "place_sum": _("ΣP"),
    }


def tiebreak_label(tid: str) -> str:
    return _names().get(tid, tid)


def tiebreak_short(tid: str) -> str:
    return _shorts().get(tid, tid)


def tiebreak_choices() -> list[tuple[str, str]]:
    return list(_names().items())


