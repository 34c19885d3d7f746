"""A tournament and its stages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ..labels import SeatingMethod, StageKind

if TYPE_CHECKING:
    from base.users import AnyUser


class RulesetId(models.TextChoices):
    """The four regulations (stable ids of the tournament file and of ``scoring.rulesets``)."""

    TOMSK = "tomsk", _("Tomsk team championship")
    KOSTROMA = "kostroma", _("Kostroma city tournament")
    FIIM = "fiim", _("FIIM (Zelenograd open championship)")
    ZVEZDY = "zvezdy", _("“Forward to the stars”")


class TournamentLevel(models.TextChoices):
    """How much a rated tournament's games weigh in the rating (its K, docs/rating.md)."""

    CLUB = "club", pgettext_lazy("tournament level", "club")
    OPEN = "open", pgettext_lazy("tournament level", "open")
    CHAMPIONSHIP = "championship", pgettext_lazy("tournament level", "championship")


class Tournament(models.Model):
    slug = models.SlugField(_("short name for addresses"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=200)
    ruleset = models.CharField(_("regulation"), max_length=20, choices=RulesetId.choices)
    params = models.JSONField(_("parameters overridden"), null=True, blank=True)
    info_other = models.JSONField(_("other tournament fields of the file"), default=dict, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts = models.DateField(_("starts"), null=True, blank=True)
    ends = models.DateField(_("ends"), null=True, blank=True)
    standings_hidden = models.BooleanField(
        _("standings hidden"), default=False, help_text=_("Public pages show no points or ranks.")
    )
    four_eyes = models.BooleanField(
        _("four-eyes confirmation"), default=False,
        help_text=_("A protocol is confirmed by someone other than the person who submitted it."),
    )
    # Procedure settings; each defaults to the regulation's (``tournaments.rules``), the organizer may change it.
    protests_enabled = models.BooleanField(
        _("protests accepted"), null=True, blank=True,
        help_text=_("Empty: as the regulation says (FIIM: judges' decisions are not subject to appeal)."),
    )
    participant_cap = models.PositiveIntegerField(
        _("participant cap"), null=True, blank=True, validators=[MinValueValidator(1)],
        help_text=_("The most accepted participants, guests included; empty: no cap."),
    )
    applications_open = models.DateTimeField(_("applications open"), null=True, blank=True)
    applications_close = models.DateTimeField(_("applications close"), null=True, blank=True)
    organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        related_name="organized_tournaments",
        blank=True,
        verbose_name=_("organizers"),
    )
    rated = models.BooleanField(
        _("rated"), default=True, help_text=_("Its confirmed games count for the players' rating."),
    )
    level = models.CharField(
        _("level"), max_length=20, choices=TournamentLevel.choices, default=TournamentLevel.OPEN,
        help_text=_("Sets how much its games move the rating (K)."),
    )
    created = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts", "-created"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends__isnull=True)
                | models.Q(starts__isnull=True)
                | models.Q(ends__gte=models.F("starts")),
                name="tournament_ends_after_starts",
            )
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournaments:detail", kwargs={"slug": self.slug})

    def is_organizer(self, user: AnyUser | None) -> bool:
        """Whether ``user`` may change this tournament (checked on the server by every view); the API's
        anonymous user is ``None`` (``UNAUTHENTICATED_USER``)."""
        if user is None or not user.is_authenticated:
            return False
        if user.is_superuser:
            return True
        return self.organizers.filter(pk=user.pk).exists()


class AdvanceKind(models.TextChoices):
    TOP = "top", _("the best N overall")
    PER_GAME = "per_game", _("fewer than K above them in one of their games")


class Stage(models.Model):
    """A stage; a blank optional field means "the ruleset's value for this kind of stage"."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="stages")
    ext_id = models.CharField(_("id in the tournament file"), max_length=64)
    name = models.CharField(_("name"), max_length=100, blank=True)
    kind = models.CharField(_("kind"), max_length=20, choices=StageKind.choices, blank=True)
    order = models.PositiveIntegerField(_("order"))
    planned_rounds = models.PositiveIntegerField(_("rounds planned"), null=True, blank=True)
    seating_plan = models.JSONField(_("seating method per round"), default=list, blank=True)
    advance_kind = models.CharField(_("who advances"), max_length=10, choices=AdvanceKind.choices, blank=True)
    advance_count = models.PositiveIntegerField(_("how many advance"), null=True, blank=True)
    reset = models.BooleanField(_("starts from zero"), null=True, blank=True)
    multiplier = models.DecimalField(
        _("points multiplier"),
        max_digits=10,
        decimal_places=6,
        null=True,
        blank=True,
        validators=[MinValueValidator(0)],
    )
    players_listed = models.BooleanField(_("players fixed"), default=False)
    players = models.ManyToManyField(
        "tournaments.Participant", through="tournaments.StagePlayer", related_name="stages", blank=True
    )
    lots = models.JSONField(_("lots"), null=True, blank=True)
    closed = models.BooleanField(_("closed"), default=False)

    class Meta:
        verbose_name = _("stage")
        verbose_name_plural = _("stages")
        ordering = ["tournament", "order"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "ext_id"], name="stage_ext_id_unique"),
            models.UniqueConstraint(fields=["tournament", "order"], name="stage_order_unique"),
        ]

    def __str__(self) -> str:
        # an unnamed stage is named by its kind, capitalised as a name («Отборочный», not «отборочный» in a heading)
        return self.name or capfirst(self.get_kind_display()) or self.ext_id

    def seating_plan_summary(self) -> list[str]:
        """The planned methods by runs of rounds, translated: ["rounds 1–4 — balanced", "round 5 — random"]; one
        method for the whole stage is just its name. The plan's last method holds for every later round (as
        ``running.services.planning.default_method`` reads it), so its run reaches the planned rounds."""
        runs: list[tuple[int, int, str]] = []
        for number, method in enumerate(self.seating_plan or [], start=1):
            if runs and runs[-1][2] == method:
                runs[-1] = (runs[-1][0], number, method)
            else:
                runs.append((number, number, method))
        labels = dict(SeatingMethod.choices)
        if len(runs) == 1:
            return [str(labels.get(runs[0][2], runs[0][2]))]
        if runs:
            runs[-1] = (runs[-1][0], max(runs[-1][1], self.planned_rounds or 0), runs[-1][2])
        return [
            (_("round %(n)s — %(method)s") % {"n": first, "method": labels.get(method, method)} if first == last
             else _("rounds %(first)s–%(last)s — %(method)s")
             % {"first": first, "last": last, "method": labels.get(method, method)})
            for first, last, method in runs
        ]


class StagePlayer(models.Model):
    """A player fixed for a stage (by closing the previous one, or from the file), in order."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    participant = models.ForeignKey("tournaments.Participant", on_delete=models.CASCADE, related_name="+")
    position = models.PositiveIntegerField(_("position"))

    class Meta:
        verbose_name = _("player of a stage")
        verbose_name_plural = _("players of a stage")
        ordering = ["stage", "position"]
        constraints = [models.UniqueConstraint(fields=["stage", "participant"], name="stage_player_unique")]

    def __str__(self) -> str:
        return f"{self.stage}: {self.participant_id}"
