"""The list of tournaments, a tournament's home (regulation in short, program, current round)
and the full rules summary of its ruleset with its parameters."""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Count
from django.http import HttpRequest, HttpResponseBase
from django.shortcuts import render
from django.views import View

from scoring.model import StageKind
from scoring.rulesets import Ruleset, get_ruleset
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
        params = param_words.describe(ruleset, self.stage_rounds(ruleset) or None)
        formats = []
        formats_seen = []
        for kind in (StageKind.QUALIFYING, StageKind.SEMIFINAL, StageKind.FINAL):
            f = ruleset.stage_format(kind)
            formats_seen.append(f)
            formats.append({  # labels, not ids: "swiss_zvezdy" means nothing to a player
                "kind": STAGE_KINDS[kind], "rounds": f.rounds, "reset": f.reset, "multiplier": f.multiplier,
                "advance": f.advance,
                "seating": ", ".join(str(SEATING_METHODS[m]) for m in dict.fromkeys(f.seating)),
            })
        chain = ruleset.chain(black_wins=0, red_wins=0)
        return {
            "ruleset_name": self.tournament.get_ruleset_display(),
            "summary": summary(self.tournament.ruleset),
            # the regulation's words for its own chain; a tournament's ``tiebreaks`` is its chain
            "how_ties": (ruleset.params.tiebreaks is None and HOW_TIES.get(cls.id))
            or ", ".join(metric_label(m) for m in chain),
            "params": params, "formats": formats, "any_changed": any(p.changed for p in params),
            "swiss": any(METHODS[m.value].swiss for f in formats_seen for m in f.seating),
        }

    def stage_rounds(self, ruleset: Ruleset) -> list[param_words.StageRounds]:
        """The tournament's stages with their rounds, Ci's N (one query): the rounds planned, else those made,
        else the regulation's for the stage's kind (a stage without one: by its place, as ``stage_multiplier``)."""
        stages = list(self.tournament.stages.order_by("order").annotate(made=Count("rounds")))
        out = []
        for index, stage in enumerate(stages):
            if stage.kind and stage.kind != StageKind.OTHER:
                kind = StageKind(stage.kind)
            else:
                kind = (StageKind.QUALIFYING if index == 0 else StageKind.FINAL if index == len(stages) - 1
                        else StageKind.SEMIFINAL)
            rounds = stage.planned_rounds or stage.made or ruleset.stage_format(kind).rounds
            out.append(param_words.StageRounds(str(stage), rounds))
        return out
