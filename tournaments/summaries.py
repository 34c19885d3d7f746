"""Each regulation in short, in the reader's language: the one summary of the create page, a tournament's public
home and its rules page (two hand-written summaries had diverged, and the rules page quoted the
rulesets' English docstrings, ids and all).

``scoring``'s ruleset docstrings are the English reference for developers; these lines say the same numbers in
words a player reads (the Russian catalogue), every line a message of its own. ``HOW_TIES`` words a chain the
metrics' labels cannot say (zvezdy's chain depends on which side has won more so far).
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SUMMARIES: dict[str, tuple[Promise, ...]] = {
    "fiim": (
        _("Tables of 10: 1 don, 2 mafia, 1 sheriff, 6 civilians."),
        _("A win gives 2 points to every player of the winning side."),
        _("Best move of the player killed in the first night: a civilian naming 3 blacks +0.5, "
          "2 blacks +0.25; a sheriff naming 3 blacks +0.25."),
        _("Judges' extra points: at most 2 players a game; a winner 0 or 1, a loser 0 or 0.5."),
        _("Missing a round: −2; missing two rounds or more: ranked but not eligible for awards."),
        _("70 players at 7 tables; a qualifying of 7 rounds (rounds 1–4 with balanced seating, 5–7 with Swiss "
          "seating by tens); the best 30 go to a semifinal of 3 rounds, the best 10 to a final of 4 games. "
          "Points are never reset."),
        _("Tie-break: points → wins → times named best → wins as don → as sheriff → as mafia → times killed in "
          "the first night → lots."),
    ),
    "kostroma": (
        _("Tables of 10: 1 don, 2 mafia, 1 sheriff, 1 doctor, 5 civilians; an extra character may "
          "replace a civilian."),
        _("A red win gives 3 points, a black win 4; a removal −1."),
        _("Extra points: at most 3 players a game, 0.5 or 1 each, at most 2 in all."),
        _("A qualifying of 4 rounds with balanced seating; the best 10 play one final game."),
        _("Every point of the final is multiplied by 1.5."),
        _("Winners: the players of the side that won the final's last game."),
        _("Protests within 10 minutes of the game's end; the chief judge decides."),
        _("Tie-break: points → extra points → wins → wins as don or sheriff → lots."),
        _("Registration: applications from players aged 14 to 30, accepted or rejected by the organizer."),
    ),
    "tomsk": (
        _("Tables of 12: 3 mafia, 1 maniac, 1 sheriff, 1 doctor, 6 civilians."),
        _("Rating of a game = objective part (2 for a win + 0.5 a day survived) + the jury's "
          "mark from −3 to 3."),
        _("A qualifying of one round at 8 tables with random seating; from each table the best 3 go to the "
          "semifinal, from each semifinal table the best 6 to the final; the semifinal and the final start from "
          "zero."),
        _("Winners: the players of the side that won the final's last game, at most 6."),
        _("Team standings beside the individual ones."),
        _("Registration: 96 players, later ones are guests; from 18 years old."),
        _("Tie-break: the games' rating → wins → days survived → lots."),
    ),
    "zvezdy": (
        _("Tables of 10: 1 don, 2 mafia, 1 sheriff, 6 civilians. A win gives 5 points."),
        _("Each speech circle: up to 2 players named best +1, up to 2 named worst −1."),
        _("The judge's mark at the end of a game: from −2 to +2."),
        _("Killed first: a civilian naming 2 blacks +2, 3 blacks +3; a sheriff naming 3 blacks +3."),
        _("Removal −3; mafia missing three nights: the city wins and every black player gets −3."),
        _("A bye gives 3 points, at most once a tournament."),
        _("A qualifying of 8 rounds (rounds 1–2 with random seating, 3–8 with Swiss seating by extra points); "
          "the best 20 go to a semifinal of 4 Swiss rounds, the best 10 to a final of 4 games."),
        _("Standings are not announced until the organizer publishes them."),
        _("Tie-break: points, then points as red or as black (whichever side has won less so far), the average "
          "as sheriff or as don, head-to-head, lots."),
    ),
}

HOW_TIES: dict[str, Promise] = {
    "zvezdy": _("If black has won at least as many games as red so far, ties are broken by points "
                "as red, then average as sheriff, then head-to-head; otherwise by points as black, "
                "then average as don, then head-to-head. Then lots."),
}


def summary(ruleset_id: str) -> list[str]:
    """The regulation's lines in the active language; none for an unknown id."""
    return [str(line) for line in SUMMARIES.get(ruleset_id, ())]
