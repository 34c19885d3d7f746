"""Two finished tournaments sharing their players (as the registry knows them: the same ``Player`` rows) and a
series of both."""

from __future__ import annotations

from typing import Any

import pytest


def share_players(first: Any, second: Any) -> None:
    """The second tournament's participants become the same people as the first's of the same id."""
    from tournaments.models import Participant

    people = dict(first.participants.values_list("ext_id", "player_id"))
    for row in second.participants.all():
        if row.ext_id in people:
            Participant.objects.filter(pk=row.pk).update(player_id=people[row.ext_id])


@pytest.fixture
def pair(generated: Any) -> tuple[Any, Any]:
    """Two generated fiim tournaments of 20 players, a qualifying and a final each, their last stage closed."""
    first = generated("autumn", players=20, rounds=2, stages=2)
    second = generated("winter", players=20, rounds=2, stages=2)
    share_players(first, second)
    for tournament in (first, second):
        last = tournament.stages.order_by("-order").first()
        last.closed = True
        last.save()
    return first, second


@pytest.fixture
def league(pair: tuple[Any, Any], organizer: Any) -> Any:
    from series.models import Series, SeriesTournament

    series = Series.objects.create(name="Лига 2025", slug="league")
    series.organizers.add(organizer)
    for order, tournament in enumerate(pair, start=1):
        SeriesTournament.objects.create(series=series, tournament=tournament, order=order)
    return series
