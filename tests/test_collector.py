"""``base.collector``: the cyclic collector paused around large builds and switched on again exactly as it was, and
what the WSGI and ASGI entry points loaded kept out of its sight (bench/README.md "The collector")."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from base.collector import paused

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    gc.enable() if was else gc.disable()


def test_paused_switches_the_collector_off_inside_and_on_after() -> None:
    with paused():
        assert not gc.isenabled()
        with paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block is still open
    assert gc.isenabled()


def test_paused_switches_it_on_again_after_an_error() -> None:
    with pytest.raises(ValueError), paused():
        raise ValueError("a build that fails")
    assert gc.isenabled()


def test_a_collector_switched_off_before_stays_off() -> None:
    gc.disable()
    with paused():
        pass
    assert not gc.isenabled()


def test_paused_as_a_decorator_pauses_each_call() -> None:
    seen: list[bool] = []

    @paused()
    def build() -> None:
        seen.append(gc.isenabled())

    build()
    build()
    assert seen == [False, False]
    assert gc.isenabled()


def test_overlapping_blocks_in_two_threads_switch_it_on_when_the_last_ends() -> None:
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, bool] = {}

    def first() -> None:
        with paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with paused():
            second_in.set()
            first_out.wait(5)
            seen["after the first ended"] = gc.isenabled()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"after the first ended": False}
    assert gc.isenabled()


@pytest.mark.parametrize("entry", ["mafia_tournament.wsgi", "mafia_tournament.asgi"])
def test_the_entry_points_freeze_what_they_loaded(entry: str) -> None:
    script = (f"import gc, sys; assert gc.get_freeze_count() == 0; import {entry}; "
              "print(gc.get_freeze_count(), gc.isenabled(), 'public.views.standings' in sys.modules)")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings"}
    answer = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120, check=True)
    frozen, enabled, views_loaded = answer.stdout.split()
    assert int(frozen) > 10_000  # Django and the apps, not a handful of objects
    assert enabled == "True"  # frozen, not switched off
    assert views_loaded == "True"  # the views the first request would import are frozen with the rest
