"""The rating's rules (K per level and side), every change a rated game brought, and each player's rating now."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.models import Game
from tournaments.models import Player, Round, Tournament

DEFAULT_K = {"club": 10, "open": 20, "championship": 30}


class RatingRules(models.Model):
    """The site's one set of rules (the row with pk 1): K per tournament level, for red and for black (the
    maniac plays with black's K), and the rating everyone starts from. Changing them recomputes everything."""

    k_club_red = models.FloatField(_("K, club, red"), default=DEFAULT_K["club"])
    k_club_black = models.FloatField(_("K, club, black"), default=DEFAULT_K["club"])
    k_open_red = models.FloatField(_("K, open, red"), default=DEFAULT_K["open"])
    k_open_black = models.FloatField(_("K, open, black"), default=DEFAULT_K["open"])
    k_championship_red = models.FloatField(_("K, championship, red"), default=DEFAULT_K["championship"])
    k_championship_black = models.FloatField(_("K, championship, black"), default=DEFAULT_K["championship"])
    start = models.FloatField(_("starting rating"), default=1500)
    # Bumped by every recomputation: the rating pages' cache key (ratings/services/pages.py).
    version = models.PositiveBigIntegerField(default=1)
    updated = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("rating rules")
        verbose_name_plural = _("rating rules")

    def k(self, level: str, side: str) -> float:
        value: float = getattr(self, f"k_{level}_{'red' if side == 'red' else 'black'}")
        return value


class RatingChange(models.Model):
    """What one rated game did to one player's rating. ``position`` orders the rounds of every rated tournament:
    the tournament's start (or creation) date, its id, the stage's order and the round's number."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_changes")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")

    position = models.CharField(max_length=40, db_index=True)
    day = models.DateField(_("date"))
    side = models.CharField(_("side"), max_length=10)
    won = models.BooleanField(_("won"))
    before = models.FloatField(_("before"))
    after = models.FloatField(_("after"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        ordering = ["position", "game", "player"]
        constraints = [models.UniqueConstraint(fields=["game", "player"], name="one_rating_change_per_game_and_player")]
        indexes = [models.Index(fields=["player", "position"])]

    @property
    def delta(self) -> float:
        return self.after - self.before


class PlayerRating(models.Model):
    """A player's rating after every rated game so far, and how many games made it (kept with the changes)."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, primary_key=True, related_name="rating")
    rating = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("games"))

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [models.Index(fields=["-rating"])]
