"""Everything a save sets off, in one list: which signals of which models each reaction listens to, what it keeps of
each change (a key, found without a query, or nothing), and what it does with the keys once the transaction
commits. Every reaction goes through ``after_commit.Collector``, so all of them behave alike: a change rolled
back sets nothing off, a transaction's many saves are handled once, and a failure is logged, never raised.

The apps write their own ``key`` and ``handle`` functions and know nothing of each other; this module, at the top
beside the URLs, is the one place that connects them (``SiteConfig.ready``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db.models import Model
from django.db.models.signals import ModelSignal, post_delete, post_save, pre_save
from django.dispatch import Signal

from base.after_commit import Collector
from notices import triggers as notices
from public import versioning
from ratings import triggers as rating
from stream.services import triggers as overlay
from tournaments.signals import players_merged


@dataclass(frozen=True)
class On:
    """A signal of some models (``"app.Model"``, or ``"app"`` for every model of an app) and what a change keeps."""

    signal: Signal | ModelSignal
    senders: tuple[str, ...]
    key: Callable[..., Hashable | None]


@dataclass(frozen=True)
class Reaction:
    name: str
    handle: Callable[[list[Any]], None]
    on: tuple[On, ...]
    collector: Collector[Any] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "collector", Collector(self.handle))


REACTIONS = (
    # Public pages: every change players and spectators can see moves the tournament's results version.
    Reaction("public version", versioning.bump_changed, (
        On(post_save, versioning.WATCHED_APPS, versioning.changed_key),
        On(post_delete, versioning.WATCHED_APPS, versioning.changed_key),
    )),
    # The Elo rating, recomputed from the earliest round a change touched (docs/rating.md).
    Reaction("rating", rating.recompute_from, (
        On(post_save, ("games.Game",), rating.game_saved),
        On(post_delete, ("games.Game",), rating.game_deleted),
        On(pre_save, ("tournaments.Tournament",), rating.tournament_saving),  # remembers; keeps nothing
        On(post_save, ("tournaments.Tournament",), rating.tournament_saved),
        On(post_delete, ("tournaments.Tournament",), rating.tournament_deleted),
        On(players_merged, ("tournaments.Player",), rating.players_merged),
    )),
    # Players' and judges' notifications (docs/notifications.md).
    Reaction("notifications", notices.queue_events, (
        On(post_save, ("tournaments.Round",), notices.round_saved),
        On(post_save, ("games.Protest",), notices.protest_saved),
        On(post_save, ("games.Game",), notices.game_saved),
        On(post_save, ("tournaments.Stage",), notices.stage_saved),
    )),
    # The stream overlay's frames of the tables changed, built by the stream queue's worker (docs/stream-overlay.md).
    Reaction("overlay frames", overlay.queue_changed, (
        On(post_save, ("games.Game",), overlay.game_saved),
        On(post_save, ("tournaments.Round",), overlay.round_saved),
    )),
)


def models_of(labels: tuple[str, ...]) -> list[type[Model]]:
    found: list[type[Model]] = []
    for label in labels:
        found += [apps.get_model(label)] if "." in label else list(apps.get_app_config(label).get_models())
    return found


def receiver(reaction: Reaction, on: On) -> Callable[..., None]:
    def receive(sender: Any, **kwargs: Any) -> None:
        key = on.key(sender, **kwargs)
        if key is not None:
            reaction.collector.add(key)

    return receive


def wiring(names: tuple[str, ...] = ()) -> Iterator[tuple[Signal, type[Model], str, Reaction, On]]:
    for reaction in REACTIONS:
        if names and reaction.name not in names:
            continue
        for index, on in enumerate(reaction.on):
            for model in models_of(on.senders):
                yield on.signal, model, f"{reaction.name}/{index}/{model._meta.label}", reaction, on


def connect(*names: str) -> None:
    """Connects the reactions named (all of them by default)."""
    for signal, model, uid, reaction, on in wiring(names):
        signal.connect(receiver(reaction, on), sender=model, weak=False, dispatch_uid=uid)


def disconnect(*names: str) -> None:
    for signal, model, uid, _reaction, _on in wiring(names):
        signal.disconnect(sender=model, dispatch_uid=uid)


@contextmanager
def paused(*names: str) -> Iterator[None]:
    """The reactions named set nothing off inside the block (a test's world built without them); connected again
    on the way out."""
    unknown = set(names) - {reaction.name for reaction in REACTIONS}
    if unknown:
        raise ValueError(f"no such reaction: {', '.join(sorted(unknown))}")
    disconnect(*names)
    try:
        yield
    finally:
        connect(*names)
