from __future__ import annotations

from django.apps import AppConfig


class SeriesConfig(AppConfig):
    """Tournaments grouped into a series (a season, a league): series points per place and the series
    standings (docs/series.md)."""

    name = "series"
    verbose_name = "series"
