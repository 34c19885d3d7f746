"""The compiled schema validator (jsonschema-rs) decides whether a file is valid; the reference one (jsonschema)
names the problems of an invalid file. They must agree: a file one finds valid the other finds valid, and the
problems of a bad file are those the reference validator alone reports (the command line's start-up)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from scoring import fileio
from tests.helpers import EXAMPLES


def reference_problems(data: Any) -> list[str]:
    errors = list(fileio.schema_validator().iter_errors(data))
    return sorted(str(e.message) for e in errors)


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.json")), ids=lambda p: p.stem)
def test_every_example_is_valid_to_both(path: Any) -> None:
    data = json.loads(path.read_text())
    assert fileio.fast_validator().is_valid(data) and reference_problems(data) == []


def mutations(data: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for change in (
        lambda d: d.update(format="mafia-tournament/2"),
        lambda d: d.update(ruleset="chess"),
        lambda d: d["players"][0].pop("id"),
        lambda d: d["players"][0].update(unknown=1),
        lambda d: d["stages"][0]["rounds"][0]["games"][0].update(winner="green"),
        lambda d: d["stages"][0]["rounds"][0]["games"][0]["seats"][0].update(fouls=9),
        lambda d: d["stages"][0]["rounds"][0]["games"][0]["seats"][0].update(extra="1/0"),
        lambda d: d["stages"][0]["rounds"][0]["games"][0].update(log=[{"kind": "dance", "phase": 1}]),
        lambda d: d["stages"][0]["rounds"][0]["games"][0].update(best_move=[1, 2, 3, 4]),
        lambda d: d["stages"][0].update(multiplier=True),
    ):
        mutated = copy.deepcopy(data)
        change(mutated)
        found.append(mutated)
    return found


def test_a_bad_file_is_invalid_to_both_and_named_as_before() -> None:
    data = json.loads((EXAMPLES / "fiim-example.json").read_text())
    for bad in mutations(data):
        expected = reference_problems(bad)
        assert expected, bad
        assert not fileio.fast_validator().is_valid(bad)
        assert len(fileio.schema_problems(bad)) == len(expected)
