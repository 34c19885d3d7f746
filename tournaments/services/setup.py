"""Creating a tournament with its stages, in one transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Stage, Tournament

if TYPE_CHECKING:
    from base.users import User


def slug_problems(slug: str) -> list[str]:
    """What is wrong with ``slug`` as a tournament's address, by the very checks of the web form (the
    model field's: letters, digits, ``-`` and ``_``, at most 64): ``cup.2025`` breaks every page that links
    the tournament, ``../escaped`` a backup's file name. An empty list: a good address (taken or not)."""
    try:
        Tournament._meta.get_field("slug").clean(slug, None)
    except ValidationError as error:
        shown = slug if len(slug) <= 70 else slug[:70] + "…"
        return [_("The address %(slug)s: %(problem)s") % {"slug": repr(shown), "problem": problem}
                for problem in error.messages]
    return []


def check_slug(slug: str) -> None:
    """Raises ``ValidationError`` naming what is wrong with the address (``slug_problems``)."""
    problems = slug_problems(slug)
    if problems:
        raise ValidationError(problems, code="invalid_slug")


@transaction.atomic
def create_tournament(details: Tournament, overrides: dict[str, Any], stages: Sequence[dict[str, Any]],
                      organizer: User) -> Tournament:
    """``details`` is an unsaved Tournament from the form; ``stages`` the cleaned stage rows. A bad address
    is refused here too (``ValidationError``), whoever calls."""
    check_slug(details.slug)
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
