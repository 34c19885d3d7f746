"""A change of a tournament's parameters: who, when, what before and after, and how many games it re-scored.

``Tournament.params`` stays the one place the rules are read from; this is its audit, shown on the parameters
page. Every standings table is computed from the protocols and the parameters in force, so saving new
parameters re-scores every game at once (the results version moves on with the save).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament


class ParamChange(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="param_changes")
    # The overrides before and after (the file's ``params``): all of them, so any change can be read back.
    before = models.JSONField(_("parameters before"), null=True, blank=True)
    after = models.JSONField(_("parameters after"), null=True, blank=True)
    # (parameter, before, after) in the file's notation for each parameter changed, as shown in the history.
    changes = models.JSONField(_("changes"), default=list)
    games_with_results = models.PositiveIntegerField(_("games re-scored"), default=0)
    reason = models.CharField(_("reason"), max_length=300, blank=True)
    changed_at = models.DateTimeField(_("changed at"))
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    # The name as shown: it outlives the account.
    changed_by_name = models.CharField(_("changed by"), max_length=150, blank=True)

    class Meta:
        verbose_name = _("change of parameters")
        verbose_name_plural = _("changes of parameters")
        ordering = ["tournament", "-changed_at", "-id"]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.changed_at:%Y-%m-%d %H:%M}"
