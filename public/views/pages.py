"""The list of tournaments, a tournament's home (regulation in short, program, current round)
and the full rules summary of its ruleset with its parameters."""

from __future__ import annotations

import hashlib
from fractions import Fraction
from typing import Any

from django.db.models import Count
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.views import View

from scoring.model import SeatingMethod, StageKind, kind_at
from scoring.rulesets import Ruleset, get_ruleset
from scoring.rulesets.base import StageFormat
from scoring.seating import METHODS
from tournaments import param_words
from tournaments.labels import SEATING_METHODS, STAGE_KINDS, metric_label
from tournaments.models import Tournament
from tournaments.rules import ruleset_for
from tournaments.summaries import HOW_TIES, summary

from ..conditional import conditional, etag_for
from .base import PublicTournamentView


class TournamentListView(View):
    http_method_names = ["get", "head"]

    def get(self, request: HttpRequest) -> HttpResponseBase:
        tournaments = list(Tournament.objects.select_related("results_version").order_by("-starts", "-created"))
        state = [(t.pk, getattr(getattr(t, "results_version", None), "version", 0), t.standings_hidden)
                 for t in tournaments]
        digest = hashlib.sha1(repr(state).encode()).hexdigest()[:16]
        etag = etag_for(request, "list", digest, False)
        return conditional(request, etag, lambda: render(request, "public/tournament_list.html",
                                                         {"tournaments": tournaments}))


class HomeView(PublicTournamentView):
    page_template = "public/page.html"
    fragment_template = "public/home.html"
    live = True
    tab = "home"

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        snapshot = self.snapshot
        rounds_of: dict[int, list[Any]] = {}
        for r in snapshot.rounds:
            rounds_of.setdefault(r.stage.pk, []).append(r)
        current, following = snapshot.current_rounds()
        return {
            "ruleset_name": self.tournament.get_ruleset_display(),
            "summary": summary(self.tournament.ruleset),
            "program": [(stage, rounds_of.get(stage.pk, []), snapshot.scheduled.get(stage.pk, []))
                        for stage in snapshot.stages],
            "current": current,
            "next": following,
        }


class RulesView(PublicTournamentView):
    page_template = "public/page.html"
    fragment_template = "public/rules.html"
    tab = "rules"

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        cls = get_ruleset(self.tournament.ruleset)
        ruleset = ruleset_for(self.tournament)
        formats = [format_row(STAGE_KINDS[kind], ruleset.stage_format(kind)) for kind in cls.stage_kinds]
        stages, stage_rounds = self.stages(ruleset)
        params = param_words.describe(ruleset, stage_rounds or None)
        chain = ruleset.chain(black_wins=0, red_wins=0)
        return {
            "ruleset_name": self.tournament.get_ruleset_display(),
            "summary": summary(self.tournament.ruleset),
            # the regulation's words for its own chain; a tournament's ``tiebreaks`` is its chain
            "how_ties": (ruleset.params.tiebreaks is None and HOW_TIES.get(cls.id))
            or ", ".join(metric_label(m) for m in chain),
            "params": params, "formats": formats, "any_changed": any(p.changed for p in params),
            "stages": stages,
            "stages_as_regulation": [without_name(r) for r in stages] == [without_name(r) for r in formats],
            "swiss": any(f["swiss"] for f in (*formats, *stages)),
        }

    def stages(self, ruleset: Ruleset) -> tuple[list[dict[str, Any]], list[param_words.StageRounds]]:
        """The tournament's own stages as the regulation's table shows its (one query): a blank field is the
        regulation's value for the stage's kind (a stage without one: by its place, ``kind_at``); and each stage with
        its rounds for Ci's N: the rounds planned, else those made, else the regulation's."""
        stages = list(self.tournament.stages.order_by("order").annotate(made=Count("rounds")))
        rows, rounds_of = [], []
        for index, stage in enumerate(stages):
            kind = kind_at(StageKind(stage.kind) if stage.kind else None, index, len(stages))
            fmt = ruleset.stage_format(kind)
            rounds = stage.planned_rounds or stage.made or fmt.rounds
            plan = [SeatingMethod(m) for m in stage.seating_plan or [] if m in METHODS]
            rows.append(format_row(str(stage), fmt, rounds=rounds, seating=plan or None,
                                   advance=(stage.advance_kind, stage.advance_count) if stage.advance_kind else None,
                                   multiplier=ruleset.multiplier_for(kind) if stage.multiplier is None
                                   else Fraction(stage.multiplier), reset=stage.reset,
                                   last=index == len(stages) - 1))
            rounds_of.append(param_words.StageRounds(str(stage), rounds))
        return rows, rounds_of


def without_name(row: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in row.items() if key != "kind"}


def format_row(name: Any, fmt: StageFormat, *, rounds: int | None = None, seating: list[SeatingMethod] | None = None,
               advance: tuple[str, int | None] | None = None, multiplier: Fraction | None = None,
               reset: bool | None = None, last: bool = False) -> dict[str, Any]:
    """A row of a stages table: the given values, else the regulation's format ``fmt``; labels, not ids
    ("swiss_zvezdy" means nothing to a player). The last stage advances nobody whatever its kind's format says."""
    methods = list(dict.fromkeys(seating or fmt.seating))
    return {
        "kind": name, "rounds": rounds or fmt.rounds, "reset": fmt.reset if reset is None else reset,
        "multiplier": fmt.multiplier if multiplier is None else multiplier,
        "advance": None if last else advance or fmt.advance,
        "seating": ", ".join(str(SEATING_METHODS[m]) for m in methods),
        "swiss": any(METHODS[m.value].swiss for m in methods),
    }
