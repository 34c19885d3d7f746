"""The ids of the tie-break metrics (``scoring.metrics``), below the parameters that name them.

A tournament's ``tiebreaks`` override is checked against these ids when its parameters are read; the metrics
themselves read the tally, which reads the rulesets, which read the parameters: so the names live here, at the
bottom, and ``scoring.metrics`` registers exactly these (it refuses any other).
"""

from __future__ import annotations

METRIC_IDS: frozenset[str] = frozenset({
    "points", "points_average", "games", "wins", "losses", "red_wins", "black_wins", "removals", "penalties",
    "extra_total", "ci", "previous_stage_rank", "best", "don_wins", "sheriff_wins", "mafia_wins",
    "don_sheriff_wins", "first_killed", "extra", "days_survived", "red_points", "black_points",
    "sheriff_average", "don_average", "head_to_head",
})
