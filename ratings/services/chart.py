"""A rating history as a picture: the points of an SVG line drawn by the player's page (no script, no library:
it prints, it works offline and under the strict CSP)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# A phone's width at scale 1 (labels at their size there); wider screens show it at most 1.75 times larger
# (static/css/site.css, .rating-chart).
WIDTH, HEIGHT = 360, 190
LEFT, RIGHT, TOP, BOTTOM = 40, 8, 10, 20  # room for the axis labels


@dataclass(frozen=True)
class Tick:
    y: float
    label: str


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # "x,y x,y ...": the polyline's points
    last: tuple[float, float]  # where the line ends (a dot)
    ticks: list[Tick]  # horizontal grid lines with their ratings
    start: tuple[float, float, float]  # the starting rating's line: (y, x from, x to)
    first_label: str
    last_label: str


def step_of(span: float) -> int:
    """A round grid step giving three to six lines over ``span`` rating points."""
    for step in (5, 10, 20, 25, 50, 100, 200, 250, 500):
        if span / step <= 6:
            return step
    return 1000


def chart(values: Sequence[float], start: float, first_label: str = "", last_label: str = "") -> Chart | None:
    """The line of ``values`` (the rating after each game, in order) from ``start`` (the rating before the first),
    scaled to the chart; None without games."""
    if not values:
        return None
    line = [start, *values]
    low, high = min(line), max(line)
    step = step_of(max(high - low, 10.0))
    low, high = math.floor(low / step) * step, math.ceil(high / step) * step
    if high == low:
        high = low + step
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(i: int) -> float:
        return round(LEFT + inner_w * i / (len(line) - 1), 1)

    def y(value: float) -> float:
        return round(TOP + inner_h * (high - value) / (high - low), 1)

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(line))
    ticks = [Tick(y(value), f"{value:.0f}") for value in range(int(low), int(high) + 1, step)]
    return Chart(WIDTH, HEIGHT, points, (x(len(line) - 1), y(line[-1])), ticks, (y(start), LEFT, WIDTH - RIGHT),
                 first_label, last_label)
