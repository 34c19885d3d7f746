"""What a save sets off (``mafia_tournament/reactions.py``), with one behaviour for every reaction: nothing for a
change rolled back, once per transaction, and a failing reaction logged without stopping the next one."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.db import transaction

from mafia_tournament import reactions
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


class Undone(Exception):
    pass


@pytest.fixture
def heard(monkeypatch: Any) -> dict[str, list[list[Any]]]:
    """Each reaction's keys as its handler receives them, instead of its work."""
    calls: dict[str, list[list[Any]]] = {reaction.name: [] for reaction in reactions.REACTIONS}
    for reaction in reactions.REACTIONS:
        monkeypatch.setattr(reaction.collector, "handle", calls[reaction.name].append)
    return calls


def test_a_change_rolled_back_sets_nothing_off_and_one_committed_sets_each_reaction_off_once(
        heard: dict[str, list[list[Any]]]) -> None:
    t = Tournament.objects.create(slug="reacts", name="A", ruleset="tomsk")
    for calls in heard.values():
        calls.clear()
    with pytest.raises(Undone), transaction.atomic():
        t.rated = not t.rated
        t.save()
        raise Undone
    assert heard == {name: [] for name in heard}
    with transaction.atomic():
        for name in ("B", "C", "D"):
            t.name = name
            t.save()
        t.rated = not t.rated
        t.save()
    assert heard["public version"] == [[("tournament", t.pk)]]  # four saves, one batch, the key once
    assert len(heard["rating"]) == 1 and heard["rating"][0][0][0] == "since"
    assert heard["notifications"] == []  # a tournament's save tells nobody


def test_a_failing_reaction_is_logged_and_the_next_one_still_runs(monkeypatch: Any, caplog: Any) -> None:
    t = Tournament.objects.create(slug="fails", name="A", ruleset="fiim")
    ran: list[list[Any]] = []

    def broken(keys: list[Any]) -> None:
        raise RuntimeError("the version row is gone")

    by_name = {reaction.name: reaction for reaction in reactions.REACTIONS}
    monkeypatch.setattr(by_name["public version"].collector, "handle", broken)
    monkeypatch.setattr(by_name["rating"].collector, "handle", ran.append)
    with caplog.at_level(logging.ERROR, logger="django.db.backends.base"), transaction.atomic():
        t.rated = not t.rated
        t.save()
    assert Tournament.objects.get(pk=t.pk).rated == t.rated
    assert len(ran) == 1
    assert any("the version row is gone" in str(record.exc_info[1]) for record in caplog.records if record.exc_info)


def test_paused_reactions_set_nothing_off_and_come_back(heard: dict[str, list[list[Any]]]) -> None:
    t = Tournament.objects.create(slug="paused", name="A", ruleset="kostroma")
    heard["public version"].clear()
    with reactions.paused("public version"):
        t.name = "B"
        t.save()
    assert heard["public version"] == []
    t.name = "C"
    t.save()
    assert heard["public version"] == [[("tournament", t.pk)]]
    with pytest.raises(ValueError, match="no such reaction: versions"), reactions.paused("versions"):
        pass
