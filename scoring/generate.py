"""Generated tournaments that keep every rule: for benchmarks, property tests and demos.

``generate(ruleset, players=70, rounds=7, seed=1)`` plays a one-stage tournament of random
seatings and random (but valid) protocols under the ruleset's default parameters.
"""

from __future__ import annotations

import random
from fractions import Fraction

from .model import ROLE_SIDE, Circle, Game, Player, Role, Round, Seat, Side, Stage, StageKind, Tournament
from .params import ValueSet
from .rulesets import Ruleset, get_ruleset

ROLE_ORDER = (Role.DON, Role.MAFIA, Role.MANIAC, Role.SHERIFF, Role.DOCTOR)


def generate(ruleset_id: str, players: int = 70, rounds: int = 7, seed: int = 1,
             stages: int = 1, guests: int = 0) -> Tournament:
    """A valid tournament; the player count beyond whole tables sits out each round on a bye."""
    rng = random.Random(seed)
    ruleset = get_ruleset(ruleset_id)()
    ids = [f"p{n:04d}" for n in range(1, players + 1)]
    roster = tuple(Player(pid, f"Player {n}", guest=n > players - guests) for n, pid in enumerate(ids, 1))
    stage_list = []
    per_stage = max(1, rounds // stages)
    for index in range(stages):
        kind = StageKind.FINAL if index == stages - 1 and stages > 1 else (
            StageKind.QUALIFYING if index == 0 else StageKind.SEMIFINAL)
        stage_rounds = tuple(_round(rng, ruleset, ids, number) for number in range(1, per_stage + 1))
        stage_list.append(Stage(id=f"s{index + 1}", rounds=stage_rounds, kind=kind, reset=False))
    return Tournament(ruleset=ruleset_id, players=roster, stages=tuple(stage_list))


def _round(rng: random.Random, ruleset: Ruleset, ids: list[str], number: int) -> Round:
    size = ruleset.params.table_size
    order = ids[:]
    rng.shuffle(order)
    tables = len(order) // size
    seated, rest = order[:tables * size], order[tables * size:]
    # Byes only where the ruleset has no limit on them; otherwise the rest are absent.
    limit_free = ruleset.params.max_byes is None
    games = tuple(random_game(rng, ruleset, seated[t * size:(t + 1) * size], t + 1) for t in range(tables))
    return Round(number=number, games=games, byes=tuple(rest) if limit_free else (),
                 absent=() if limit_free else tuple(rest))


def random_game(rng: random.Random, ruleset: Ruleset, players: list[str], table: int) -> Game:
    """A random game that keeps the ruleset's composition and point limits."""
    p = ruleset.params
    roles = [role for role in ROLE_ORDER for _ in range(ruleset.expected_roles().get(role, 0))]
    roles += [Role.CIVILIAN] * (len(players) - len(roles))
    rng.shuffle(roles)
    sides = {Side.RED, Side.BLACK} | ({Side.MANIAC} if Role.MANIAC in roles else set())
    winner = rng.choice(sorted(sides))
    missed = winner is Side.RED and rng.random() < 0.05
    extras = _extras(rng, ruleset, roles, winner)
    tomsk_like = p.day_points != 0 or p.sp_max != p.sp_min
    seats = tuple(
        Seat(
            seat=number,
            player=player,
            role=role,
            fouls=(fouls := rng.choice((0, 0, 0, 1, 2, 3, 4))),
            removed=fouls == 4,
            extra=extras.get(number, Fraction(0)),
            best=rng.random() < 0.1,
            days_survived=rng.randint(1, 6) if tomsk_like else None,
            subjective=Fraction(rng.randint(int(p.sp_min * 2), int(p.sp_max * 2)), 2) if tomsk_like else None,
        )
        for number, (player, role) in enumerate(zip(players, roles, strict=True), start=1)
    )
    first_killed = rng.randint(1, len(players)) if rng.random() < 0.8 else None
    best_move: tuple[int, ...] = ()
    if first_killed is not None and rng.random() < 0.6:
        others = [n for n in range(1, len(players) + 1) if n != first_killed]
        best_move = tuple(rng.sample(others, 3))
    circles: tuple[Circle, ...] = ()
    if p.circle_max_marks:
        circles = tuple(_circle(rng, len(players), p.circle_max_marks) for _ in range(rng.randint(1, 4)))
    return Game(table=table, seats=seats, winner=winner, first_killed=first_killed, best_move=best_move,
                circles=circles, mafia_missed_three_nights=missed)


def _circle(rng: random.Random, size: int, most: int) -> Circle:
    marked = rng.sample(range(1, size + 1), rng.randint(0, 2 * most))
    split = min(len(marked), rng.randint(0, most))
    return Circle(best=tuple(marked[:split]), worst=tuple(marked[split:split + most]))


def _extras(rng: random.Random, ruleset: Ruleset, roles: list[Role], winner: Side) -> dict[int, Fraction]:
    p = ruleset.params
    if p.extra_max_players == 0:
        return {}
    out: dict[int, Fraction] = {}
    total = Fraction(0)
    for number in rng.sample(range(1, len(roles) + 1), rng.randint(0, p.extra_max_players)):
        won = _side(roles[number - 1]) is winner
        allowed = _candidates(p.extra_values_winner if won else p.extra_values_loser)
        value = rng.choice(allowed)
        if p.extra_total_max is not None and total + value > p.extra_total_max:
            continue
        if value:
            out[number] = value
            total += value
    return out


def _candidates(values: ValueSet) -> list[Fraction]:
    if values.step is not None and values.minimum is not None and values.maximum is not None:
        count = int((values.maximum - values.minimum) / values.step)
        return [values.minimum + values.step * i for i in range(count + 1)]
    return list(values.values) or [Fraction(0)]


def _side(role: Role) -> Side:
    return ROLE_SIDE.get(role, Side.RED)
