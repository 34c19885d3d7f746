"""Translated names for what ``scoring`` names by id: tie-break metrics, point parts, parameters,
and each regulation's summary (the rulesets' docstrings, in short, for players)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

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
}

PARTS: dict[str, Promise] = {
    "win": _("win"),
    "days": _("days survived"),
    "subjective": _("jury's mark"),
    "best_move": _("best move"),
    "extra": _("extra points"),
    "circles": _("circle marks"),
    "removal": _("removal"),
    "missed_nights": _("missed nights"),
}

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
}

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


def metric(metric_id: str) -> str:
    return str(METRICS.get(metric_id, metric_id))
