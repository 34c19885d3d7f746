"""Shared helpers for the seating tests."""

from __future__ import annotations

from scoring.seating import PlannedRound, SeatingHistory, SeatingRequest, plan


def ids(n: int) -> tuple[str, ...]:
    return tuple(f"p{i:03d}" for i in range(n))


def check_round(rnd: PlannedRound, players: tuple[str, ...], k: int) -> None:
    seated = [p for table in rnd.tables for p in table]
    assert all(len(table) == k for table in rnd.tables)
    assert len(seated) == len(set(seated)), "someone sits twice"
    assert not set(seated) & set(rnd.byes)
    assert sorted(seated + list(rnd.byes)) == sorted(players)


def one_at_a_time(
    players: tuple[str, ...], k: int, rounds: int, seed: int = 0, effort: float = 1.0
) -> list[PlannedRound]:
    done: list[PlannedRound] = []
    byes: dict[str, int] = {}
    for r in range(rounds):
        history = SeatingHistory(tuple(x.tables for x in done), dict(byes))
        req = SeatingRequest(players, k, "balanced", history, seed=seed + r, effort=effort)
        (rnd,) = plan(req)
        for p in rnd.byes:
            byes[p] = byes.get(p, 0) + 1
        done.append(rnd)
    return done
