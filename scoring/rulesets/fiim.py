"""``fiim``: the Zelenograd open championship under FIIM scoring, docs/rules/fiim.md."""

from __future__ import annotations

from fractions import Fraction

from ..model import AwardRule, Role, SeatingMethod, StageKind
from ..params import Params, ValueSet, WinPoints
from .base import Ruleset, StageFormat, register


@register
class Fiim(Ruleset):
    """Zelenograd open championship, FIIM scoring: 2 points a win, best move, extra points.

    - Table: 1 don, 2 mafia, 1 sheriff, 6 civilians.
    - Win: 2 points for every player of the winning side, red or black.
    - Best move of the player killed in the first night: a civilian who names 3 blacks gets
      +0.5, 2 blacks +0.25; a sheriff who names 3 blacks +0.25 (2: nothing); a black player
      nothing. So a first-killed civilian of a winning city who named 2 blacks has 2.25.
    - Judges' extra points: at most 2 players per game; a winner gets 0 or 1, a loser 0 or 0.5.
      "Named best" for the tie-break is the naming itself, a seat with ``best: true`` (ranking 2: the
      table's judges name the best players); extra points are not a naming.
    - Three nights in a row with nobody leaving: the city wins (``winner: red``).
    - Missing a round (4.): −2. Missing 2 rounds or more (5.): still ranked, but not eligible
      (no award, not a winner); such a player still advances if their rank allows [ours: the
      regulation bars them from the awards only]. In the final, whose places are the awards, they
      rank after every eligible player [ours], so no result lists them above a winner.
    - Disqualification (judges' decisions, 2): the panel may bar a player from taking any further
      part. [ours] Their games played stand for the others (points, tie-breaks); they are listed
      after all the others without a place, never advance (the next player takes the slot), win
      nothing and receive no award.
    - Format (1.–3.): 70 players at 7 tables; qualifying 7 rounds (1–4 computer sample, i.e.
      ``balanced``; 5–7 ``swiss_tens``); top 30 → semifinal of 3 ``swiss_tens`` rounds; top 10 →
      final of 4 games at one table. Points are never reset.
    - Awards: the document names only the prize places (порядок определения призёров) and bars a player who
      missed 2 rounds or more from the awards (5.); it names no nomination, so the common ones are suggestions.
    - Tie-break: points → wins → times named best → wins as don → as sheriff → as mafia →
      times killed in the first night (more ranks higher) → lots.
    - Participants ("main provisions" 1.): 70. A new tournament proposes a cap of 70 accepted
      participants, which the organizer may change or remove [ours: the document states the
      number, not what happens to a 71st; we refuse them rather than make them guests].
    - Judges' decisions (6.): "not subject to appeal", so a tournament takes no protests unless
      its organizer turns them on (then any time, no window: the document sets none).
    - The judging panel (1.) judges; none of the judges plays [ours: as kostroma 3.1, the document
      does not allow a judge to play, so we refuse it as for every ruleset].
    """

    id = "fiim"
    name = "FIIM scoring (Zelenograd open championship)"
    regulation = "003_cfd5dcfffaa54eb5.txt"
    defaults = Params(
        table_size=10,
        win_points=WinPoints.same(2),
        removal_points=Fraction(0),
        absence_points=Fraction(-2),
        ineligible_after_absences=2,
        bye_points=Fraction(0),
        max_byes=None,
        extra_max_players=2,
        extra_values_winner=ValueSet.of(0, 1),
        extra_values_loser=ValueSet.of(0, "0.5"),
        extra_total_max=None,
        best_move_civilian={2: Fraction(1, 4), 3: Fraction(1, 2)},
        best_move_sheriff={3: Fraction(1, 4)},
        circle_best_points=Fraction(0),
        circle_worst_points=Fraction(0),
        circle_max_marks=0,
        missed_nights_points=Fraction(0),
        final_multiplier=Fraction(1),
        day_points=Fraction(0),
        sp_min=Fraction(0),
        sp_max=Fraction(0),
        max_winners=None,
    )
    special_roles = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1}
    tiebreaks = ("wins", "best", "don_wins", "sheriff_wins", "mafia_wins", "first_killed")
    # The note after the list of remarks: a third remark costs the speech of this circle (or of the next one if
    # the player has spoken); "main nuances" 7 and the list of removals: four remarks remove the player.
    foul_silence_at = 3
    foul_removal_at = 4
    # "За создание искусственных ситуаций (монстры) победа присуждается противоположной команде" (after the list of
    # removals): players who earn remarks on purpose to leave the table lose the game for their side; "the judge
    # may award the result in a disputed situation as they decide" (judges' decisions 5). Its "3rd warning" is the
    # 3rd remark (the note after the list of remarks): fiim has no verbal warning apart from remarks.
    win_awards = {"monsters": AwardRule.AGAINST, "disputed": AwardRule.JUDGE}
    protests_by_default = False  # "judges' decisions and sanctions" 6.
    participant_cap = 70  # "main provisions" 1.

    def stage_format(self, kind: StageKind) -> StageFormat:
        multiplier = self.multiplier_for(kind)
        if kind is StageKind.QUALIFYING:
            return StageFormat(("top", 30), reset=False, multiplier=multiplier, rounds=7, tables=7,
                               seating=(SeatingMethod.BALANCED,) * 4 + (SeatingMethod.SWISS_TENS,) * 3)
        if kind is StageKind.SEMIFINAL:
            return StageFormat(("top", 10), reset=False, multiplier=multiplier, rounds=3, tables=3,
                               seating=(SeatingMethod.SWISS_TENS,))
        return StageFormat(None, reset=False, multiplier=multiplier, rounds=4, tables=1,
                           seating=(SeatingMethod.BALANCED,))
