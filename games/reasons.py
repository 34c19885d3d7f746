"""Why a player gets a foul (remark) or is removed from the table, per regulation (the seeds' lists).

Each ruleset id maps to the reasons its regulation lists, by a stable code stored on the protocol;
the labels are translated. ``other`` is always available (the details go to the notes).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

FOURTH_FOUL = "fouls4"
OTHER = "other"
UNSTATED = "unstated"  # a foul or warning tapped without a reason, or read from a file that counts fouls alone

LABELS: dict[str, Promise] = {
    # Fouls (remarks).
    "hand_off_vote": _("taking the hand off during a vote"),
    "honestly": _("the word “honestly” or its derivatives"),
    "addressing_host": _("addressing the host during the game"),
    "religion": _("mentioning God, the devil or religion"),
    "out_of_turn": _("words or sounds outside one's minute"),
    "gestures": _("excessive gesturing"),
    "swearing_general": _("swearing not aimed at a player"),
    "knocking": _("knocking on the table, unethical behaviour, arguing with the judges"),
    "night_behaviour": _("breaking the rules of night behaviour"),
    "vote_gestures": _("gesturing or appeals during a vote"),
    "shouting": _("shouting at the table"),
    "no_last_vote": _("not voting for the last candidate when asked"),
    "vote_timing": _("raising or lowering the hand after the count of three"),
    # Tomsk 6.3, what players may not do during the games (А–Ж).
    "night_info": _("using information obtained at night"),
    "material_bet": _("betting something of material value"),
    "disputing_host": _("disputing or discussing the host's actions"),
    "food": _("bringing food to the table"),
    # Removals.
    FOURTH_FOUL: _("the fourth foul"),
    "swearing_at_player": _("swearing at another player"),
    "night_actions": _("gestures or actions at night outside one's role"),
    "oath": _("an oath"),
    "trust": _("appeals to trust (“believe me”, “I will not deceive you”)"),
    "arguing": _("a bet or an argument to prove one's side"),
    "left_seat": _("leaving one's place at the table"),
    "tears": _("tears during the game"),
    "night_touch": _("touching or gesturing at night"),
    "night_hints": _("hints by signs to the don or the sheriff at night"),
    "insults": _("insults or swearing at participants"),
    "peeking": _("peeking at night"),
    "night_word": _("any word after night is announced"),
    "pleading": _("gestures “I beg”, “I swear” and the like"),
    OTHER: _("other (see the notes)"),
    UNSTATED: _("reason not chosen"),
    # Wins awarded to the other side (``Ruleset.win_awards``).
    "monsters": _("an artificial situation (“monsters”): remarks earned on purpose to leave the table"),
    "disputed": _("the judge's decision in a disputed situation"),
    "removed_spoke": _("a player removed without a last word spoke or gestured"),
}

FOULS: dict[str, tuple[str, ...]] = {
    # Zelenograd open, "Замечания игроки получают за следующие нарушения".
    "fiim": ("hand_off_vote", "honestly", "addressing_host", "religion", "out_of_turn", "gestures",
             "swearing_general", OTHER),
    # Kostroma, disciplinary annex 3.3.
    "kostroma": ("out_of_turn", "gestures", "knocking", "hand_off_vote", "night_behaviour", "vote_gestures", OTHER),
    # "Вперед к звездам", "ЗАМЕЧАНИЯ В ИГРЕ".
    "zvezdy": ("honestly", "shouting", "religion", "out_of_turn", "addressing_host", "gestures", "knocking",
               "hand_off_vote", "no_last_vote", "vote_gestures", OTHER),
    # Tomsk: the remark for the vote (9.2), and the conduct 6.3 forbids (А–Ж), which the judge answers
    # with a remark or, for a gross breach, a removal (the document sets no consequence: docs/rules/tomsk.md).
    "tomsk": ("vote_timing", "night_info", "oath", "material_bet", "religion", "night_touch", "disputing_host",
              "food", OTHER),
}

REMOVALS: dict[str, tuple[str, ...]] = {
    "fiim": (FOURTH_FOUL, "swearing_at_player", "night_actions", "oath", "left_seat", "tears", "arguing", OTHER),
    # Kostroma, disciplinary annex 3.2 (disqualifying fouls).
    "kostroma": (FOURTH_FOUL, "left_seat", "night_touch", "night_hints", "insults", "peeking", OTHER),
    "zvezdy": (FOURTH_FOUL, "oath", "trust", "arguing", "insults", "peeking", "night_word", "pleading",
               "night_touch", OTHER),
    # no count of remarks removes a player (docs/rules/tomsk.md, "Remarks"); a gross breach of 6.3 may
    "tomsk": ("night_info", "oath", "material_bet", "religion", "night_touch", "disputing_host", "food", OTHER),
}


# What a verbal warning is for, where the regulation has one (``Ruleset.verbal_warnings``): kostroma warns for any
# breach its fouls answer (annex 1.2, 3); zvezdy names the two remarks a verbal warning precedes.
WARNINGS: dict[str, tuple[str, ...]] = {
    "kostroma": FOULS["kostroma"],
    "zvezdy": ("shouting", "gestures", OTHER),
}
# The remarks the regulation gives only after a verbal warning (zvezdy, "ЗАМЕЧАНИЯ В ИГРЕ": shouting "предваряется
# устным замечанием", excessive gesturing "обязательно предваряется устным замечанием").
WARNED_FIRST: dict[str, frozenset[str]] = {"zvezdy": frozenset({"shouting", "gestures"})}


def warning_choices(ruleset_id: str) -> list[tuple[str, Promise]]:
    return [(code, LABELS[code]) for code in WARNINGS.get(ruleset_id, ())]


def award_choices(reasons: Iterable[str]) -> list[tuple[str, Promise]]:
    return [(code, LABELS[code]) for code in reasons if code in LABELS]


def foul_choices(ruleset_id: str) -> list[tuple[str, Promise]]:
    return [(code, LABELS[code]) for code in FOULS.get(ruleset_id, (OTHER,))]


def removal_choices(ruleset_id: str) -> list[tuple[str, Promise]]:
    return [(code, LABELS[code]) for code in REMOVALS.get(ruleset_id, (FOURTH_FOUL, OTHER))]


def recorded_foul_choices(ruleset_id: str) -> list[tuple[str, Promise]]:
    """The fouls' reasons a protocol may hold: the regulation's, and "reason not chosen" for a foul tapped without
    one (the full protocol shows it as it is, never as another reason, and never drops the foul)."""
    return [*foul_choices(ruleset_id), (UNSTATED, LABELS[UNSTATED])]


def label(code: str) -> str:
    return str(LABELS.get(code, code))


def said_reason(code: str) -> str:
    """A tap's reason as the judge's screen says it back: "reason not chosen" for a foul or a warning tapped without
    one (recorded as ``UNSTATED``, never as a reason the judge did not choose, "other" included)."""
    return label(code or UNSTATED)


# What remarks lead to under each regulation, in its own words (docs/rules/*.md, "Remarks"): shown on the judge's
# screen, and said when a tap reaches the third remark.
CONSEQUENCES: dict[str, tuple[Promise, ...]] = {
    "fiim": (
        _("3rd remark: the player loses the word, in this circle if it came during their speech, otherwise "
          "in the next circle."),
        _("4th remark: the player is removed from the table; no vote is held."),
        _("A disqualifying foul removes the player at once."),
    ),
    "kostroma": (
        _("A participant may first be warned by word of mouth."),
        _("3rd foul: the player loses their next minute's speech but may still nominate."),
        _("4th foul or a disqualifying foul: the player leaves the game without a last word; −1 point."),
    ),
    "zvezdy": (
        _("Shouting and excessive gesturing are warned by word of mouth before the remark."),
        _("3rd remark: the player loses the word in this circle, or in the next if they have spoken already or "
          "got it during their speech."),
        _("With 3 or 4 players at the table (a car crash, a guessing game) a player with 3 remarks has 30 seconds "
          "to speak; voted out or shot, they have the full last minute."),
        _("4th remark or a removal: the player leaves the table; −3 points."),
    ),
    "tomsk": (
        _("A hand raised or lowered after the count of three: a remark, and that vote does not count."),
        _("No number of remarks removes a player; the judge removes one for a gross breach."),
    ),
}

THIRD_REMARK: dict[str, Promise] = {
    "fiim": _("Seat %(n)s: third remark (%(reason)s). The player loses the word: in this circle if it came "
              "during their speech, otherwise in the next."),
    "kostroma": _("Seat %(n)s: third foul (%(reason)s). The player loses their next speech but may still "
                  "nominate."),
    "zvezdy": _("Seat %(n)s: third remark (%(reason)s). The player loses the word in this circle (in the next "
                "if they have spoken or got it during their speech); with 3 or 4 at the table, 30 seconds."),
}


def consequences(ruleset_id: str) -> list[str]:
    return [str(line) for line in CONSEQUENCES.get(ruleset_id, ())]
