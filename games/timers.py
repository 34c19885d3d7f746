"""The judge's speech timers, per regulation, as each document writes them (docs/rules/*.md, "Timers").

Each is (seconds, what it times); the first is the speech, which the stream overlay's "Speaking" starts by itself.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

SPEECH: tuple[int, Promise] = (60, pgettext_lazy("judge's timer", "speech"))
HALF: tuple[int, Promise] = (30, pgettext_lazy("judge's timer", "half a speech"))

TIMERS: dict[str, tuple[tuple[int, Promise], ...]] = {
    # Zelenograd open, nuances 4 and 6: the don's and the sheriff's checks have 30 s in one item and
    # 10 s in the other; both are offered, the judge runs the one the tournament announces.
    "fiim": (SPEECH,
             (30, pgettext_lazy("judge's timer", "check")),
             (10, pgettext_lazy("judge's timer", "check"))),
    # Kostroma: a minute a speech; half of one when a table plays it short.
    "kostroma": (SPEECH, HALF),
    # Tomsk 9.2: three minutes of day, 30 seconds for the nominated to defend themselves, a minute for each
    # candidate's justification (the document gives both).
    "tomsk": ((180, pgettext_lazy("judge's timer", "day")),
              (30, pgettext_lazy("judge's timer", "defence")),
              (60, pgettext_lazy("judge's timer", "justification"))),
    # "Вперед к звездам": a minute; 30 seconds for a player with three remarks at a table of 3 or 4.
    "zvezdy": (SPEECH, (30, pgettext_lazy("judge's timer", "three remarks, 3–4 players"))),
}


def timers(ruleset_id: str) -> list[tuple[int, str, str]]:
    """(seconds, what it times, shown as m:ss) for the regulation's screen, one tap each."""
    return [(seconds, str(label), f"{seconds // 60}:{seconds % 60:02d}")
            for seconds, label in TIMERS.get(ruleset_id, (SPEECH, HALF))]
