"""The seating report of docs/command-line.md (`seating-report`), plus figures the pages show."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

from .bounds import round_pair_bound
from .seats import third_of


def report(
    history_rounds: Sequence[Sequence[Sequence[str]]],
    players: Iterable[str] | None = None,
    table_size: int | None = None,
    teams: Mapping[str, str] | None = None,
    keep_apart: Iterable[tuple[str, str]] = (),
) -> dict[str, Any]:
    """Figures for these rounds (tables in physical order, players in seat order).

    - `pairs_met_twice_or_more`, `max_meetings`;
    - `repeat_meetings`: meetings beyond a pair's first, sum of (m - 1);
    - `q`: sum of C(m, 2), the pairs that met in both of two rounds, summed over pairs of rounds;
      `lower_bound` bounds `q` (the pigeonhole bound of docs/seating.md for these rounds' shape);
      with `max_meetings` <= 2 the three repeat figures are equal;
    - `same_seat_repeats`: seats a player takes again (sum over players and seats of count - 1);
    - `table_repeats`: the same for physical tables;
    - `seat_spread`: over players, the least and most early (1-3), middle and late seats;
    - `teammates_together`, `kept_apart_together`: pairs at one table, counted per meeting;
    - `players`: per player `games`, `seats` (seat number -> times), `early`, `middle`, `late`,
      `same_seat_repeats`, `table_repeats`, `max_meetings`.
    `players` limits the report to those ids (others are ignored, as if absent).
    """
    wanted = None if players is None else set(players)
    rounds = [
        [[p for p in table if wanted is None or p in wanted] for table in rnd] for rnd in history_rounds
    ]
    k = table_size or max((len(t) for rnd in history_rounds for t in rnd), default=0)
    meet: dict[tuple[str, str], int] = {}
    per: dict[str, dict[str, Any]] = {}
    for rnd, full in zip(rounds, history_rounds, strict=True):
        for t, (table, full_table) in enumerate(zip(rnd, full, strict=True)):
            for s, p in enumerate(full_table):
                if wanted is not None and p not in wanted:
                    continue
                row = per.setdefault(p, {"games": 0, "seats": {}, "tables": {}})
                row["games"] += 1
                row["seats"][s + 1] = row["seats"].get(s + 1, 0) + 1
                row["tables"][t + 1] = row["tables"].get(t + 1, 0) + 1
            for a, b in combinations(sorted(table), 2):
                meet[(a, b)] = meet.get((a, b), 0) + 1
    best_partner: dict[str, int] = {}
    for (a, b), m in meet.items():
        best_partner[a] = max(best_partner.get(a, 0), m)
        best_partner[b] = max(best_partner.get(b, 0), m)
    out_players: dict[str, Any] = {}
    spread: dict[str, list[int]] = {}
    for p in sorted(per):
        row = per[p]
        thirds = [0, 0, 0]
        for seat, c in row["seats"].items():
            thirds[third_of(seat - 1, k)] += c
        seat_rep = sum(c - 1 for c in row["seats"].values())
        table_rep = sum(c - 1 for c in row["tables"].values())
        out_players[p] = {
            "games": row["games"],
            "seats": {str(s): c for s, c in sorted(row["seats"].items())},
            "early": thirds[0],
            "middle": thirds[1],
            "late": thirds[2],
            "same_seat_repeats": seat_rep,
            "table_repeats": table_rep,
            "max_meetings": best_partner.get(p, 0),
        }
        for name, v in zip(("early", "middle", "late"), thirds, strict=True):
            lo_hi = spread.setdefault(name, [v, v])
            lo_hi[0], lo_hi[1] = min(lo_hi[0], v), max(lo_hi[1], v)
    team_of = teams or {}
    apart = {tuple(sorted(pair)) for pair in keep_apart}
    return {
        "pairs_met_twice_or_more": sum(1 for m in meet.values() if m >= 2),
        "max_meetings": max(meet.values(), default=0),
        "repeat_meetings": sum(m - 1 for m in meet.values() if m >= 2),
        "q": sum(m * (m - 1) // 2 for m in meet.values()),
        "lower_bound": lower_bound(rounds),
        "same_seat_repeats": sum(v["same_seat_repeats"] for v in out_players.values()),
        "table_repeats": sum(v["table_repeats"] for v in out_players.values()),
        "seat_spread": {name: {"min": v[0], "max": v[1]} for name, v in spread.items()},
        "teammates_together": sum(
            m for (a, b), m in meet.items() if a in team_of and team_of.get(b) == team_of[a]
        ),
        "kept_apart_together": sum(m for pair, m in meet.items() if pair in apart),
        "players": out_players,
    }


def lower_bound(rounds: Sequence[Sequence[Sequence[str]]]) -> int:
    """Pigeonhole bound on q for rounds of these shapes: for every two rounds, the tables of the
    later one drawn from the tables of the earlier one, counting players present in both."""
    seated = [{p for table in rnd for p in table} for rnd in rounds]
    total = 0
    for j, later in enumerate(rounds):
        for i in range(j):
            both = seated[i] & seated[j]
            earlier_sizes = [sum(1 for p in t if p in both) for t in rounds[i]]
            later_sizes = [sum(1 for p in t if p in both) for t in later]
            total += round_pair_bound(earlier_sizes, 0, later_sizes)
    return total
