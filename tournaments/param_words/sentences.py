"""One sentence per ruleset parameter (``SENTENCES``, every name of ``scoring.params.PARAM_NAMES``), with the
worked examples of first-night compensation (Ci) for each stage.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.model import Role
from scoring.params import PARAM_NAMES, Params
from scoring.rulesets import Ruleset

from ..labels import local_number as number
from .phrases import chain_words, points, role_subject, separator, side_points, signed, values

EXAMPLE_FIRST_KILLS = 2  # Ci's worked example: a player killed first in two games of the stage (fewer if it is short)


@dataclass(frozen=True)
class StageRounds:
    """A stage as Ci's example needs it: its name as the page shows it, and its rounds (Ci's N)."""

    name: str
    rounds: int


Sentence = tuple[str, list[str]]


def _table_size(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.table_size
    return ngettext("%(n)s player sits at a table.", "%(n)s players sit at a table.", n) % {"n": n}, []


def _win_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _("A win gives each player of the winning side %(points)s.") % {
        "points": side_points(r.params.win_points, r)}, []


def _loss_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    given = r.params.loss_points
    if not (given.red or given.black or given.maniac):
        return _("A loss gives no points."), []
    return _("A loss gives each player of the losing side %(points)s.") % {"points": side_points(given, r)}, []


def _removal_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.removal_points
    if not value:
        return _("A removal from the table costs no points."), []
    return _("A player removed from the table gets %(points)s in that game.") % {"points": points(value)}, []


def _absence_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.absence_points
    if not value:
        return _("Missing a round costs no points."), []
    return _("A player gets %(points)s for each round they miss.") % {"points": points(value)}, []


def _ineligible_after_absences(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.ineligible_after_absences
    if n is None:
        return _("Missing rounds never bars a player from the prize places."), []
    return ngettext("A player who misses %(n)s round or more cannot take a prize place.",
                    "A player who misses %(n)s rounds or more cannot take a prize place.", n) % {"n": n}, []


def _bye_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.bye_points
    if not value:
        return _("A bye gives no points."), []
    return _("A bye gives %(points)s.") % {"points": points(value)}, []


def _max_byes(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.max_byes
    if n is None:
        return _("A player may get any number of byes."), []
    return ngettext("A player gets at most %(n)s bye in the tournament.",
                    "A player gets at most %(n)s byes in the tournament.", n) % {"n": n}, []


def _extra_max_players(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.extra_max_players
    if not n:
        return _("The judges give no extra points."), []
    return ngettext("The judges may give extra points to at most %(n)s player of a game.",
                    "The judges may give extra points to at most %(n)s players of a game.", n) % {"n": n}, []


def _extra_values_winner(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _("A player of the winning side may get these extra points: %(values)s.") % {
        "values": values(r.params.extra_values_winner)}, []


def _extra_values_loser(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _("A player of the losing side may get these extra points: %(values)s.") % {
        "values": values(r.params.extra_values_loser)}, []


def _extra_total_max(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.extra_total_max
    if value is None:
        return _("The extra points of one game have no limit in total."), []
    return _("The extra points of one game add up to at most %(points)s.") % {"points": points(value)}, []


def _best_move(table: Mapping[int, Fraction], none: str, some: str) -> Sentence:
    if not table:
        return none, []
    items = [ngettext("%(points)s for %(n)s of them", "%(points)s for %(n)s of them", n)
             % {"points": points(value), "n": n} for n, value in sorted(table.items())]
    return some % {"items": separator().join(items)}, []


def _best_move_civilian(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _best_move(r.params.best_move_civilian,
                      _("A civilian killed in the first night gets nothing for the best move."),
                      _("A civilian killed in the first night who names black players in the best move gets "
                        "%(items)s."))


def _best_move_sheriff(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _best_move(r.params.best_move_sheriff,
                      _("A sheriff killed in the first night gets nothing for the best move."),
                      _("A sheriff killed in the first night who names black players in the best move gets "
                        "%(items)s."))


def _circle_best_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.circle_best_points
    if not value:
        return _("A mark as the best of a speech circle gives no points."), []
    return _("Each mark as the best of a speech circle gives %(points)s.") % {"points": points(value)}, []


def _circle_worst_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.circle_worst_points
    if not value:
        return _("A mark as the worst of a speech circle gives no points."), []
    return _("Each mark as the worst of a speech circle gives %(points)s.") % {"points": points(value)}, []


def _circle_max_marks(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.circle_max_marks
    if not n:
        return _("The judges give no best or worst marks in speech circles."), []
    return ngettext("In each speech circle the judges mark at most %(n)s player as the best and %(n)s as the worst.",
                    "In each speech circle the judges mark at most %(n)s players as the best and %(n)s as the worst.",
                    n) % {"n": n}, []


def _missed_nights_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.missed_nights_points
    if not value:
        return _("Three missed nights of the mafia cost the black players no points."), []
    return _("When the mafia miss three nights, each black player gets %(points)s.") % {"points": points(value)}, []


def _final_multiplier(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.final_multiplier
    if value == 1:
        return _("The points of a final are not multiplied."), []
    return _("The points of a final are multiplied by %(x)s.") % {"x": number(value)}, []


def _day_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    value = r.params.day_points
    if not value:
        return _("Days survived give no points."), []
    return _("Each day survived gives %(points)s (the objective part of the rating).") % {"points": points(value)}, []


def _sp_min(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _("The jury's mark is at least %(mark)s.") % {"mark": number(r.params.sp_min)}, []


def _sp_max(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    return _("The jury's mark is at most %(mark)s.") % {"mark": number(r.params.sp_max)}, []


def _max_winners(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.max_winners
    if n is None:
        return _("The number of winners has no limit."), []
    return ngettext("At most %(n)s player wins the tournament.", "At most %(n)s players win the tournament.",
                    n) % {"n": n}, []


def _tiebreaks(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    p = r.params
    if p.tiebreaks is None:
        black_ahead, red_ahead = r.tiebreak_chain(1, 0), r.tiebreak_chain(0, 1)
        if black_ahead != red_ahead:  # zvezdy: the chain follows the tally of the sides' wins so far
            return _("If black has won at least as many games as red so far, ties are broken by %(first)s; "
                     "otherwise by %(second)s.") % {"first": chain_words(black_ahead),
                                                     "second": chain_words(red_ahead)}, []
        chain = black_ahead
    else:
        chain = p.tiebreaks
    return _("Ties are broken by %(chain)s.") % {"chain": chain_words(chain)}, []


def _role_points(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    given = r.params.role_points
    if not given:
        return _("No role gives points of its own beyond the result."), []
    items = []
    for role in Role:
        result = given.get(role)
        if result is None:
            continue
        numbers = {"role": role_subject(role), "win": signed(result.win), "loss": signed(result.loss)}
        if result.win and result.loss:
            items.append(_("%(role)s gets %(win)s for a win and %(loss)s for a loss") % numbers)
        elif result.win:
            items.append(_("%(role)s gets %(win)s for a win") % numbers)
        elif result.loss:
            items.append(_("%(role)s gets %(loss)s for a loss") % numbers)
        else:
            items.append(_("%(role)s gets nothing more") % numbers)
    return _("On top of the result, %(items)s.") % {"items": separator().join(items)}, []


def _ci_rate(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    p = r.params
    if not p.ci_rate:
        return _("There is no first-night compensation (Ci)."), []
    text = _("First-night compensation (Ci): a red player killed in the first night of a game the red side lost "
             "gets Ci = min(%(cap)s, %(rate)s × K / B) in that game, where K is the number of games of the stage "
             "in which they were killed first, and B is %(share)s of the stage's rounds, rounded half up, "
             "at least 1.") % {"cap": number(p.ci_limit), "rate": number(p.ci_rate), "share": number(p.ci_share)}
    return text, [ci_example(p, stage) for stage in stages if stage.rounds > 0]


def ci_example(p: Params, stage: StageRounds) -> str:
    """``Qualifying, 12 rounds, B = 5: a red player killed first in 2 games of the stage gets 0.16 in each of
    them the red side lost (0.4 × 2 / 5).`` B = max(1, round_half_up(0.4 × 12 = 4.8)) = 5."""
    n = stage.rounds
    b = p.ci_divisor(n)
    k = min(EXAMPLE_FIRST_KILLS, n)
    exact = p.ci_rate * k / b
    ci = min(p.ci_limit, exact)
    formula = f"{number(p.ci_rate)} × {k} / {b}"
    if exact > ci:
        formula = _("%(formula)s = %(exact)s, at most %(cap)s") % {
            "formula": formula, "exact": number(exact), "cap": number(p.ci_limit)}
    facts = ngettext("%(stage)s, %(n)s round, B = %(b)s", "%(stage)s, %(n)s rounds, B = %(b)s", n) % {
        "stage": capfirst(stage.name), "n": n, "b": b}
    example = ngettext(
        "a red player killed first in %(k)s game of the stage gets %(ci)s in it if the red side lost (%(formula)s).",
        "a red player killed first in %(k)s games of the stage gets %(ci)s in each of them the red side lost "
        "(%(formula)s).", k) % {"k": k, "ci": number(ci), "formula": formula}
    return f"{facts}: {example}"


def _unused_ci(text: str, r: Ruleset) -> str:
    if r.params.ci_rate:
        return text
    return _("%(text)s Not used: there is no first-night compensation.") % {"text": text}


def _ci_share(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    text = _("Ci's divisor B is %(share)s of the stage's rounds, rounded half up, at least 1.") % {
        "share": number(r.params.ci_share)}
    return _unused_ci(text, r), []


def _ci_cap(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    p = r.params
    if p.ci_cap is None and not p.ci_rate:
        text = _("Ci in one game is at most the rate.")
    elif p.ci_cap is None:
        text = _("Ci in one game is at most the rate, %(rate)s.") % {"rate": number(p.ci_rate)}
    else:
        text = _("Ci in one game is at most %(cap)s.") % {"cap": number(p.ci_cap)}
    return _unused_ci(text, r), []


def _rank_by(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    if r.params.rank_by == "average":
        return _("Players are ranked by their points per game played (the average)."), []
    return _("Players are ranked by their points."), []


def _min_games(r: Ruleset, stages: Sequence[StageRounds]) -> Sentence:
    n = r.params.min_games
    if not n:
        return _("Every player is ranked with the others, however few games they played."), []
    return ngettext("A player with fewer than %(n)s game is ranked after everyone else, in the same order.",
                    "A player with fewer than %(n)s games is ranked after everyone else, in the same order.",
                    n) % {"n": n}, []


SENTENCES: dict[str, Callable[[Ruleset, Sequence[StageRounds]], Sentence]] = {
    "table_size": _table_size,
    "win_points": _win_points,
    "removal_points": _removal_points,
    "absence_points": _absence_points,
    "ineligible_after_absences": _ineligible_after_absences,
    "bye_points": _bye_points,
    "max_byes": _max_byes,
    "extra_max_players": _extra_max_players,
    "extra_values_winner": _extra_values_winner,
    "extra_values_loser": _extra_values_loser,
    "extra_total_max": _extra_total_max,
    "best_move_civilian": _best_move_civilian,
    "best_move_sheriff": _best_move_sheriff,
    "circle_best_points": _circle_best_points,
    "circle_worst_points": _circle_worst_points,
    "circle_max_marks": _circle_max_marks,
    "missed_nights_points": _missed_nights_points,
    "final_multiplier": _final_multiplier,
    "day_points": _day_points,
    "sp_min": _sp_min,
    "sp_max": _sp_max,
    "max_winners": _max_winners,
    "tiebreaks": _tiebreaks,
    "loss_points": _loss_points,
    "role_points": _role_points,
    "ci_rate": _ci_rate,
    "ci_share": _ci_share,
    "ci_cap": _ci_cap,
    "rank_by": _rank_by,
    "min_games": _min_games,
}
assert set(SENTENCES) == set(PARAM_NAMES), "every parameter has its sentence"
