"""The ruleset's parameters in words, for the public rules page (issue 16).

``describe(ruleset, stages)`` gives one sentence per parameter that applies to the ruleset (every parameter of
``scoring.params.PARAM_NAMES`` but ``ruleset.not_applicable``), in the active language, with the numbers written
as the reader writes them (a decimal comma and a real minus sign in Russian), whether the value differs from the
regulation's default, and then the default in words. First-night compensation (Ci) also works its numbers for
each stage. Pure functions over a ``scoring`` ruleset: no database; the view passes the stages and their rounds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from scoring.metrics import METRICS as SCORING_METRICS
from scoring.model import Role, Side, StageKind
from scoring.params import PARAM_NAMES, Params, ValueSet, WinPoints
from scoring.rulesets import Ruleset

from .labels import STAGE_KINDS, metric_label, param_label
from .labels import local_number as number

EXAMPLE_FIRST_KILLS = 2  # Ci's worked example: a player killed first in two games of the stage (fewer if it is short)


@dataclass(frozen=True)
class StageRounds:
    """A stage as Ci's example needs it: its name as the page shows it, and its rounds (Ci's N)."""

    name: str
    rounds: int


@dataclass(frozen=True)
class ParamWords:
    """One parameter in words: its code name and label, the sentence, the worked examples (Ci's stages),
    whether the tournament changed it, and then the regulation's default in words."""

    name: str
    label: str
    text: str
    changed: bool = False
    default: str = ""
    details: tuple[str, ...] = ()


def describe(ruleset: Ruleset, stages: Sequence[StageRounds] | None = None) -> list[ParamWords]:
    """Every parameter that applies to ``ruleset``, in ``PARAM_NAMES`` order. ``stages``: the tournament's
    stages and their rounds; None: the stages the regulation proposes (``stage_format``)."""
    if stages is None:
        stages = regulation_stages(ruleset)
    regulation = type(ruleset)(type(ruleset).defaults)
    out = []
    for name in PARAM_NAMES:
        if name in ruleset.not_applicable:
            continue
        text, details = SENTENCES[name](ruleset, stages)
        changed = getattr(ruleset.params, name) != getattr(regulation.params, name)
        default = SENTENCES[name](regulation, ())[0] if changed else ""
        out.append(ParamWords(name, capfirst(param_label(name)), text, changed, default, tuple(details)))
    return out


def regulation_words(ruleset_class: type[Ruleset], name: str) -> str:
    """The regulation's own value of parameter ``name`` in one sentence (the parameters' form says it under a
    structured field, whose value is typed as JSON)."""
    return SENTENCES[name](ruleset_class(ruleset_class.defaults), ())[0]


def regulation_stages(ruleset: Ruleset) -> list[StageRounds]:
    """The qualifying, semifinal and final with the rounds the regulation proposes."""
    kinds = (StageKind.QUALIFYING, StageKind.SEMIFINAL, StageKind.FINAL)
    return [StageRounds(str(STAGE_KINDS[kind]), ruleset.stage_format(kind).rounds) for kind in kinds]


# --- numbers and lists in the reader's language ------------------------------------------------------------


def signed(value: Fraction | int) -> str:
    text = number(value)
    return text if text.startswith("−") or value == 0 else f"+{text}"


def points(value: Fraction | int) -> str:
    """``2 points``, ``1 point``, ``0.5 points``; ``2 балла``, ``0,5 балла`` (a fraction takes the genitive)."""
    value = Fraction(value)
    if value.denominator == 1:
        return ngettext("%(points)s point", "%(points)s points", abs(value.numerator)) % {"points": number(value)}
    return pgettext("a fractional number of points", "%(points)s points") % {"points": number(value)}


def separator() -> str:
    """Between the items of a list: a comma in English, a semicolon in Russian, where a comma is a decimal one."""
    return pgettext("between the items of a list", ", ")


def one_of(words: Sequence[str]) -> str:
    if len(words) == 1:
        return words[0]
    return _("%(items)s or %(last)s") % {"items": separator().join(words[:-1]), "last": words[-1]}


def values(allowed: ValueSet) -> str:
    """``0, 0.5 or 1``; ``from −2 to 2 in steps of 0.5``; ``none``."""
    if allowed.minimum is not None and allowed.maximum is not None and allowed.step is not None:
        return _("from %(min)s to %(max)s in steps of %(step)s") % {
            "min": number(allowed.minimum), "max": number(allowed.maximum), "step": number(allowed.step)}
    if not allowed.values:
        return _("none")
    return one_of([number(v) for v in allowed.values])


def side_points(given: WinPoints, ruleset: Ruleset) -> str:
    """``2 points``, or per side: ``3 points as red, 4 points as black`` (the maniac where the tables have one)."""
    sides = [Side.RED, Side.BLACK]
    if Role.MANIAC in ruleset.special_roles or given.maniac:
        sides.append(Side.MANIAC)
    if len({given.for_side(side) for side in sides}) == 1:
        return points(given.red)
    as_side = {
        Side.RED: pgettext("points of a side", "%(points)s as red"),
        Side.BLACK: pgettext("points of a side", "%(points)s as black"),
        Side.MANIAC: pgettext("points of a side", "%(points)s as the maniac"),
    }
    return separator().join(as_side[side] % {"points": points(given.for_side(side))} for side in sides)


def role_subject(role: Role) -> str:
    """A player of the role as the subject of a sentence: ``a don``, ``a mafia player``."""
    return {
        Role.CIVILIAN: pgettext("role as a subject", "a civilian"),
        Role.SHERIFF: pgettext("role as a subject", "a sheriff"),
        Role.DOCTOR: pgettext("role as a subject", "a doctor"),
        Role.MAFIA: pgettext("role as a subject", "a mafia player"),
        Role.DON: pgettext("role as a subject", "a don"),
        Role.MANIAC: pgettext("role as a subject", "a maniac"),
        Role.GHOST: pgettext("role as a subject", "a ghost"),
        Role.MUSICIAN: pgettext("role as a subject", "a musician"),
        Role.ARTIST: pgettext("role as a subject", "an artist"),
        Role.THIEF: pgettext("role as a subject", "a thief"),
        Role.SCREENWRITER: pgettext("role as a subject", "a screenwriter"),
    }[role]


def chain_words(chain: Sequence[str]) -> str:
    """``wins, then times named best, then lots``: the metrics in order, lots last."""
    items = []
    for metric in chain:
        label = metric_label(metric)
        known = SCORING_METRICS.get(metric)
        if known is not None and known.fewer_ranks_higher:
            label = pgettext("tie-break metric", "%(metric)s (fewer ranks higher)") % {"metric": label}
        items.append(label)
    items.append(_("lots"))
    return pgettext("tie-break chain", ", then ").join(items)


# --- one sentence per parameter ------------------------------------------------------------------------------

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
