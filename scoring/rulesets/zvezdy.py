"""``zvezdy``: "Вперед к звездам", as read in docs/rules/zvezdy.md."""

from __future__ import annotations

from fractions import Fraction

from ..model import AwardRule, Role, SeatingMethod, StageKind
from ..params import Params, ValueSet, WinPoints
from .base import Ruleset, StageFormat, register


@register
class Zvezdy(Ruleset):
    """"Вперед к звездам": 5 points a win, per-circle marks, judge's mark, hidden standings.

    - Table: 1 don, 2 mafia, 1 sheriff, 6 civilians. Win 5, loss 0.
    - Per speech circle: up to 2 players named best get +1 each, up to 2 named worst −1 each,
      whether they won or lost.
    - Judge's mark at the end: ``extra`` from −2 to +2 in steps of 0.5 [ours: the step]; any
      number of players.
    - First killed: a civilian naming 2 blacks +2, 3 blacks +3; a sheriff only for 3, +3;
      a black first-killed player nothing.
    - Mafia missed three nights in a row: the city wins (``winner: red``) and every black
      player gets −3. Removal from the table: −3.
    - Bye (a table would be incomplete): +3 and no game that round, at most once per player
      in the whole tournament.
    - "Extra points" (доп. баллы, the Swiss key of the qualifying) = circle marks + judge's
      mark + best move [ours].
    - Format: qualifying 8 rounds (1–2 ``random``, 3–8 ``swiss_zvezdy`` by extra points);
      top 20 → semifinal of 4 ``swiss_zvezdy`` rounds by points; top 10 → final of 4 games,
      random seats. No reset. Standings are never announced until the organizer publishes.
    - Tie-break: points; then, if over the tournament so far black won at least as many games
      as red: points earned as red (civilian or sheriff) → average points per game as sheriff
      (0 if never) → head-to-head; otherwise points earned as black (mafia or don) → average
      per game as don → head-to-head. Head-to-head: for the group still tied at that step,
      each one's points in the games where they sat with at least one other member of the
      group, applied once; then lots.
    - Awards: the schedule names only "awarding the winners"; no nomination, so the common ones are suggestions.
    - Disqualification from the tournament: the document knows only the removal from a table (−3).
      [ours, the project's default] A player the organizer disqualifies keeps their games for the
      others (points, head-to-head); they are listed after all the others without a place, never
      advance (the next player takes the slot) and never win.
    - Protests and judges [ours: the document is silent]: protests are taken, with no window;
      a judge of the tournament cannot be its participant (as kostroma 3.1). No cap on the
      participants unless the organizer sets one.
    """

    id = "zvezdy"
    name = "Вперед к звездам (5-point wins, circle marks)"
    regulation = "004_3ff0f1bd8d656395.txt"
    defaults = Params(
        table_size=10,
        win_points=WinPoints.same(5),
        removal_points=Fraction(-3),
        absence_points=Fraction(0),
        ineligible_after_absences=None,
        bye_points=Fraction(3),
        max_byes=1,
        extra_max_players=10,
        extra_values_winner=ValueSet.range(-2, 2, "0.5"),
        extra_values_loser=ValueSet.range(-2, 2, "0.5"),
        extra_total_max=None,
        best_move_civilian={2: Fraction(2), 3: Fraction(3)},
        best_move_sheriff={3: Fraction(3)},
        circle_best_points=Fraction(1),
        circle_worst_points=Fraction(-1),
        circle_max_marks=2,
        missed_nights_points=Fraction(-3),
        final_multiplier=Fraction(1),
        day_points=Fraction(0),
        sp_min=Fraction(0),
        sp_max=Fraction(0),
        max_winners=None,
    )
    special_roles = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1}
    standings_hidden_by_default = True
    # Three remarks cost the current circle's speech (the next one if already spoken; 30 seconds at a table of
    # 3 or 4); four remarks remove the player (its list of removals).
    foul_silence_at = 3
    foul_removal_at = 4
    # "ЗАМЕЧАНИЯ В ИГРЕ": shouting and excessive gesturing are "preceded by a verbal remark" (устное замечание),
    # apart from the remarks counted; the document gives the warning itself no consequence.
    verbal_warnings = True
    # "Если игрок, удалённый из-за стола без права последнего слова, произносит что-либо или каким-либо образом
    # жестикулирует после своего удаления, присуждается победа противоположной команде."
    win_awards = {"removed_spoke": AwardRule.AGAINST_REMOVED}

    def tiebreak_chain(self, black_wins: int, red_wins: int) -> tuple[str, ...]:
        if black_wins >= red_wins:
            return ("red_points", "sheriff_average", "head_to_head")
        return ("black_points", "don_average", "head_to_head")

    tiebreaks = ("red_points", "sheriff_average", "head_to_head")

    def stage_format(self, kind: StageKind) -> StageFormat:
        multiplier = self.multiplier_for(kind)
        if kind is StageKind.QUALIFYING:
            return StageFormat(("top", 20), reset=False, multiplier=multiplier, rounds=8,
                               seating=(SeatingMethod.RANDOM,) * 2 + (SeatingMethod.SWISS_ZVEZDY,) * 6)
        if kind is StageKind.SEMIFINAL:
            return StageFormat(("top", 10), reset=False, multiplier=multiplier, rounds=4, tables=2,
                               seating=(SeatingMethod.SWISS_ZVEZDY,))
        return StageFormat(None, reset=False, multiplier=multiplier, rounds=4, tables=1,
                           seating=(SeatingMethod.RANDOM,))
