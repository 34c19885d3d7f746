"""Standings visibility: hidden → published and back, a guarded transition (docs/architecture.md)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import UserError
from tournaments.models import Tournament

from .models import ResultsVersion

if TYPE_CHECKING:
    from base.users import User


class VisibilityError(UserError):
    """The standings are in that state already; the message is for the organizer."""


@transaction.atomic
def set_standings_hidden(tournament: Tournament, hidden: bool, user: User) -> Tournament:
    """Hide or publish the standings; only the tournament's organizers may, and only as a change."""
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if not locked.is_organizer(user):
        raise PermissionDenied
    if locked.standings_hidden == hidden:
        raise VisibilityError(_("The standings are hidden already.") if hidden
                              else _("The standings are published already."))
    locked.standings_hidden = hidden
    locked.save(update_fields=["standings_hidden"])  # the saved signal bumps the results version
    ResultsVersion.objects.update_or_create(
        tournament=locked, defaults={"standings_changed_at": timezone.now(), "standings_changed_by": user}
    )
    return locked


def publish_standings(tournament: Tournament, user: User) -> Tournament:
    return set_standings_hidden(tournament, False, user)


def hide_standings(tournament: Tournament, user: User) -> Tournament:
    return set_standings_hidden(tournament, True, user)
