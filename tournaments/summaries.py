"""Readable summaries of the four regulations for the create page, in the organizer's language.

``scoring``'s ruleset docstrings are the English reference; these are shorter, translated
(the Russian catalogue), and say the same numbers.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SUMMARIES: dict[str, Promise] = {
    "fiim": _(
        "Zelenograd open championship (FIIM).\n"
        "- Table: 1 don, 2 mafia, 1 sheriff, 6 civilians. A win gives 2 points to every player of the winning side.\n"
        "- Best move of the player killed in the first night: a civilian naming 3 blacks +0.5, 2 blacks +0.25; "
        "a sheriff naming 3 blacks +0.25.\n"
        "- Judges' extra points: at most 2 players a game; a winner 0 or 1, a loser 0 or 0.5.\n"
        "- Missing a round: −2; missing two or more: not eligible for awards.\n"
        "- Format: 70 players at 7 tables; qualifying 7 rounds (1–4 balanced, 5–7 Swiss by tens); top 30 to a "
        "semifinal of 3 rounds; top 10 to a final of 4 games. Points are never reset.\n"
        "- Tie-break: points → wins → times named best → wins as don → as sheriff → as mafia → times killed in "
        "the first night → lots."
    ),
    "kostroma": _(
        "Kostroma city tournament.\n"
        "- Table of 10: 1 don, 2 mafia, 1 sheriff, 1 doctor, 5 civilians; an extra character may replace a "
        "civilian.\n"
        "- Points: a red win 3, a black win 4, a loss 0; removal from the table −1.\n"
        "- Extra points: at most 3 players a game, 0.5 or 1 each, at most 2 in all.\n"
        "- Final: every point × 1.5.\n"
        "- Format: qualifying of 4 balanced rounds; the top 10 play one final game. The winners are the side "
        "that won the final.\n"
        "- Tie-break: points → extra points → wins → wins as don or sheriff → lots.\n"
        "- Registration: applications from players aged 14 to 30, accepted or rejected by the organizer."
    ),
    "tomsk": _(
        "Tomsk team championship.\n"
        "- Table of 12: 3 mafia, 1 maniac, 1 sheriff, 1 doctor, 6 civilians.\n"
        "- A game's rating HP = OP + SP: OP = 2 for a win + 0.5 for each day survived; SP is the jury's mark "
        "from −3 to 3. No extra points.\n"
        "- Format: qualifying of 1 round at 8 tables (random seating); 3 best of each game go to the semifinal, "
        "6 of each semifinal game to the final; semifinal and final start from zero.\n"
        "- Teams: a team table beside the individual one.\n"
        "- Registration: 96 players, later ones are guests; from 18 years.\n"
        "- Tie-break: HP → wins → days survived → lots."
    ),
    "zvezdy": _(
        "“Forward to the stars”.\n"
        "- Table: 1 don, 2 mafia, 1 sheriff, 6 civilians. A win gives 5 points.\n"
        "- Each speech circle: up to 2 named best +1, up to 2 named worst −1. Judge's mark from −2 to +2.\n"
        "- First killed: a civilian naming 2 blacks +2, 3 blacks +3; a sheriff naming 3 blacks +3.\n"
        "- Mafia missing three nights: the city wins and each black player −3. Removal −3.\n"
        "- Bye (a table would be incomplete): +3, at most once per player.\n"
        "- Format: qualifying 8 rounds (1–2 random, 3–8 Swiss by extra points); top 20 to a semifinal of 4 Swiss "
        "rounds; top 10 to a final of 4 games. Standings stay hidden until the organizer publishes them.\n"
        "- Tie-break: points, then points as red or as black (whichever side won less so far), the average as "
        "sheriff or don, head-to-head, lots."
    ),
}


def summary(ruleset_id: str) -> str:
    return str(SUMMARIES.get(ruleset_id, ""))
