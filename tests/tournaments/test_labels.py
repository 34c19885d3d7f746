"""``tournaments.labels`` is the one source of the names of scoring's ids: every enum member, metric,
point part and parameter has exactly one label there, and the model fields' choices are the scoring
enums' values with those labels (a new scoring member without a label fails here)."""

from __future__ import annotations

import pickle
from dataclasses import fields
from enum import StrEnum

import pytest
from django.utils.functional import Promise
from django.utils.translation import override

from games import models as games_models
from scoring import model as m
from scoring.metrics import METRICS as SCORING_METRICS
from scoring.params import PARAM_NAMES
from scoring.rulesets import RULESETS, SeatPoints
from scoring.rulesets.base import PART_NAMES
from scoring.seating import METHODS
from tournaments import labels
from tournaments import models as tournaments_models

SCORING_ENUMS = [m.Side, m.Role, m.StageKind, m.SeatingMethod, m.ProtestDecision, m.AwardRule]

# Each scoring enum, the model field choices built from it, and where the models import them from.
CHOICES = [
    (m.Side, games_models.Side),
    (m.Role, games_models.Role),
    (m.ProtestDecision, games_models.ProtestDecision),
    (m.StageKind, tournaments_models.StageKind),
    (m.SeatingMethod, tournaments_models.SeatingMethod),
]


def test_every_scoring_enum_has_its_labels() -> None:
    assert set(labels.ENUM_LABELS) == set(SCORING_ENUMS)
    assert {c for c in vars(m).values() if isinstance(c, type) and issubclass(c, StrEnum) and c is not StrEnum} \
        == set(SCORING_ENUMS), "a new scoring enum needs its labels in tournaments.labels"


@pytest.mark.parametrize("enum", SCORING_ENUMS, ids=lambda e: e.__name__)
def test_every_member_has_exactly_one_label(enum: type[StrEnum]) -> None:
    names = labels.ENUM_LABELS[enum]
    assert list(names) == list(enum)  # each member once, in the enum's order, nothing else
    assert all(type(key) is enum for key in names)
    assert all(isinstance(label, Promise) for label in names.values())  # translated lazily


@pytest.mark.parametrize(("enum", "choices"), CHOICES, ids=lambda e: getattr(e, "__name__", ""))
def test_the_model_choices_are_the_scoring_enum_with_its_labels(enum: type[StrEnum], choices: type) -> None:
    assert choices.values == [member.value for member in enum]
    assert choices.names == [member.name for member in enum]
    with override("ru"):
        assert choices.choices == [(member.value, str(labels.ENUM_LABELS[enum][member])) for member in enum]
    for member in enum:
        choice = getattr(choices, member.name)
        assert choice == member.value and choices(member.value) is choice
        assert choice.label == labels.ENUM_LABELS[enum][member]


def test_the_choices_behave_as_declared_text_choices() -> None:
    role = games_models.Role
    assert role.DON == "don" and role("don") is role.DON and str(role.DON) == "don"
    assert pickle.loads(pickle.dumps(role.SHERIFF)) is role.SHERIFF
    with override("ru"):
        assert str(role.DON.label) == "дон"


def test_every_metric_has_a_label_and_a_short_one() -> None:
    assert set(labels.METRICS) == set(SCORING_METRICS)
    assert set(labels.METRIC_SHORT) == set(SCORING_METRICS)
    with override("en"):
        # the English names are scoring's own
        assert {k: str(v) for k, v in labels.METRICS.items()} == {k: v.label for k, v in SCORING_METRICS.items()}


def test_every_point_part_has_a_label() -> None:
    assert tuple(f.name for f in fields(SeatPoints)) == PART_NAMES
    assert list(labels.PARTS) == list(PART_NAMES)


def test_every_parameter_has_a_label() -> None:
    assert list(labels.PARAMS) == list(PARAM_NAMES)


def test_the_ids_the_web_stores_are_scoring_s() -> None:
    assert set(METHODS) == {method.value for method in m.SeatingMethod}  # each seating method has its algorithm
    assert set(tournaments_models.RulesetId.values) == set(RULESETS)


def test_every_label_is_in_the_russian_catalogue() -> None:
    every = [*(label for names in labels.ENUM_LABELS.values() for label in names.values()),
             *labels.METRICS.values(), *labels.METRIC_SHORT.values(), *labels.PARTS.values(), *labels.PARAMS.values()]
    with override("en"):
        english = [str(label) for label in every]
    with override("ru"):
        russian = [str(label) for label in every]
    assert [e for e, r in zip(english, russian, strict=True) if e == r] == []


def test_every_award_kind_has_a_label() -> None:
    from scoring.awards import KINDS

    with override("en"):
        assert all(labels.award_label(kind) != kind for kind in KINDS)
        assert labels.award_label("best_role:ghost") == "Best ghost"  # a role without its own line
        assert labels.award_label("nonsense") == "nonsense"
