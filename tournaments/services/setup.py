"""Creating a tournament with its stages, in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from ..models import Stage, Tournament


@transaction.atomic
def create_tournament(details: Tournament, overrides: dict[str, Any], stages: Sequence[dict[str, Any]],
                      organizer: Any) -> Tournament:
    """``details`` is an unsaved Tournament from the form; ``stages`` the cleaned stage rows."""
    details.params = overrides or None
    details.save()
    details.organizers.add(organizer)
    for order, s in enumerate(stages, start=1):
        Stage.objects.create(
            tournament=details,
            ext_id=s["ext_id"],
            name=s.get("name") or "",
            kind=s["kind"],
            order=order,
            planned_rounds=s["rounds"],
            seating_plan=s["seating"],
            advance_kind=s.get("advance_kind") or "",
            advance_count=s.get("advance_count"),
            reset=s.get("reset", False),
            multiplier=s["multiplier"],
        )
    return details
