"""The judge's table screen for a phone: the whole game on one screen, one tap one saved change (htmx),
version-checked; the line-up, the taps, the extra points, the winner, and the submission with its confirmation."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.errors import Problem
from scoring.model import AwardRule
from scoring.rulesets import Ruleset
from tournaments.fields import exact_text
from tournaments.labels import local_number as number
from tournaments.mixins import signed_in
from tournaments.rules import ruleset_for, stage_multiplier

from ..extra_choices import extra_choices, extra_row, seat_extra_choices, sides_differ
from ..forms import role_choices, side_choices
from ..models import Game, GameState
from ..reasons import award_choices, consequences, foul_choices, removal_choices, warning_choices
from ..services import protocol as service
from ..services import stream
from ..services.facts import ProtocolFacts, breakdown, facts_of, problems, stage_context, tracks_days
from ..services.game_log import BLACK, proposed_winner, shooters
from ..services.lineup import LineupProblem, LineupRefused, save_lineup
from ..services.seat_taps import MAX_CIRCLES, set_extras
from ..services.table import Refusal, apply_tap, apply_taps, queued_taps, tap_from
from ..timers import timers
from ..words import awarded_words, entry_words, left_words, seat_names
from .base import grouped_problems
from .protocol import ProtocolBase

if TYPE_CHECKING:
    from base.users import User


@dataclass(frozen=True)
class Posted:
    """One action as the screen posts it: its fields, the version it was made on and the speech circle shown."""

    data: Mapping[str, Any]
    version: int
    circle: int

    @property
    def action(self) -> str:
        return str(self.data.get("action", ""))


@dataclass
class Answer:
    """What an action did: the protocol after it, what the screen says, the speech timer's start or stop, and whether
    the submission's summary is asked for."""

    game: Game
    said: str = ""
    speech: str = ""
    asking_submit: bool = False


class TableScreenView(ProtocolBase):
    template_name = "games/table.html"
    partial = "games/_screen.html"

    def get(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        game = self.load()
        if not isinstance(game, Game):
            return game
        return self.screen(game, self.template_name, "", "", roles=bool(request.GET.get("roles")))

    def screen(self, game: Game, template: str, said: str, error: str, status: int = 200, *,
               circle: int = 0, roles: bool = False, mode: str = "", posted_roles: dict[int, str] | None = None,
               lineup: list[LineupProblem] | None = None, asking_submit: bool = False,
               conflict: bool = False, speech: str = "", refused: list[tuple[int, str]] | None = None,
               posted_extras: dict[int, str] | None = None) -> HttpResponse:
        ruleset = ruleset_for(self.tournament)
        rows = list(game.seats.select_related("seat__participant__player").order_by("seat__number"))
        facts = facts_of(game, rows, removal_at=ruleset.foul_removal_at)
        points = breakdown(facts, ruleset, stage_multiplier(self.table.round.stage, ruleset),
                           stage_context(self.table, ruleset))
        names = seat_names([(row.seat.number, row.seat.participant) for row in rows])
        labels = dict(role_choices(ruleset))
        # The circle the judge chose by hand, or 0: the day's own, followed as the phase moves.
        circle = min(max(circle, 0), MAX_CIRCLES)
        marked = circle_marks(facts)
        circles = ruleset.params.circle_max_marks > 0
        chosen = posted_roles or {}
        flagged = {n for problem in lineup or () for n in problem.seats}
        draft = game.state == GameState.DRAFT
        # what still stands between the protocol and its submission, said where «Submit» would be
        missing = grouped_problems(submission_gaps(facts, ruleset)) if draft else []
        streamed = stream.streamed(self.tournament)
        subjective = tracks_days(ruleset)
        proposed = proposed_winner(facts) if draft else ""  # what the departures decide, for the judge to confirm
        proposed = "" if proposed == facts.winner else proposed
        if proposed and said:  # the tap that decided the game: the proposal where the judge looks (the dock)
            said = " ".join((said, _("The game log says: %(side)s won; confirm it below.") % {
                "side": dict(side_choices(ruleset)).get(proposed, "")}))
        return render(self.request, template, {
            "tournament": self.tournament, "table": self.table, "game": game, "facts": facts, "staff": self.staff,
            "seats": [(s, names[s.number], labels.get(s.role, ""), points.get(s.number), marked.get(s.number, []))
                      for s in facts.seats],
            "role_rows": [(s, names[s.number], chosen.get(s.number, s.role), s.number in flagged)
                          for s in facts.seats],
            "lineup": lineup or [],
            "needs_roles": draft and (roles or bool(lineup) or any(not s.role for s in facts.seats)),
            "role_choices": role_choices(ruleset),
            "lineup_roles": lineup_palette(ruleset, labels),
            "extra_sides": side_choices(ruleset) if ruleset.allows_extra_characters else [],
            "sides": side_choices(ruleset), "fouls": foul_choices(ruleset.id), "removals": removal_choices(ruleset.id),
            "warnings": warning_choices(ruleset.id) if ruleset.verbal_warnings else [],
            "awards": award_choices(ruleset.win_awards),
            "judge_awards": [code for code, rule in ruleset.win_awards.items() if rule is AwardRule.JUDGE],
            "awarded": awarded_words(facts.awarded, dict(side_choices(ruleset)).get(facts.winner, "")),
            "consequences": consequences(ruleset.id),
            "extra": ruleset.params.extra_max_players > 0, "extra_choices": bool(extra_choices(ruleset)),
            # a refused form shows the values the judge chose, not the saved ones, open
            "extra_rows": [extra_row(s.number, s.extra, choices, (posted_extras or {}).get(s.number))
                           for s, choices in zip(facts.seats, seat_extra_choices(ruleset, facts), strict=True)],
            "extras_open": posted_extras is not None, "extras_differ": sides_differ(ruleset),
            "subjective": subjective, "sp_chips": sp_chips(ruleset),
            "subjective_missing": [s.number for s in facts.seats if subjective and s.subjective is None],
            "circles": circles, "circle": circle,
            "mode": mode if mode in dict(modes(ruleset, streamed)) else "foul", "modes": modes(ruleset, streamed),
            "streamed": streamed, "speaking": stream.speaker(game) if streamed else None, "speech": speech,
            # by hand: every circle marked or spoken so far, and the next one
            "circle_numbers": range(1, min(max(len(facts.circles), facts.day) + 1, MAX_CIRCLES) + 1) if circles else (),
            "circle_today": min(facts.day, MAX_CIRCLES),
            "said": said, "error": error, "conflict": conflict, "editable": draft, "missing": missing,
            "missed_nights": ruleset.params.missed_nights_points != 0,
            "refused": json.dumps(refused, ensure_ascii=False) if refused else "",
            "asking_submit": asking_submit and draft,
            "summary": summary(facts, dict(side_choices(ruleset)), ruleset) if asking_submit else [],
            "first_killed": facts.derived_first_killed(),
            "left_words": {s.number: left_words(s.left, s.left_number) for s in facts.seats if s.left},
            "timers": timers(ruleset.id),
            "proposed": proposed, "proposed_label": dict(side_choices(ruleset)).get(proposed, ""),
            "shooters": shooter_choices(facts, labels),
            "vote_counts": range(0, len(facts.seats) + 1),
            "missed_derived": any(e["kind"] == "shot" for e in facts.log),
            "log_lines": [entry_words(e, {s.number: s.role for s in facts.seats},
                                      {s.number: s.side for s in facts.seats}) for e in reversed(facts.log)],
        }, status=status)

    def post(self, request: HttpRequest, slug: str, table: int) -> HttpResponseBase:
        """Parse → tap → service → render: the phone's queue of taps, or one posted action (``ACTIONS``; any other
        is a tap, ``tap_from``), each a service call under the protocol's lock; the screen comes back current."""
        game = self.load()
        if not isinstance(game, Game):
            return game
        template = self.partial if request.htmx else self.template_name  # type: ignore[attr-defined]
        data = request.POST
        if "taps" in data:
            return self.queued(game, template, data["taps"])
        try:
            posted = Posted(data, int(data.get("version", "")), int(str(data.get("circle") or 0)))
            if data.get("seat"):
                int(data["seat"])
        except ValueError:
            return self.screen(game, template, "", _("The request is incomplete; reload the page."), 400)
        handler = self.ACTIONS.get(posted.action, TableScreenView.tap)
        error, status, roles, lineup = "", 200, None, []
        try:
            answer = handler(self, game, posted)
        except LineupRefused as refused:  # nothing saved; every role chosen stays, the seats to fix marked
            answer, error, status, roles, lineup = Answer(game), str(refused), 400, refused.roles, refused.problems
        except service.VersionConflict as conflict:
            answer, error, status = Answer(game), str(conflict), 409
        except service.ProtocolRejected as rejected:
            answer, error, status = Answer(game), " ".join(grouped_problems(rejected.problems)), 400
        except (service.ProtocolError, stream.StreamError) as refused:
            answer, error, status = Answer(game), str(refused), 400
        if answer.asking_submit:
            return self.screen(answer.game, template, "", "", circle=posted.circle, asking_submit=True)
        if error and posted.action == "roles" and roles is None:
            roles = {n: data.get(f"s{n}_role", "") for n in range(1, 13) if f"s{n}_role" in data}
        extras = ({n: str(data[f"x{n}"]) for n in range(1, 13) if f"x{n}" in data}
                  if error and posted.action == "extras" else None)
        game = answer.game
        game.refresh_from_db()
        if not request.htmx:  # type: ignore[attr-defined]
            if not error:
                return redirect("games:table", slug=slug, table=table)
            return self.screen(game, template, answer.said, error, status, circle=posted.circle, mode=posted.action,
                               posted_roles=roles, lineup=lineup, roles=posted.action == "roles",
                               posted_extras=extras)
        # htmx swaps 200 answers only: the screen always comes back current, saying what happened.
        return self.screen(game, template, answer.said, error, circle=posted.circle, mode=posted.action,
                           posted_roles=roles, lineup=lineup, roles=bool(error) and posted.action == "roles",
                           conflict=status == 409, speech=answer.speech, posted_extras=extras)

    def roles(self, game: Game, posted: Posted) -> Answer:
        game = save_lineup(game, self.user, posted.version, posted.data, ruleset_for(self.tournament))
        return Answer(game, _("Roles are saved."))

    def extras(self, game: Game, posted: Posted) -> Answer:
        game = service.change(game, self.user, posted.version, lambda facts: set_extras(facts, posted.data))
        return Answer(game, _("Extra points are saved."))

    def speaking(self, game: Game, posted: Posted) -> Answer:
        if not posted.data.get("seat"):
            raise service.ProtocolError(_("Choose a seat."))
        now = stream.set_speaker(game, int(posted.data["seat"]))
        if now is None:
            return Answer(game, _("Nobody is marked as speaking."), speech="stop")
        return Answer(game, _("Seat %(n)s is speaking.") % {"n": now}, speech="start")  # the phone's timer follows

    def submit_ask(self, game: Game, posted: Posted) -> Answer:
        game.refresh_from_db()
        return Answer(game, asking_submit=True)

    def submit(self, game: Game, posted: Posted) -> Answer:
        game = service.submit(game, self.user, posted.version)
        return Answer(game, _("The protocol is submitted. The chief judge confirms it; you can no longer change it."))

    def confirm(self, game: Game, posted: Posted) -> Answer:
        game = service.confirm(game, self.staff, self.user, posted.version)
        return Answer(game, _("The protocol is confirmed and locked."))

    def tap(self, game: Game, posted: Posted) -> Answer:
        game, said = apply_tap(game, self.user, posted.version, tap_from(posted.data), ruleset_for(self.tournament))
        return Answer(game, said)

    @property
    def user(self) -> User:
        return signed_in(self.request)

    ACTIONS: ClassVar[dict[str, Callable[[TableScreenView, Game, Posted], Answer]]] = {
        "roles": roles, "extras": extras, "speaking": speaking, "submit_ask": submit_ask, "submit": submit,
        "confirm": confirm,
    }

    def queued(self, game: Game, template: str, taps_json: str) -> HttpResponse:
        """The phone's queue of taps (``static/js/table-screen.js``), saved in the order they were made; the screen
        comes back current, with each refused tap's place in the batch and the reason (``data-refused``)."""
        try:
            taps = queued_taps(taps_json)
        except ValueError:
            return self.screen(game, template, "", _("The request is incomplete; reload the page."), 400)
        game, said, refused = apply_taps(game, signed_in(self.request), taps, ruleset_for(self.tournament))
        game.refresh_from_db()
        reasons = [(refusal.index, refusal_text(refusal)) for refusal in refused]
        return self.screen(game, template, said, " ".join(dict.fromkeys(text for _, text in reasons)),
                           circle=taps[-1].tap.circle, mode=taps[-1].tap.action, refused=reasons,
                           conflict=any(isinstance(r.error, service.VersionConflict) for r in refused))


def circle_marks(facts: ProtocolFacts) -> dict[int, list[tuple[int, str]]]:
    """Each seat's marks of every speech circle, (circle, "best" or "worst") in circle order: a card shows them all,
    so a mark of an earlier circle stays in sight once the circle has moved on."""
    found: dict[int, list[tuple[int, str]]] = {}
    for k, marks in enumerate(facts.circles, start=1):
        for kind in ("best", "worst"):
            for n in marks.get(kind, ()):
                found.setdefault(n, []).append((k, kind))
    return {n: sorted(found[n]) for n in found}


def refusal_text(refusal: Refusal) -> str:
    if isinstance(refusal.error, service.ProtocolRejected):
        return " ".join(grouped_problems(refusal.error.problems))
    return str(refusal.error)


def sp_chips(ruleset: Ruleset) -> list[tuple[str, str]]:
    """The subjective marks a judge gives most, one tap each, (value, shown): the regulation's range by halves
    (tomsk: −3 … 3), 0 among them, so an SP given to the wrong seat is undone with one tap; empty where no SP is
    recorded."""
    p = ruleset.params
    if not tracks_days(ruleset) or p.sp_max - p.sp_min > 8:
        return []
    halves = range(int(p.sp_min * 2), int(p.sp_max * 2) + 1)
    return [(exact_text(Fraction(k, 2)), number(Fraction(k, 2))) for k in halves if p.sp_min <= k / 2]


LINEUP_ORDER = ("don", "mafia", "sheriff", "doctor", "maniac")  # the order a judge reads the cards out in


def lineup_palette(ruleset: Ruleset, labels: dict[str, Any]) -> list[tuple[str, str, int]]:
    """The special roles a judge taps onto seats, in order, with how many the table has: (role, label, count);
    every seat left without one is a civilian."""
    expected = {str(role): count for role, count in ruleset.expected_roles().items() if count}
    order = [role for role in LINEUP_ORDER if role in expected]
    order += sorted(role for role in expected if role not in order and role != "civilian")
    return [(role, str(labels.get(role, role)), expected[role]) for role in order]


def submission_gaps(facts: ProtocolFacts, ruleset: Ruleset) -> list[Problem]:
    """What the protocol lacks to be submitted; before the winner is chosen, also what the seats will lack whoever
    wins (tomsk's SP and days), so the judge sees the whole list at once, not after tapping the winner."""
    found = problems(facts, ruleset, need_result=True)
    if facts.winner or not found:
        return found
    whoever: list[Problem] | None = None
    for side in ("red", "black"):
        trial = copy.deepcopy(facts)
        trial.winner = side
        seats = [p for p in problems(trial, ruleset, need_result=True) if p.location.seat is not None]
        whoever = seats if whoever is None else [p for p in whoever if p in seats]
    return found + (whoever or [])


def modes(ruleset: Ruleset, streamed: bool = False) -> list[tuple[str, str]]:
    """What a tap on a seat can do under this regulation, as the row of choices above the seats; "Speaking" (for
    the stream overlay) first when the tournament is streamed."""
    found = [("speaking", _("Speaking"))] if streamed else []
    found += [("foul", _("Foul")), ("unfoul", _("Take back a foul"))]
    if ruleset.verbal_warnings:  # a warning apart from the remarks, where the regulation names one
        found += [("warn", _("Verbal warning")), ("unwarn", _("Take back a warning"))]
    found += [("voted", _("Voted out")), ("killed", _("Killed")), ("remove", _("Removed")),
              ("back", _("Back at the table"))]
    if ruleset.win_awards:  # the cases where the regulation awards the win to the other side
        found.append(("award", _("Win awarded")))
    p = ruleset.params
    if p.best_move_civilian or p.best_move_sheriff:  # the best move earns points under this regulation
        found.append(("best_move", _("Best move: named black")))
    if "best" in {*ruleset.chain(1, 0), *ruleset.chain(0, 1)}:  # "times named best" breaks its ties
        found.append(("best", _("Named best")))
    if ruleset.params.circle_max_marks > 0:
        found += [("circle_best", _("Circle: best")), ("circle_worst", _("Circle: worst"))]
    if tracks_days(ruleset):
        found.append(("subjective", _("Jury's mark")))
    # the game log, optional: one tap an event
    roles = {role.value for role in ruleset.special_roles}
    found += [("nominated", _("Nominated")), ("votes", _("Votes")), ("shot", _("Shot"))]
    if "don" in roles:
        found.append(("don_check", _("Don checks")))
    if "sheriff" in roles:
        found.append(("sheriff_check", _("Sheriff checks")))
    if "doctor" in roles:
        found.append(("heal", _("Doctor heals")))
    return [(value, str(text)) for value, text in found]


def shooter_choices(facts: ProtocolFacts, labels: dict[str, Any]) -> list[tuple[str, str, bool]]:
    """Who a night's shot is by, as the judge chooses it: the whole mafia (every black player at the table agreed),
    then each black player and maniac alone; (value, shown, still at the table). The choices stay put through the
    game (a tap is read as the judge saw the screen); the server refuses a shot by a player who has left."""
    black, maniacs = shooters(facts)
    here = {*black, *maniacs}
    seats = [s.number for s in facts.seats if s.role in BLACK] + [s.number for s in facts.seats if s.role == "maniac"]
    # the first choice is whoever shoots tonight: the whole mafia, or once no mafioso is left, the maniac
    first = str(_("the whole mafia")) if black or len(maniacs) != 1 else f"{maniacs[0]} {labels.get('maniac', '')}"
    found = [("", first.strip(), bool(black or maniacs))] if any(s.role in BLACK for s in facts.seats) else []
    return found + [(str(n), f"{n} {labels.get(facts.seat(n).role, '')}".strip(), n in here) for n in seats]


def summary(facts: ProtocolFacts, side_labels: dict[str, Any], ruleset: Ruleset) -> list[tuple[str, str]]:
    """What the judge confirms before submitting, in words: every mark the regulation gives points for (tomsk's
    subjective marks, zvezdy's circle marks), none it has not (tomsk has no extra points)."""
    lines = [(_("Winner"), str(side_labels.get(facts.winner, _("not recorded"))))]
    first = facts.derived_first_killed()
    lines.append((_("Killed in the first night"), str(first) if first else "—"))
    if facts.best_move:
        lines.append((_("Best move: named black"), ", ".join(str(n) for n in sorted(facts.best_move))))
    best = [s.number for s in facts.seats if s.best]
    if best:
        lines.append((_("Named best"), ", ".join(str(n) for n in best)))
    removed = [s.number for s in facts.seats if s.removed]
    lines.append((_("Removed"), ", ".join(str(n) for n in removed) or "—"))
    p = ruleset.params
    if p.extra_max_players:
        extras = [f"{s.number}: {number(s.extra)}" for s in facts.seats if s.extra]
        lines.append((_("Extra points"), "; ".join(extras) or "—"))
    if p.sp_min != 0 or p.sp_max != 0:
        marks = [f"{s.number}: {'+' if s.subjective > 0 else ''}{number(s.subjective)}"
                 for s in facts.seats if s.subjective]
        unmarked = sum(1 for s in facts.seats if s.subjective is None)
        said = "; ".join(marks) or "—"
        if unmarked:
            said += " " + ngettext("(%(n)s seat without a mark)", "(%(n)s seats without a mark)", unmarked) % {
                "n": unmarked}
        lines.append((_("Subjective marks (SP)"), said))
    if p.circle_max_marks:
        for index, circle in enumerate(facts.circles, start=1):
            lines.append((_("Circle %(n)s") % {"n": index}, "; ".join(part for part in (
                _("best %(seats)s") % {"seats": ", ".join(map(str, circle.get("best", [])))}
                if circle.get("best") else "",
                _("worst %(seats)s") % {"seats": ", ".join(map(str, circle.get("worst", [])))}
                if circle.get("worst") else "") if part) or "—"))
    fouls = [f"{s.number}: {s.fouls}" for s in facts.seats if s.fouls]
    lines.append((_("Fouls"), "; ".join(fouls) or "—"))
    warnings = [f"{s.number}: {len(s.warning_reasons)}" for s in facts.seats if s.warning_reasons]
    if warnings:
        lines.append((_("Verbal warnings"), "; ".join(warnings)))
    if facts.awarded:
        lines.append((_("Win awarded"), awarded_words(facts.awarded, side_labels.get(facts.winner, ""))))
    return lines
