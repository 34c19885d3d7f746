"""How the shared cache keeps a tournament's ``scoring`` model (``public.model_cache``): pickled, with its fractions
as two integers, under a key that names the model's shape."""

from __future__ import annotations

import copyreg
import dataclasses
import enum
import functools
import hashlib
import io
import logging
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring import model as m
from scoring import needs, standings, tally
from scoring.rulesets import base as rulesets_base

logger = logging.getLogger(__name__)


@functools.lru_cache(maxsize=4096)
def _fraction(numerator: int, denominator: int) -> Fraction:
    """A fraction of a kept model read back: zero is ``scoring``'s ``ZERO``, the very object its fast paths test by
    identity (``is ZERO``), and each other value one object (a model holds a handful of values 12,000 times)."""
    return m.ZERO if numerator == 0 else Fraction(numerator, denominator)


def _reduce_fraction(value: Fraction) -> tuple[Callable[[int, int], Fraction], tuple[int, int]]:
    return _fraction, (value.numerator, value.denominator)


# pickle's own reduction of a Fraction is its text, parsed again on reading, and a new zero each time
_KEEPING = {**copyreg.dispatch_table, Fraction: _reduce_fraction}
KEPT_AS = f"pickle {pickle.HIGHEST_PROTOCOL}, fractions as (numerator, denominator)"  # change it with ``KeptModel``


def _model_shape() -> str:
    """The fields (names and annotated types) of the classes and the values of the enums of ``scoring``'s model and of
    the figures computed from it that the shared cache keeps (standings, tallies, points, needs), and how a model is
    kept (``KEPT_AS``), hashed: part of the keys of the model and of those figures, so a release whose classes differ
    never reads the other's (two releases run side by side during a deploy)."""
    parts: dict[str, Any] = {}  # by qualified name: a class imported into several of the modules counts once
    for module in (m, standings, tally, needs, rulesets_base):
        for value in vars(module).values():
            if isinstance(value, type) and dataclasses.is_dataclass(value):
                parts[f"{value.__module__}.{value.__qualname__}"] = [(f.name, str(f.type))
                                                                     for f in dataclasses.fields(value)]
            elif isinstance(value, type) and issubclass(value, enum.Enum):
                parts[f"{value.__module__}.{value.__qualname__}"] = [member.value for member in value]
    return hashlib.sha1(repr([KEPT_AS, sorted(parts.items())]).encode()).hexdigest()[:16]


MODEL_SHAPE = _model_shape()


@dataclass(frozen=True)
class KeptModel:
    """A model as the shared cache keeps it: pickled, with its fractions kept as two integers (``_fraction``). Every
    worker reads each version's model once: a 1,000-player model is kept in about 12 ms of CPU and read back in
    13–19 ms with the collector paused, where its tournament file took 60–70 ms to write and check and 35 ms to read
    (bench/README.md, "A version ranked from the games that changed")."""

    data: bytes
    shape: str

    @classmethod
    def of(cls, model: m.Tournament) -> KeptModel:
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = _KEEPING
        pickler.dump(model)
        return cls(buffer.getvalue(), MODEL_SHAPE)

    def read(self) -> m.Tournament | None:
        """The model, or None when it cannot be read as this code's (then it is built again): kept by other code (a
        model of another shape, the release before's ``KeptModel`` with other fields; their keys differ, so only by
        a mistake) or not unpickled (logged)."""
        if vars(self).get("shape") != MODEL_SHAPE or not isinstance(vars(self).get("data"), bytes):
            return None
        try:
            model = pickle.loads(self.data)
        except Exception:  # a page must not fail for a kept copy: the model is built again from the rows
            logger.exception("a kept model could not be read back; built again")
            return None
        return model if isinstance(model, m.Tournament) else None
