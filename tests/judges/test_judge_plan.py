"""The judges' allocation, the pure algorithm (judges/plan.py): barred judges never sit at their tables,
nobody is on two tables, the most tables filled, judges moved round the room and the work shared, the ranks and
the chief judge respected, and each empty table says why."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from judges.plan import Facts, Judge, allocate, assignment


def judges(*ids: int, **kwargs: object) -> list[Judge]:
    return [Judge(i, **kwargs) for i in ids]  # type: ignore[arg-type]


def test_every_table_gets_a_judge_none_twice() -> None:
    plan = allocate(Facts(tables=[1, 2, 3], judges=judges(10, 11, 12, 13)))
    assert sorted(plan.chosen) == [1, 2, 3] and None not in plan.chosen.values()
    assert len(set(plan.chosen.values())) == 3 and not plan.unfilled


def test_a_barred_judge_goes_to_another_table() -> None:
    # 10 plays at table 1 (or is a teammate, or kept apart): 11 takes table 1, 10 table 2
    facts = Facts(tables=[1, 2], judges=judges(10, 11), barred={1: {10: ["plays here"]}})
    assert allocate(facts).chosen == {1: 11, 2: 10}


def test_the_most_tables_are_filled_when_the_bars_chain() -> None:
    # a greedy pass (table 1 takes the first free judge, 10) would leave table 2 empty: 10 is the only one for it
    facts = Facts(tables=[1, 2], judges=judges(10, 11), barred={2: {11: ["teammate"]}})
    assert allocate(facts).chosen == {1: 11, 2: 10}


def test_a_table_nobody_may_judge_says_why() -> None:
    facts = Facts(tables=[1, 2], judges=judges(10, 11, 12),
                  barred={2: {10: ["a plays here"], 11: ["b kept apart"], 12: ["c teammate"]}})
    plan = allocate(facts)
    assert plan.chosen[2] is None and plan.chosen[1] in (10, 11, 12)
    [empty] = plan.unfilled
    assert empty.table == 2 and empty.free == 2  # two judges are free; both barred here, with their reasons
    assert set(empty.barred) == {10, 11, 12} - {plan.chosen[1]}
    assert all(reasons for reasons in empty.barred.values())


def test_too_few_judges() -> None:
    plan = allocate(Facts(tables=[1, 2, 3], judges=judges(10, 11)))
    assert [u.table for u in plan.unfilled] == [3] and plan.unfilled[0].free == 0
    assert plan.unfilled[0].barred == {}


def test_judges_move_round_the_room() -> None:
    # 10 judged table 1 twice in the stage, 11 table 2 once: they swap
    facts = Facts(tables=[1, 2], judges=judges(10, 11), before={(10, 1): 2, (11, 2): 1})
    assert allocate(facts).chosen == {1: 11, 2: 10}


def test_the_work_is_shared() -> None:
    # three judges for two tables: the one who judged the most so far rests
    facts = Facts(tables=[1, 2], judges=[Judge(10, judged=3), Judge(11, judged=1), Judge(12, judged=0)])
    assert set(allocate(facts).chosen.values()) == {11, 12}


def test_the_best_ranked_judge_first_and_unranked_after() -> None:
    facts = Facts(tables=[1], judges=[Judge(10), Judge(11, rank=3), Judge(12, rank=1)])
    assert allocate(facts).chosen == {1: 12}
    facts = Facts(tables=[1, 2], judges=[Judge(10), Judge(11, rank=3), Judge(12, rank=1)])
    assert set(allocate(facts).chosen.values()) == {11, 12}


def test_the_chief_judge_only_where_nobody_else_can() -> None:
    assert allocate(Facts(tables=[1], judges=[Judge(1, chief=True), Judge(2)])).chosen == {1: 2}
    facts = Facts(tables=[1, 2], judges=[Judge(1, chief=True), Judge(2)])
    assert set(allocate(facts).chosen.values()) == {1, 2}


def test_a_judge_kept_for_every_round_keeps_their_table_and_no_other() -> None:
    facts = Facts(tables=[1, 2, 3], judges=judges(10, 11, 12), fixed={2: 10}, before={(11, 1): 5})
    plan = allocate(facts)
    assert plan.chosen[2] == 10 and plan.chosen[1] == 12 and plan.chosen[3] == 11


def test_no_tables_or_no_judges() -> None:
    assert allocate(Facts(tables=[], judges=judges(1))).chosen == {}
    plan = allocate(Facts(tables=[1], judges=[]))
    assert plan.chosen == {1: None} and plan.unfilled[0].free == 0


@pytest.mark.parametrize("seed", range(25))
def test_the_assignment_is_the_cheapest(seed: int) -> None:
    """Against every assignment, on small random matrices (rows beyond the columns stay unassigned)."""
    rng = random.Random(seed)
    rows, columns = rng.randint(1, 5), rng.randint(1, 5)
    matrix = [[rng.randint(0, 9) for _ in range(columns)] for _ in range(rows)]
    found = assignment(matrix, columns)
    chosen = [c for c in found if c is not None]
    assert len(chosen) == len(set(chosen)) == min(rows, columns)
    total = sum(matrix[r][c] for r, c in enumerate(found) if c is not None)
    k = min(rows, columns)  # every choice of k rows, each matched to k distinct columns
    best = min(sum(matrix[r][c] for r, c in zip(rs, cs, strict=True))
               for rs in itertools.combinations(range(rows), k) for cs in itertools.permutations(range(columns), k))
    assert total == best


def test_thirty_tables_forty_judges_are_quick() -> None:
    rng = random.Random(1)
    people = [Judge(i, judged=rng.randint(0, 6), rank=rng.choice([None, 1, 2, 3])) for i in range(40)]
    barred = {t: {j: ["bar"] for j in rng.sample(range(40), 5)} for t in range(1, 31)}
    began = time.perf_counter()
    plan = allocate(Facts(tables=list(range(1, 31)), judges=people, barred=barred))
    assert time.perf_counter() - began < 2
    assert not plan.unfilled
    assert all(plan.chosen[t] not in barred[t] for t in plan.chosen)
