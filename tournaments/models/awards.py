"""Awards and nominations of a tournament, and what its printed diplomas say (docs/rules/awards.md).

A computed award has the ``kind`` of a ``scoring.awards`` kind and names its candidate unless the organizer chose
a recipient by hand (with a reason, who and when); a free-form award (blank ``kind``) is always chosen by hand. A
proposal of the ruleset without a row keeps the ruleset's default (given or only suggested); a row records the
organizer's choice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .event import Tournament
from .people import Participant


class Award(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="awards")
    kind = models.CharField(_("computed as"), max_length=40, blank=True)
    title = models.CharField(_("title"), max_length=200, blank=True)  # blank: the kind's name
    enabled = models.BooleanField(_("given"), default=True)
    order = models.PositiveIntegerField(_("order"), default=0)
    recipient = models.ForeignKey(Participant, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
                                  verbose_name=_("recipient chosen by hand"))
    reason = models.TextField(_("reason for the choice"), blank=True)
    chosen_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("chosen by"))
    chosen_at = models.DateTimeField(_("chosen at"), null=True, blank=True)

    class Meta:
        verbose_name = _("award")
        verbose_name_plural = _("awards")
        ordering = ["tournament", "order", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "kind"], condition=~models.Q(kind=""),
                                    name="award_kind_unique"),
        ]

    def __str__(self) -> str:
        return self.title or self.kind


class Diplomas(models.Model):
    """What the printed diplomas and certificates carry besides the names: a title and a signature line."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="diplomas")
    title = models.CharField(_("title on the diplomas"), max_length=200, blank=True)
    signer_name = models.CharField(_("signed by (name)"), max_length=200, blank=True)
    signer_position = models.CharField(_("signer's position"), max_length=200, blank=True)

    class Meta:
        verbose_name = _("diploma settings")
        verbose_name_plural = _("diploma settings")

    def __str__(self) -> str:
        return self.title or str(self.tournament)
