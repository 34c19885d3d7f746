"""The one source of the translated names of what ``scoring`` names by id (its own labels are English).

Every member of ``scoring.model``'s enums (sides, roles, stage kinds, seating methods, protest
decisions), every tie-break metric (``scoring.metrics.METRICS``), every part of a seat's points
(``scoring.rulesets.base.PART_NAMES``) and every parameter (``scoring.params.PARAM_NAMES``) has its
label here, once (``tests/tournaments/test_labels.py`` checks that none is missing). The model
fields' choices are built below from the scoring enums and these labels; games, public, paper and
the API import the labels and the choices from here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from enum import StrEnum
from fractions import Fraction
from typing import Any

from django.db import models
from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.formats import get_format
from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from scoring import model as m
from scoring.metrics import METRICS as SCORING_METRICS
from scoring.standings import StandingRow

from .fields import exact_text

SIDES: dict[m.Side, Promise] = {
    m.Side.RED: _("red"),
    m.Side.BLACK: _("black"),
    m.Side.MANIAC: _("maniac"),
}

ROLES: dict[m.Role, Promise] = {
    m.Role.CIVILIAN: _("civilian"),
    m.Role.SHERIFF: _("sheriff"),
    m.Role.DOCTOR: _("doctor"),
    m.Role.MAFIA: _("mafia"),
    m.Role.DON: _("don"),
    m.Role.MANIAC: _("maniac"),
    m.Role.GHOST: _("ghost"),
    m.Role.MUSICIAN: _("musician"),
    m.Role.ARTIST: _("artist"),
    m.Role.THIEF: _("thief"),
    m.Role.SCREENWRITER: _("screenwriter"),
}

STAGE_KINDS: dict[m.StageKind, Promise] = {
    m.StageKind.QUALIFYING: _("qualifying"),
    m.StageKind.SEMIFINAL: _("semifinal"),
    m.StageKind.FINAL: _("final"),
    m.StageKind.OTHER: _("other"),
}

SEATING_METHODS: dict[m.SeatingMethod, Promise] = {
    m.SeatingMethod.RANDOM: _("random"),
    m.SeatingMethod.BALANCED: _("balanced (computer sample)"),
    m.SeatingMethod.SWISS_TENS: _("Swiss by tens"),
    m.SeatingMethod.SWISS_ZVEZDY: _("Swiss, “Forward to the stars”"),
    m.SeatingMethod.SWISS_ZVEZDY_SPREAD: _("Swiss, “Forward to the stars”, draw with the fewest repeated meetings "
                                           "(the organizer's choice)"),
}

PROTEST_DECISIONS: dict[m.ProtestDecision, Promise] = {
    m.ProtestDecision.PENDING: _("pending"),
    m.ProtestDecision.UPHELD: _("upheld"),
    m.ProtestDecision.REJECTED: _("rejected"),
}

# Whom a regulation's awarded win names (``Ruleset.win_awards``).
AWARD_RULES: dict[m.AwardRule, Promise] = {
    m.AwardRule.AGAINST: _("against the players who caused it; the other side wins"),
    m.AwardRule.AGAINST_REMOVED: _("against a removed player who spoke or gestured; the other side wins"),
    m.AwardRule.JUDGE: _("the judge's decision, to either side"),
}

# Each scoring enum with its labels (by enum: a side and a role may share a value, "maniac").
ENUM_LABELS: dict[type[StrEnum], Mapping[Any, Promise]] = {
    m.Side: SIDES,
    m.Role: ROLES,
    m.StageKind: STAGE_KINDS,
    m.SeatingMethod: SEATING_METHODS,
    m.ProtestDecision: PROTEST_DECISIONS,
    m.AwardRule: AWARD_RULES,
}

# Tie-break metrics by id: the full name, and the short one of a standings column's head.
# A regulation's short name, where a message names it in passing ("FIIM expects 1", not "fiim expects 1").
RULESET_SHORT: dict[str, Promise] = {
    "tomsk": _("Tomsk"),
    "kostroma": _("Kostroma"),
    "fiim": _("FIIM"),
    "zvezdy": _("“Forward to the stars”"),
}


def ruleset_short(ruleset_id: str) -> str:
    return str(RULESET_SHORT.get(ruleset_id, ruleset_id))


METRICS: dict[str, Promise] = {
    "wins": _("wins"),
    "best": _("times named best"),
    "don_wins": _("wins as don"),
    "sheriff_wins": _("wins as sheriff"),
    "mafia_wins": _("wins as mafia"),
    "don_sheriff_wins": _("wins as don or sheriff"),
    "first_killed": _("times killed in the first night"),
    "extra": _("extra points"),
    "days_survived": _("days survived"),
    "red_points": _("points as red"),
    "black_points": _("points as black"),
    "sheriff_average": _("average as sheriff"),
    "don_average": _("average as don"),
    "head_to_head": _("head-to-head"),
    "points": _("points"),
    "points_average": _("points per game"),
    "games": _("games"),
    "losses": _("losses"),
    "red_wins": _("wins as red"),
    "black_wins": _("wins as black"),
    "removals": _("removals"),
    "penalties": _("penalties"),
    "extra_total": _("extra and best-move points"),
    "ci": _("first-night compensation"),
    "previous_stage_rank": _("place in the previous stage"),
}

METRIC_SHORT: dict[str, Promise] = {
    "wins": _("W"),
    "best": _("Best"),
    "don_wins": _("Don"),
    "sheriff_wins": _("Sher."),
    "mafia_wins": _("Maf."),
    "don_sheriff_wins": _("Don+Sh."),
    "first_killed": _("FK"),
    "extra": _("Extra"),
    "days_survived": _("Days"),
    "red_points": _("Red"),
    "black_points": _("Black"),
    "sheriff_average": _("Sh. avg"),
    "don_average": _("Don avg"),
    "head_to_head": _("H2H"),
    "points": _("Pts"),
    "points_average": _("Avg"),
    "games": _("G"),
    "losses": _("L"),
    "red_wins": _("W red"),
    "black_wins": _("W black"),
    "removals": _("Rem."),
    "penalties": _("Pen."),
    "extra_total": _("Extra+BM"),
    "ci": _("Ci"),
    "previous_stage_rank": _("Prev."),
}

# The parts of a seat's game points (``SeatPoints.parts``); "subjective" is tomsk's SP, the jury's mark.
PARTS: dict[str, Promise] = {
    "win": _("win"),
    "loss": _("loss"),
    "role": _("for the role"),
    "days": _("days survived"),
    "subjective": _("jury's mark"),
    "best_move": _("best move"),
    "extra": _("extra points"),
    "ci": _("first-night compensation"),
    "circles": _("circle marks"),
    "removal": _("removal"),
    "missed_nights": _("missed nights"),
}

# The ruleset parameters (``scoring.params``), as the rules page names them.
PARAMS: dict[str, Promise] = {
    "table_size": _("players at a table"),
    "win_points": _("points for a win"),
    "removal_points": _("points for a removal"),
    "absence_points": _("points for missing a round"),
    "ineligible_after_absences": _("not eligible after this many absences"),
    "bye_points": _("points for a bye"),
    "max_byes": _("most byes per player"),
    "extra_max_players": _("most players with extra points per game"),
    "extra_values_winner": _("extra points allowed to a winner"),
    "extra_values_loser": _("extra points allowed to a loser"),
    "extra_total_max": _("most extra points per game"),
    "best_move_civilian": _("best move of a civilian, by blacks named"),
    "best_move_sheriff": _("best move of a sheriff, by blacks named"),
    "circle_best_points": _("mark “best” of a circle"),
    "circle_worst_points": _("mark “worst” of a circle"),
    "circle_max_marks": _("most marks per circle"),
    "missed_nights_points": _("black players when mafia missed three nights"),
    "final_multiplier": _("final's multiplier"),
    "day_points": _("points per day survived"),
    "sp_min": _("lowest jury's mark"),
    "sp_max": _("highest jury's mark"),
    "max_winners": _("most winners"),
    "tiebreaks": _("tie-break chain"),
    "loss_points": _("points for a loss"),
    "role_points": _("points by role and result"),
    "ci_rate": _("first-night compensation: rate"),
    "ci_share": _("first-night compensation: share of the rounds"),
    "ci_cap": _("first-night compensation: most per game"),
    "rank_by": _("ranked by"),
    "min_games": _("fewest games to rank with the others"),
}


# The computed award kinds (``scoring.awards.KINDS``); a role without its own line reads "best <role>".
AWARD_KINDS: dict[str, Promise] = {
    "best_player": _("Best player of the tournament"),
    "most_best": _("Most times named best"),
    "best_role:don": _("Best don"),
    "best_role:sheriff": _("Best sheriff"),
    "best_role:mafia": _("Best mafia player"),
    "best_role:maniac": _("Best maniac"),
    "best_role:doctor": _("Best doctor"),
    "best_role:civilian": _("Best civilian"),
    "best_side:red": _("Best red player"),
    "best_side:black": _("Best black player"),
}


def award_label(kind: str) -> str:
    """The translated name of a computed award kind (a free-form award has its own title)."""
    if kind in AWARD_KINDS:
        return str(AWARD_KINDS[kind])
    if kind.startswith("best_role:") and kind[10:] in {role.value for role in m.Role}:
        return _("Best %(role)s") % {"role": ROLES[m.Role(kind[10:])]}
    return kind


def metric_label(metric: str) -> str:
    """The translated name of a tie-break metric (scoring's English one, or the id, if it had none)."""
    if metric in METRICS:
        return str(METRICS[metric])
    known = SCORING_METRICS.get(metric)
    return known.label if known is not None else metric


def part_label(name: str) -> str:
    return str(PARTS.get(name, name))


def param_label(name: str) -> str:
    return str(PARAMS.get(name, name))


# Tie-break metrics the standings already show in a column of their own (points, games, wins): not repeated.
SHOWN_APART = frozenset({"points", "games", "wins"})


def chain_columns(chain: tuple[str, ...] | list[str], rank_by: str = "points") -> list[str]:
    """The tie-break metrics that get a column in a standings table: the chain minus ``SHOWN_APART``, and minus
    ``points_average`` where the points per game rank the stage (``rank_by: "average"``: a column of its own,
    ``shows_average``)."""
    apart = SHOWN_APART | {"points_average"} if shows_average(rank_by) else SHOWN_APART
    return [metric for metric in chain if metric not in apart]


def shows_average(rank_by: str) -> bool:
    """Whether a standings table has the points per game column: where they rank the stage."""
    return rank_by == "average"


def local_number(value: Fraction | int | None, blank: str = "") -> str:
    """Points or a metric's value in the reader's number format: ``2.25``, ``2,25`` in Russian, ``−0,5``; a
    value no decimal writes exactly as the app writes it everywhere (the tournament file, the forms:
    ``tournaments.fields.exact_text``), ``4/15``, ``−2/3``, never rounded to ``0,266667``; ``blank`` for None."""
    if value is None:
        return blank
    text = exact_text(Fraction(value))
    return text.replace("-", "−").replace(".", str(get_format("DECIMAL_SEPARATOR")))


def local_moment(value: str | dt.datetime | None, blank: str = "") -> str:
    """A moment as the reader reads it: ``01.05.2025 15:20`` in the site's time zone (``TIME_ZONE``), for a
    datetime or an ISO text as a file writes it (``2025-05-01T12:20:00Z``); a text that is no ISO moment stays
    as it is (a file may write "after round 3"), a date alone is written as a date."""
    if value in (None, ""):
        return blank
    if isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return value
        if "T" not in value and " " not in value.strip() and len(value.strip()) == 10:
            return date_format(moment.date(), "d.m.Y")
    else:
        moment = value
    if timezone.is_naive(moment):
        moment = timezone.make_aware(moment)
    return date_format(timezone.localtime(moment), "d.m.Y H:i")


def short_of_games(row: StandingRow, min_games: int) -> bool:
    """A player with fewer games than ``min_games``, ranked after the others (the disqualified have their own
    note)."""
    return row.disqualified is None and row.tally.games < min_games


def short_of_games_note(min_games: int) -> str:
    return ngettext("fewer than %(count)s game: ranked after the others",
                    "fewer than %(count)s games: ranked after the others", min_games) % {"count": min_games}


def standing_note(row: StandingRow, absence_limit: int | None, min_games: int = 0) -> str:
    """What every standings table and result says beside a player who cannot take a place or is ranked apart
    (the same words on every page, print and export): disqualified with the reason, or not eligible for prize
    places (``absence_limit``: the ruleset's ``ineligible_after_absences``, the only cause today), and short of
    ``min_games`` (``short_of_games_note``)."""
    note = _eligibility_note(row, absence_limit)
    if short_of_games(row, min_games):
        return "; ".join(filter(None, (note, short_of_games_note(min_games))))
    return note


def _eligibility_note(row: StandingRow, absence_limit: int | None) -> str:
    if row.disqualified is not None:
        if not row.disqualified:
            return gettext("disqualified")
        return gettext("disqualified: %(reason)s") % {"reason": row.disqualified}
    if row.eligible:
        return ""
    if absence_limit is None:
        return gettext("not eligible for prize places")
    return ngettext("not eligible for prize places: missed %(count)s round or more",
                    "not eligible for prize places: missed %(count)s rounds or more",
                    absence_limit) % {"count": absence_limit}


def text_choices(enum: type[StrEnum]) -> Any:
    """The model field choices of a scoring enum: same member names and values, labels from here.

    ``Role.DON == "don"``, ``Role.DON.label``, ``Role.choices`` work as with a declared
    ``TextChoices`` class; a member without a label raises ``KeyError`` on import.
    """
    labels = ENUM_LABELS[enum]
    members = [(member.name, (member.value, labels[member])) for member in enum]
    # the functional form of TextChoices, which django-stubs does not declare
    return models.TextChoices(enum.__name__, members, module=__name__)  # type: ignore[call-overload]


Side = text_choices(m.Side)
Role = text_choices(m.Role)
StageKind = text_choices(m.StageKind)
SeatingMethod = text_choices(m.SeatingMethod)
ProtestDecision = text_choices(m.ProtestDecision)
