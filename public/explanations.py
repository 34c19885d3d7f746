"""The two questions every player asks, answered on the public pages from ``scoring``'s own answers (no second
computation): "why am I ranked here?" (``scoring.explain``: the stage's tie-break chain step by step against the
neighbours) and "what do I need?" (``scoring.needs``: safe, out of reach, or the points still needed), in the
reader's language (docs/explain.md, docs/needs.md)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.explain import PlayerNotRanked, explain_standings
from scoring.needs import NoTarget, needs
from tournaments.labels import local_moment, local_number, metric_label
from tournaments.models import DrawMethod, LotDraw, Stage

from . import model_cache
from .snapshot import Snapshot

TIERS = {"disqualified", "eligible", "short_of_games"}


def shown(value: object) -> str:
    """A step's value as the pages show numbers (``"10/3"`` and ``"11.5"`` exactly, in the reader's format)."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return str(value)
    try:
        return local_number(Fraction(str(value)))
    except (ValueError, ZeroDivisionError):
        return str(value)


def step_label(metric: str) -> str:
    if metric == "lots":
        return _("drawing of lots")
    if metric == "points":
        return _("points")
    if metric == "average":
        return _("points per game")
    if metric == "disqualified":
        return _("disqualification")
    if metric == "eligible":
        return _("eligibility for the final's awards")
    if metric == "short_of_games":
        return _("enough games played")
    return metric_label(metric)


def tier_words(metric: str, mine: object) -> str:
    """A tier that separates the two (shown only then) as a sentence: "disqualification yes against no" reads
    badly."""
    if metric == "disqualified":
        return _("you are disqualified, they are not") if mine else _("they are disqualified, you are not")
    if metric == "eligible":
        return (_("they are not eligible for the final's awards, you are") if mine
                else _("you are not eligible for the final's awards, they are"))
    if metric == "short_of_games":
        return _("you have too few games, they have enough") if mine else _("they have too few games, you have enough")
    return ""


@dataclass(frozen=True)
class Step:
    label: str
    mine: str
    theirs: str
    decides: bool
    lots: bool
    words: str = ""  # a tier's sentence, said instead of the values


@dataclass(frozen=True)
class Comparison:
    player: str
    name: str
    rank: int | None
    above: bool  # they stand above the page's player
    steps: list[Step]
    draw: str = ""  # where lots decided: who drew them and when

    @property
    def decided_by(self) -> Step | None:
        return next((step for step in self.steps if step.decides), None)

    @property
    def level(self) -> bool:
        """Nothing tells them apart, not even lots: they share a rank."""
        return self.decided_by is None


def why_ranked(snapshot: Snapshot, stage: Stage, player: str) -> list[Comparison] | None:
    """The player against the one just above, the one just below and everyone level with them; None when the
    standings are hidden or the player is not ranked in the stage."""
    if snapshot.hidden:
        return None
    standings = snapshot.standings(stage.ext_id)
    try:
        answer = explain_standings(snapshot.model, standings, player)
    except PlayerNotRanked:
        return None
    order = [row.player for row in standings.rows]
    mine = order.index(player)
    # the stage's draws, read whether or not lots decide here: the page's queries do not depend on the standings
    draws = list(LotDraw.objects.filter(stage=stage, cancelled_at__isnull=True).order_by("-drawn_at"))
    out = []
    for entry in answer["against"]:  # type: ignore[attr-defined]
        other = str(entry["player"])
        # a lots step decides only where somebody drew: two players nobody drew share a rank
        steps = [Step(step_label(str(s["metric"])), shown(s.get("mine")), shown(s.get("theirs")),
                      bool(s.get("decides")), s["metric"] == "lots", tier_words(str(s["metric"]), s.get("mine")))
                 for s in entry["steps"]]
        draw = ""
        if any(step.lots and step.decides for step in steps):
            found = next((d for d in draws if {player, other} <= set(d.players)), None)
            if found is not None:
                draw = draw_words(found)
        out.append(Comparison(other, snapshot.name(other), entry.get("rank"), order.index(other) < mine, steps,
                              draw))
    return sorted(out, key=lambda c: order.index(c.player))


def draw_words(draw: LotDraw) -> str:
    who = draw.drawn_by_name or _("the organizer")
    when = local_moment(draw.drawn_at)
    if draw.method == DrawMethod.PHYSICAL:
        return _("drawn in the hall, recorded by %(who)s at %(when)s") % {"who": who, "when": when}
    return _("drawn by the app at %(when)s, at the request of %(who)s") % {"who": who, "when": when}


@dataclass(frozen=True)
class Need:
    status: str  # "clinched", "eliminated", "open"
    target: str  # "advance", "win"
    # as scoring writes them ("1/2", "-1"): the cache keeps one copy for every reader, each language formats its own
    to_clinch: str | None
    to_keep_chance: str | None

    @property
    def badge(self) -> str:
        """A few words beside the name in the standings."""
        if self.status == "clinched":
            return _("goes through") if self.target == "advance" else pgettext("need badge", "wins")
        if self.status == "eliminated":
            return _("out of reach")
        if self.to_clinch is None:
            return ""
        # more than to_clinch is sure; exactly to_clinch is not (a tie may go the other way)
        return _("sure with more than %(points)s") % {"points": signed_shown(self.to_clinch)}

    @property
    def words(self) -> str:
        advance = self.target == "advance"
        if self.status == "clinched":
            return _("sure to go through") if advance else _("sure to win")
        if self.status == "eliminated":
            return _("can no longer go through") if advance else _("can no longer win")
        parts = [_("not decided yet")]
        if self.to_clinch is not None:
            value = Fraction(self.to_clinch)
            if value >= 0:
                words = (_("gaining more than %(points)s takes you through, whatever the others do") if advance
                         else _("gaining more than %(points)s makes you a winner, whatever the others do"))
            else:  # gaining more than a negative number: losing less than it
                words = (_("losing less than %(points)s still takes you through, whatever the others do")
                         if advance else
                         _("losing less than %(points)s still makes you a winner, whatever the others do"))
            parts.append(words % {"points": shown(abs(value))})
        if self.to_keep_chance is not None:
            value = Fraction(self.to_keep_chance)
            if value > 0:
                parts.append(_("gaining less than %(points)s leaves no chance") % {"points": shown(value)})
            elif value == 0:
                parts.append(_("losing any points leaves no chance"))
            else:
                parts.append(_("losing more than %(points)s leaves no chance") % {"points": shown(-value)})
        return parts[0] + (": " + "; ".join(parts[1:]) if len(parts) > 1 else "")


def signed_shown(value: str) -> str:
    number = Fraction(value)
    return shown(value) if number <= 0 else f"+{shown(value)}"


def needs_legend(target: str, left: int, statuses: set[str]) -> str:
    """The badges shown (``statuses``) in words under the standings: on a phone a badge's title cannot be read."""
    advance = target == "advance"
    parts = [ngettext("%(count)s round left.", "%(count)s rounds left.", left) % {"count": left}]
    said = []
    if "clinched" in statuses:
        said.append((_("“%(badge)s”: sure to go through whatever happens") if advance
                     else _("“%(badge)s”: sure to win whatever happens"))
                    % {"badge": _("goes through") if advance else pgettext("need badge", "wins")})
    if "eliminated" in statuses:
        said.append((_("“%(badge)s”: can no longer go through") if advance
                     else _("“%(badge)s”: can no longer win")) % {"badge": _("out of reach")})
    if "open" in statuses:
        said.append((_("“%(badge)s”: more than N more points take the player through, whatever the others do")
                     if advance else
                     _("“%(badge)s”: more than N more points make the player a winner, whatever the others do"))
                    % {"badge": _("sure with more than %(points)s") % {"points": "+N"}})
    return " ".join(parts) + " " + "; ".join(said) + "."


def rounds_left(snapshot: Snapshot, stage: Stage) -> int | None:
    """Rounds of the stage still to play: those planned but not finished (a round in play counts whole, which
    only widens the outcomes: a "safe" or an "out" stays true). None: the stage's length is not known, or it is
    over."""
    if stage.closed or not stage.planned_rounds:
        return None
    finished = sum(1 for r in snapshot.rounds if r.stage.pk == stage.pk and r.finished)
    left = stage.planned_rounds - finished
    return left if left > 0 else None


def needs_of(snapshot: Snapshot, stage: Stage) -> dict[str, Need] | None:
    """Each ranked player's answer while the stage has rounds to play and its standings are public: computed once
    per results version by one worker and shared (``model_cache.shared``)."""
    left = rounds_left(snapshot, stage)
    if snapshot.hidden or left is None:
        return None
    return model_cache.shared(snapshot.tournament, snapshot.kept, f"needs:{stage.ext_id}:{left}",
                              lambda: compute_needs(snapshot, stage, left))


def compute_needs(snapshot: Snapshot, stage: Stage, left: int) -> dict[str, Need]:
    target = "advance"
    try:
        answer: dict[str, Any] = needs(snapshot.model, stage.ext_id, target, left)
    except NoTarget:  # nobody goes on from this stage (a final): who wins it
        target = "win"
        answer = needs(snapshot.model, stage.ext_id, target, left)
    return {str(e["player"]): Need(str(e["status"]), target, raw_or_none(e.get("to_clinch")),
                                   raw_or_none(e.get("to_keep_chance")))
            for e in answer["players"]}


def raw_or_none(value: object) -> str | None:
    return None if value is None else str(value)
