"""Each regulation's summary for players (the rulesets' docstrings, in short) and how it breaks ties.

The names of what ``scoring`` names by id (metrics, point parts, parameters, roles...) are in
``tournaments.labels``."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

SUMMARIES: dict[str, list[Promise]] = {
    "fiim": [
        _("Tables of 10: 1 don, 2 mafia, 1 sheriff, 6 civilians."),
        _("A win gives 2 points to every player of the winning side."),
        _("Best move of the player killed in the first night: a civilian naming 3 blacks +0.5, "
          "2 blacks +0.25; a sheriff naming 3 blacks +0.25."),
        _("Judges' extra points: at most 2 players a game; a winner 0 or 1, a loser 0 or 0.5."),
        _("Missing a round: −2; missing two rounds or more: ranked but not eligible for awards."),
        _("Qualifying of 7 rounds, the best 30 go to a semifinal of 3 rounds, the best 10 to a "
          "final of 4 games. Points are never reset."),
    ],
    "kostroma": [
        _("Tables of 10: 1 don, 2 mafia, 1 sheriff, 1 doctor, 5 civilians; an extra character may "
          "replace a civilian."),
        _("A red win gives 3 points, a black win 4; a removal −1."),
        _("Extra points: at most 3 players a game, 0.5 or 1 each, at most 2 in all."),
        _("Every point of the final is multiplied by 1.5."),
        _("Winners: the players of the side that won the final's last game."),
        _("Protests within 10 minutes of the game's end; the chief judge decides."),
    ],
    "tomsk": [
        _("Tables of 12: 3 mafia, 1 maniac, 1 sheriff, 1 doctor, 6 civilians."),
        _("Rating of a game = objective part (2 for a win + 0.5 a day survived) + the jury's "
          "mark from −3 to 3."),
        _("Qualifying of one round; from each table the best 3 go on, then the best 6 of each "
          "semifinal table; the semifinal and the final start from zero."),
        _("Winners: the players of the side that won the final's last game, at most 6."),
        _("Team standings beside the individual ones."),
    ],
    "zvezdy": [
        _("Tables of 10: 1 don, 2 mafia, 1 sheriff, 6 civilians. A win gives 5 points."),
        _("Each speech circle: up to 2 players named best +1, up to 2 named worst −1."),
        _("Judge's mark at the end: from −2 to +2; first killed civilian naming 2 blacks +2, "
          "3 blacks +3."),
        _("Removal −3; mafia missing three nights: the city wins and every black player gets −3."),
        _("A bye gives 3 points, at most once a tournament."),
        _("Standings are not announced until the organizer publishes them."),
    ],
}

HOW_TIES: dict[str, Promise] = {
    "zvezdy": _("If black has won at least as many games as red so far, ties are broken by points "
                "as red, then average as sheriff, then head-to-head; otherwise by points as black, "
                "then average as don, then head-to-head. Then lots."),
}

