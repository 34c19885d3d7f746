"""A series (a season, a league): tournaments whose final places earn series points (docs/series.md)."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

from .standings import DEFAULT_CHAIN, Rules

if TYPE_CHECKING:
    from base.users import AnyUser

F1_POINTS = ["25", "18", "15", "12", "10", "8", "6", "4", "2", "1"]


def default_points() -> list[str]:
    return list(F1_POINTS)


def default_chain() -> list[str]:
    return list(DEFAULT_CHAIN)


class Series(models.Model):
    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short name for addresses"), max_length=64, unique=True)
    description = models.TextField(_("description"), blank=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="organized_series", blank=True, verbose_name=_("organizers"),
    )
    public = models.BooleanField(_("public"), default=True, help_text=_("Anyone may see its standings."))
    # Exact decimals as text ("12.5"): a JSON number would come back a float.
    points = models.JSONField(_("points per place"), default=default_points)
    reference_players = models.PositiveIntegerField(
        _("reference number of players"), null=True, blank=True, validators=[MinValueValidator(1)],
        help_text=_("Scale the points by the players placed ÷ this number; empty: no scaling."),
    )
    best_of = models.PositiveIntegerField(
        _("best results counted"), null=True, blank=True, validators=[MinValueValidator(1)],
        help_text=_("Only each player's N best results count; empty: every result."),
    )
    tiebreaks = models.JSONField(_("tie-breaks"), default=default_chain)
    tournaments = models.ManyToManyField(Tournament, through="SeriesTournament", related_name="series",
                                         verbose_name=_("tournaments"))
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("series")
        verbose_name_plural = _("series")
        ordering = ["-created"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("series:detail", kwargs={"series": self.slug})

    def is_organizer(self, user: AnyUser | None) -> bool:
        if user is None or not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        return self.organizers.filter(pk=user.pk).exists()

    def rules(self, weights: dict[int, Fraction]) -> Rules:
        return Rules(points=tuple(Fraction(Decimal(p)) for p in self.points), reference=self.reference_players,
                     best_of=self.best_of, chain=tuple(self.tiebreaks), weights=weights)


class SeriesTournament(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="series_entries")
    weight = models.DecimalField(_("weight"), max_digits=6, decimal_places=2, default=Decimal(1),
                                 validators=[MinValueValidator(Decimal("0.01"))],
                                 help_text=_("The tournament's series points are multiplied by it."))
    order = models.PositiveIntegerField(_("order"), default=0)

    class Meta:
        verbose_name = _("tournament of a series")
        verbose_name_plural = _("tournaments of a series")
        ordering = ["order", "id"]
        constraints = [models.UniqueConstraint(fields=["series", "tournament"], name="series_tournament_once")]

    def __str__(self) -> str:
        return f"{self.series} · {self.tournament}"
