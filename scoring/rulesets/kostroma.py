"""``kostroma``: the Kostroma II city tournament, as read in docs/rules/kostroma.md."""

from __future__ import annotations

from fractions import Fraction

from .. import messages as M
from ..errors import Message, message
from ..model import EXTRA_CHARACTERS, Role, Seat, SeatingMethod, StageKind
from ..params import Params, ValueSet, WinPoints
from .base import Ruleset, StageFormat, register, role_word


@register
class Kostroma(Ruleset):
    """Kostroma II city tournament: 3 points for a red win, 4 for a black win, final × 1.5.

    - Table [ours: tables of 10]: 1 don, 2 mafia, 1 sheriff (комиссар), 1 doctor, 5 civilians;
      an extra character (ghost, musician, artist, thief, screenwriter; each at most once per
      table) may replace a civilian. Its side is given per seat (default red).
    - Points (4.2): red side won 3; black side won 4; lost 0. Removed from the table (4.2.4): −1.
    - Extra points (4.3): at most 3 players per game, each exactly 0.5 or 1, at most 2 in all
      per game, whoever won.
    - Final (4.7): every game point of the final is multiplied by 1.5, the −1 of a removal
      included: a black winner of the final gets 4 × 1.5 = 6, plus 1 extra → (4 + 1) × 1.5 = 7.5.
    - Format [ours]: qualifying of 4 ``balanced`` rounds; the top 10 go to one final game
      (the regulation says only "the highest scorers"); any stage before the final advances its
      top 10 too. No reset.
    - Winners (5.1, 5.2): the ranked players of the side that won the final's last game.
    - Tie-break (4.4): points → total extra points as awarded (before the multiplier) → wins →
      wins as don or sheriff → lots.
    - Registration (2.1, 2.2, annex 1.1): city residents aged 14 to 30 inclusive; applications
      accepted or rejected by the organizer (one by one or several at once).
    - City of residence (2.1: "residents of the city of Kostroma"): an application states the
      player's city, and it must be the tournament's city [ours: annex 1.1 has no city line, but
      2.1 admits residents only; the tournament's city is where it is held; compared ignoring
      case and ё/е; a tournament without a city checks only that one is stated].
    - Application period (2.3, stage 1: "from 15 February to 4 March, applications are
      received"): a tournament may set when applications open and close; an application outside
      is refused [ours: the dates are each year's, so they are the tournament's settings].
    - The competition commission (3.1) "cannot be participants of the tournament": a judge of the
      tournament cannot be its participant, and a participant cannot become its judge [ours: the
      same person is a judge's user account linked to the participant's player entry].
    - Protests (4.5): within 10 minutes of the game's end, recorded on the protocol; the window
      is absolute (4.5.1 "not later than 10 minutes"): a later protest is refused, whoever
      enters it, the chief judge included. The chief judge decides, finally (4.5.3).
    - Disqualification from the tournament (annex 1.2, 3): the document allows it and says no more.
      [ours] The games played stand for everyone else (points, tie-breaks, the side's win); the
      player is listed after all the others without a place, never goes on (the next player takes
      the slot) and is never a winner, even on the side that won the final's last game.
      Disqualification "from the game stage" (3.2) is the removal from the table (−1, 4.2.4).
    - Awards (5.3, 5.4): the winners get diplomas (грамоты); the organizers may set up special prizes, so no
      award is given by default: the common nominations are suggestions, and the organizer adds their own.
    """

    id = "kostroma"
    name = "Kostroma city tournament (3/4 points, final × 1.5)"
    regulation = "002_dff845450fe72543.txt"
    defaults = Params(
        table_size=10,
        win_points=WinPoints(Fraction(3), Fraction(4), Fraction(0)),
        removal_points=Fraction(-1),
        absence_points=Fraction(0),
        ineligible_after_absences=None,
        bye_points=Fraction(0),
        max_byes=None,
        extra_max_players=3,
        extra_values_winner=ValueSet.of(0, "0.5", 1),
        extra_values_loser=ValueSet.of(0, "0.5", 1),
        extra_total_max=Fraction(2),
        best_move_civilian={},
        best_move_sheriff={},
        circle_best_points=Fraction(0),
        circle_worst_points=Fraction(0),
        circle_max_marks=0,
        missed_nights_points=Fraction(0),
        final_multiplier=Fraction(3, 2),
        day_points=Fraction(0),
        sp_min=Fraction(0),
        sp_max=Fraction(0),
        max_winners=None,
    )
    special_roles = {Role.DON: 1, Role.MAFIA: 2, Role.SHERIFF: 1, Role.DOCTOR: 1}
    tiebreaks = ("extra", "wins", "don_sheriff_wins")
    winners_rule = "last_game_side"
    stage_kinds = (StageKind.QUALIFYING, StageKind.FINAL)  # 4.7: the qualifying, then the final game
    allows_extra_characters = True
    protest_minutes = 10
    min_age = 14
    foul_silence_at = 3  # annex 1.2, 3.1: three fouls cost the next minute's speech (nominating stays)
    foul_removal_at = 4  # annex 1.2, 3.2: the fourth foul removes the player without a last word
    # annex 1.2, 3: "may be warned by word of mouth, punished with a foul, disqualified"; the warning is the first
    # step, with no consequence of its own (no number of warnings makes a foul)
    verbal_warnings = True
    takes_applications = True  # annex 1.1: applications, accepted or rejected by the organizer
    max_age = 30
    residents_only = True  # 2.1: residents of the city

    def composition_problems(self, seats: tuple[Seat, ...]) -> list[Message]:
        """Extra characters count as civilians, each at most once per table."""
        counts: dict[Role, int] = {}
        for seat in seats:
            counts[seat.role] = counts.get(seat.role, 0) + 1
        problems: list[Message] = []
        extras = sum(counts.get(role, 0) for role in EXTRA_CHARACTERS)
        expected = self.expected_roles()
        civilians = {Role.CIVILIAN: counts.get(Role.CIVILIAN, 0) + extras}
        problems += self._compare_roles(civilians, {Role.CIVILIAN: expected[Role.CIVILIAN]},
                                        M.ROLE_COUNT_WITH_EXTRA_CHARACTERS if extras else M.ROLE_COUNT)
        others: dict[Role, int] = {role: n for role, n in counts.items()
                                   if role is not Role.CIVILIAN and role not in EXTRA_CHARACTERS}
        problems += self._compare_roles(others, {r: n for r, n in expected.items() if r is not Role.CIVILIAN})
        for role in sorted(EXTRA_CHARACTERS):
            if counts.get(role, 0) > 1:
                problems.append(message(M.EXTRA_CHARACTER_TWICE, count=counts[role],
                                        roles=role_word(counts[role], role), role=role.value, ruleset=self.id))
        return problems

    def stage_format(self, kind: StageKind) -> StageFormat:
        if kind is StageKind.FINAL:
            return StageFormat(None, reset=False, multiplier=self.multiplier_for(kind),
                               rounds=1, seating=(SeatingMethod.RANDOM,), tables=1)
        return StageFormat(("top", 10), reset=False, multiplier=self.multiplier_for(kind),
                           rounds=4, seating=(SeatingMethod.BALANCED,))
