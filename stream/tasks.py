"""The stream queue (tournaments/background.py): the overlay's frames are built and sent here, by a worker, after
the change that caused them is committed (``services.triggers``); the judge's answer does not wait for them."""

from __future__ import annotations

from django_tasks import task

from tournaments.background import STREAM

from .services import live, triggers


@task(queue_name=STREAM)
def publish_changes(games: list[int], rounds: list[int]) -> None:
    """The frames of the streamed tables of these games and rounds, built and sent."""
    with live.kept_loop():
        triggers.safely_publish_changed(set(games), set(rounds))


@task(queue_name=STREAM)
def overlay_settings_changed(tournament_id: int, hiding: bool) -> None:
    with live.kept_loop():
        live.settings_changed(tournament_id, hiding)


@task(queue_name=STREAM)
def publish_tables(tournament_id: int, numbers: list[int]) -> None:
    """The frames of these table numbers (the speaker marked), built and sent."""
    with live.kept_loop():
        live.publish(tournament_id, numbers)
