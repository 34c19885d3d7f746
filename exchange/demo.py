"""The demo tournament of ``make run``: a ``fiim`` championship of 70 players, qualifying under way.

Built as a tournament file (deterministic: a fixed seed) and imported like any other file, so the
demo also exercises the import path.
"""

from __future__ import annotations

import random
from typing import Any

from scoring.model import SeatingMethod, StageKind
from scoring.rulesets import get_ruleset
from scoring.seating import SeatingRequest, plan

SLUG = "demo"
PLAYERS = 70
ROUNDS_PLAYED = 4

SURNAMES = [
    "Иванов", "Петров", "Сидоров", "Смирнов", "Кузнецов", "Попов", "Васильев", "Соколов", "Михайлов", "Новиков",
    "Фёдоров", "Морозов", "Волков", "Алексеев", "Лебедев", "Семёнов", "Егоров", "Павлов", "Козлов", "Степанов",
    "Николаев", "Орлов", "Андреев", "Макаров", "Никитин", "Захаров", "Зайцев", "Соловьёв", "Борисов", "Яковлев",
]
FIRST_NAMES = ["Иван", "Пётр", "Дмитрий", "Сергей", "Андрей", "Алексей", "Михаил", "Никита", "Артём", "Максим"]
FEMALE_NAMES = ["Анна", "Мария", "Ольга", "Елена", "Юлия", "Дарья", "Ксения", "Татьяна"]
NICKNAMES = ["Лис", "Бард", "Кэп", "Фокс", "Док", "Шторм", "Тень", "Граф", "Ворон", "Кот", "Сова", "Мираж"]


def _player(i: int, rng: random.Random) -> dict[str, Any]:
    surname = SURNAMES[i % len(SURNAMES)]
    female = rng.random() < 0.35
    name = f"{surname}а {rng.choice(FEMALE_NAMES)}" if female else f"{surname} {rng.choice(FIRST_NAMES)}"
    player: dict[str, Any] = {"id": f"p{i:03d}", "name": name}
    if rng.random() < 0.4:
        player["nickname"] = f"{rng.choice(NICKNAMES)}{i}"
    return player


def _game(table: int, players: list[str], rng: random.Random) -> dict[str, Any]:
    roles = ["don", "mafia", "mafia", "sheriff"] + ["civilian"] * 6
    rng.shuffle(roles)
    winner = "red" if rng.random() < 0.55 else "black"
    seats: list[dict[str, Any]] = []
    for n, (player, role) in enumerate(zip(players, roles, strict=True), start=1):
        seat: dict[str, Any] = {"seat": n, "player": player, "role": role}
        fouls = rng.choices([0, 1, 2, 3], weights=[60, 25, 10, 5])[0]
        if fouls:
            seat["fouls"] = fouls
        seats.append(seat)
    side = {"don": "black", "mafia": "black"}
    for seat in rng.sample(seats, 2):  # the table's judges name two best players and give them extra points
        won = side.get(seat["role"], "red") == winner
        seat["extra"] = 1 if won else 0.5
        seat["best"] = True
    game: dict[str, Any] = {"table": table, "winner": winner, "seats": seats, "judge": f"Судья {table}"}
    if rng.random() < 0.85:
        first = rng.randint(1, 10)
        game["first_killed"] = first
        others = [n for n in range(1, 11) if n != first]
        game["best_move"] = sorted(rng.sample(others, 3))
    return game


def build_demo_file(seed: int = 2025) -> dict[str, Any]:
    rng = random.Random(seed)
    players = [_player(i, rng) for i in range(1, PLAYERS + 1)]
    ids = [p["id"] for p in players]
    rounds = []
    # fiim's regulation: "Первые четыре тура пройдут согласно компьютерной выборке": the four rounds are seated as the
    # regulation plans them, ``balanced`` (planned together, a fixed seed), and recorded so (the stage
    # page said «случайная»)
    _rounds, methods = planned_format("fiim", "qualifying")
    planned = plan(SeatingRequest(tuple(ids), 10, methods[0], rounds=ROUNDS_PLAYED, seed=seed))
    assert set(methods[:ROUNDS_PLAYED]) == {SeatingMethod.BALANCED.value}
    for number, seated in enumerate(planned, start=1):
        games = [_game(t, list(table), rng) for t, table in enumerate(seated.tables, start=1)]
        rounds.append({"number": number, "seating": methods[number - 1], "games": games})
    return {
        "format": "mafia-tournament/1",
        "ruleset": "fiim",
        "tournament": {
            "name": "Открытый чемпионат Зеленограда (демо)",
            "city": "Зеленоград",
            "venue": "Клуб «Полночь»",
            "starts": "2025-03-15",
            "ends": "2025-03-16",
        },
        "players": players,
        "stages": [
            {"id": "qualifying", "name": "Отборочный этап", "kind": "qualifying", "rounds": rounds},
            {"id": "semifinal", "name": "Полуфинал", "kind": "semifinal", "rounds": []},
            {"id": "final", "name": "Финал", "kind": "final", "rounds": []},
        ],
    }


def planned_format(ruleset_id: str, kind: str) -> tuple[int, list[str]]:
    """Rounds and per-round seating methods the ruleset's preset proposes for a kind of stage."""
    fmt = get_ruleset(ruleset_id)().stage_format(StageKind(kind))
    return fmt.rounds, [fmt.seating_for(n).value for n in range(1, fmt.rounds + 1)]
