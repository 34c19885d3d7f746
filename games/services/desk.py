"""The chief judge's desk: a round's tables as cards with their protocols' states, the waiting ones first.

A card's state: ``not_started`` (no protocol yet), ``in_play`` (a draft), ``submitted`` (waiting for the chief
judge), ``confirmed``, ``protested`` (a protest not decided yet, whatever the protocol's state). Cards come in
that order of urgency: submitted (the oldest submission first), protested, in play, not started, confirmed; by
table number within each. Five queries whatever the round's size (plus, under four-eyes confirmation, one a
waiting protocol to say who may not confirm it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from django.db.models import Count, Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from judges.models import Judge
from judges.services.allocation import allocation, judge_label
from tournaments.labels import local_number
from tournaments.models import Round, Tournament

from ..models import Game, GameSeat, GameState, ProtestDecision
from ..words import awarded_words

STATES: dict[str, Promise] = {
    "submitted": _("submitted"),
    "protested": _("protested"),
    "in_play": pgettext_lazy("a table's state on the chief judge's desk", "in play"),
    "not_started": _("not started"),
    "confirmed": _("confirmed"),
}
ORDER = {state: index for index, state in enumerate(STATES)}


@dataclass
class Card:
    table_pk: int
    number: int
    state: str
    game: Game | None
    judge: str
    open_protests: int
    refusal: str | None = None  # why this user may not confirm it (four-eyes)
    holds: list[tuple[str | Promise, str]] = field(default_factory=list)  # what the protocol says, in words (``holds``)

    @property
    def label(self) -> str:
        return str(STATES[self.state])

    @property
    def waiting_since(self) -> datetime | None:
        return self.game.submitted_at if self.game is not None and self.state == "submitted" else None


def rounds_of(tournament: Tournament) -> list[Round]:
    """The published rounds, in playing order."""
    return list(Round.objects.published().filter(stage__tournament=tournament).select_related("stage")
                .order_by("stage__order", "number"))


def current_round(rounds: list[Round]) -> Round | None:
    """The round being played: the last published one."""
    return rounds[-1] if rounds else None


def state_of(game: Game | None, open_protests: int) -> str:
    if open_protests:
        return "protested"
    if game is None:
        return "not_started"
    if game.state == GameState.DRAFT:
        return "in_play"
    return "submitted" if game.state == GameState.SUBMITTED else "confirmed"


def cards(round_: Round) -> list[Card]:
    """The round's cards, the most urgent first."""
    open_protest = Q(protests__decision__isnull=True) | Q(protests__decision=ProtestDecision.PENDING)
    games = {g.table_id: g for g in Game.objects.filter(table__round=round_).select_related("submitted_by")
             .annotate(open_protests=Count("protests", filter=open_protest))}
    judges = allocation(round_)
    names = {j.pk: judge_label(j) for j in Judge.objects.filter(pk__in=set(judges.values())).select_related("user")}
    seats: dict[int, list[GameSeat]] = {}
    for row in GameSeat.objects.filter(game__in=list(games.values())).select_related("seat").order_by("seat__number"):
        seats.setdefault(row.game_id, []).append(row)
    out = []
    for table in round_.tables.order_by("number"):
        game = games.get(table.pk)
        protests = getattr(game, "open_protests", 0) if game is not None else 0
        out.append(Card(table.pk, table.number, state_of(game, protests), game,
                        names.get(judges.get(table.number, 0), ""), protests,
                        holds=holds(game, seats.get(game.pk, [])) if game is not None else []))
    def urgency(card: Card) -> tuple[int, float, int]:
        since = card.waiting_since
        return ORDER[card.state], since.timestamp() if since else 0.0, card.number

    return sorted(out, key=urgency)


def holds(game: Game, seats: list[GameSeat]) -> list[tuple[str | Promise, str]]:
    """What the chief judge checks before confirming, in words: the winner, the first killed's best move and who
    was named best (each adds points), the fouls, who left and how, the subjective marks and extra points given
    (seat: value)."""
    winner = str(game.get_winner_display()) if game.winner else ""
    lines: list[tuple[str | Promise, str]] = [(_("Winner"), winner or "—")]
    if game.best_move:
        lines.append((_("Best move: named black"), ", ".join(str(n) for n in sorted(game.best_move))))
    best = [str(row.seat.number) for row in seats if row.best]
    if best:
        lines.append((_("Named best"), ", ".join(best)))
    if game.awarded:
        lines.append((_("Win awarded"), awarded_words(game.awarded, winner)))
    fouls = [f"{row.seat.number}: {row.fouls}" for row in seats if row.fouls]
    lines.append((_("Fouls"), "; ".join(fouls) or "—"))
    warnings = [f"{row.seat.number}: {len(row.warning_reasons)}" for row in seats if row.warning_reasons]
    if warnings:
        lines.append((_("Verbal warnings"), "; ".join(warnings)))
    left = [f"{row.seat.number} ({row.get_left_display()})" for row in seats if row.left]
    lines.append((_("Left the table"), ", ".join(left) or "—"))
    marks = [f"{row.seat.number}: {local_number(Fraction(row.subjective))}" for row in seats
             if row.subjective is not None and row.subjective != 0]
    if marks:
        lines.append((_("SP"), "; ".join(marks)))
    extras = [f"{row.seat.number}: {local_number(Fraction(row.extra))}" for row in seats if row.extra]
    if extras:
        lines.append((_("Extra points"), "; ".join(extras)))
    return lines


def counts(found: list[Card]) -> list[tuple[str, str, int]]:
    """(state, its label, how many cards) for every state, in the desk's order."""
    by_state = Counter(card.state for card in found)
    return [(state, str(label), by_state[state]) for state, label in STATES.items()]
