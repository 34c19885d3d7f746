from __future__ import annotations

from django.apps import AppConfig


class RatingsConfig(AppConfig):
    """The players' Elo rating across tournaments: computed from every confirmed game of every rated tournament,
    from scratch or from the round a change touches (docs/rating.md)."""

    name = "ratings"
    verbose_name = "ratings"
