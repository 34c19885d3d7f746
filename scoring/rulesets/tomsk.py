"""``tomsk``: the Tomsk team championship, as read in docs/rules/tomsk.md."""

from __future__ import annotations

from fractions import Fraction

from .. import messages as M
from ..errors import Message, message
from ..model import Game, Role, Seat, SeatingMethod, StageKind
from ..numbers import format_number
from ..params import Params, ValueSet, WinPoints
from .base import AwardProposal, Ruleset, StageFormat, register


@register
class Tomsk(Ruleset):
    """Tomsk team championship: tables of 12 with a maniac; rating per game HP = OP + SP.

    - Table (docs/rules/tomsk.md): 3 mafia, 1 maniac, 1 sheriff, 1 doctor, 6 civilians; no don.
    - Per game HP = OP + SP. The regulation names the objective (OP) and subjective (SP) parts
      but gives no numbers; ours, editable: OP = ``win_points`` (2) if the player's side won
      + ``day_points`` (0.5) × ``days_survived``; SP = the seat's ``subjective`` mark (the jury's
      voting sheets), within [``sp_min``, ``sp_max``] = [−3, 3]. ``days_survived`` and
      ``subjective`` are required in every game with a result. So a civilian of the winning city
      who saw 4 days and got SP 0.5 earns 2 + 0.5 × 4 + 0.5 = 4.5.
    - No extra points (``extra`` must be 0).
    - Format (4.6, 4.7): qualifying = 1 round, 8 tables, random seating; semifinal = 2 games;
      final = 1 game. Advance ``per_game`` 3 from qualifying (24 players) and 6 from the
      semifinal (12); the semifinal and the final start from zero (reset).
    - Winners (11.6): the ranked players of the side that won the final's last game with a
      result, in standings order, at most ``max_winners`` (6).
    - Teams (4.5): "6 teams of 12; 2 teams go on to the semifinal, 1 to the final". The document is
      silent on how; our reading, as a Tomsk organizer runs it: a team competition beside the
      individual one, with its own cut, not a quota on who plays. A team's score in a stage is the sum of
      the stage points of its ranked members (the semifinal and final reset, so there it counts only the
      members who got that far). After the qualifying the 2 best teams stay in the team competition;
      in the semifinal those 2 are ranked first (the others below them, out) and the best goes on to
      the final: that team is the champion team, named once the final has a result (the awards follow
      the final, 5.3); an unbroken tie at a cut lets every tied team through, and the final's points
      then rank the tied teams. Individual advancement (per game) alone seats the next stage.
    - Programme (10): the qualifying games are played 2 at a time in 4 slots (17:00, 17:40, 18:30,
      19:10); semifinal 1 starts at 18:30 and semifinal 2 at 19:50. So the qualifying tables form two
      groups: tables 1–4 (the first two slots) feed semifinal table 1 and tables 5–8 feed table 2;
      with per-game advancement (the top 3 of each game) a group can be closed as soon as its own
      games are over.
    - Registration (4.1, 6.1): cap 96, later registrations are guests; minimum age 18.
    - Protests and judges [ours: the document is silent]: protests are taken, with no window;
      a judge of the tournament cannot be its participant (as kostroma 3.1). Past the 96 ranked players
      a registration is a guest; the organizer may also set a hard cap on all participants.
    - Tie-break [ours]: HP → wins → total days survived → lots.
    - Awards (§8 "Призовой фонд"): the best player of the championship, apart from the winners. The document does
      not say how that player is found; we read §7.1 ("the best players are those with the most points of the
      rating system"): the most points over the whole championship, every stage added (the resets of 4.6 and 4.7
      only level the stages' standings), ties by the chain, then by the final's lots. Finalists get
      participation certificates and winners diplomas (§8).
    - Disqualification from the tournament: the document does not provide for it. [ours, the
      project's default] The games played stand for the others (HP, tie-breaks); the player is
      listed after all the others without a place and never goes on: in ``per_game`` advancement
      the next player of each of their games takes the place; among the winners the next of the
      winning side takes it (still at most 6).
    """

    id = "tomsk"
    name = "Tomsk team championship (HP = OP + SP)"
    regulation = "000_549c7c03d7d365e5.txt"
    defaults = Params(
        table_size=12,
        win_points=WinPoints.same(2),
        removal_points=Fraction(0),
        absence_points=Fraction(0),
        ineligible_after_absences=None,
        bye_points=Fraction(0),
        max_byes=None,
        extra_max_players=0,
        extra_values_winner=ValueSet(),
        extra_values_loser=ValueSet(),
        extra_total_max=None,
        best_move_civilian={},
        best_move_sheriff={},
        circle_best_points=Fraction(0),
        circle_worst_points=Fraction(0),
        circle_max_marks=0,
        missed_nights_points=Fraction(0),
        final_multiplier=Fraction(1),
        day_points=Fraction(1, 2),
        sp_min=Fraction(-3),
        sp_max=Fraction(3),
        max_winners=6,
    )
    special_roles = {Role.MAFIA: 3, Role.MANIAC: 1, Role.SHERIFF: 1, Role.DOCTOR: 1}
    # No extra points (its HP is OP + SP): the values allowed to winners and losers have nothing to allow.
    not_applicable = frozenset({"extra_values_winner", "extra_values_loser"})
    tiebreaks = ("wins", "days_survived")
    winners_rule = "last_game_side"
    awards = (AwardProposal("best_player", enabled=True),)
    counts_named_best = False  # no extra points, no best-player marks at the table
    registration_cap = 96
    min_age = 18
    team_size = 12  # §4.5: teams of 12
    # §4.5: 2 teams go on to the semifinal, 1 to the final (the champion team, named once the final has a result).
    team_advance = {StageKind.QUALIFYING: 2, StageKind.SEMIFINAL: 1}
    # The document names remarks only as the judge's answer to a hand moved after "three" (§9.2, voting) and
    # sets no consequence for their number: no remark count silences or removes a player.
    foul_silence_at = None
    foul_removal_at = None

    def stage_format(self, kind: StageKind) -> StageFormat:
        if kind is StageKind.QUALIFYING:
            return StageFormat(("per_game", 3), reset=False, multiplier=self.multiplier_for(kind),
                               rounds=1, seating=(SeatingMethod.RANDOM,), tables=8)
        if kind is StageKind.SEMIFINAL:
            return StageFormat(("per_game", 6), reset=True, multiplier=self.multiplier_for(kind),
                               rounds=1, seating=(SeatingMethod.RANDOM,), tables=2)
        return StageFormat(None, reset=True, multiplier=self.multiplier_for(kind),
                           rounds=1, seating=(SeatingMethod.RANDOM,), tables=1)

    def table_groups(self, kind: StageKind) -> tuple[tuple[int, ...], ...]:
        """Programme (10): qualifying tables 1–4 (17:00 and 17:40) feed semifinal 1 at 18:30, 5–8 semifinal 2."""
        if kind is StageKind.QUALIFYING:
            return ((1, 2, 3, 4), (5, 6, 7, 8))
        return ()

    def extra_seat_problems(self, game: Game, seat: Seat) -> list[Message]:
        """OP needs the days survived and SP the jury's mark in every game with a result."""
        if not game.has_result:
            return []
        problems = []
        if seat.days_survived is None:
            problems.append(message(M.DAYS_REQUIRED))
        if seat.subjective is None:
            problems.append(message(M.SUBJECTIVE_REQUIRED, min=format_number(self.params.sp_min),
                                    max=format_number(self.params.sp_max)))
        return problems
