"""Merging two registry entries that turn out to be one person (docs/registry.md): the participations of the
one merged move to the one kept, the kept one's empty details are filled from the other, a ``PlayerMerge`` keeps
what the merged one was, and the merged one is deleted; all at once or nothing."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from base.after_commit import after_commit

from ..errors import UserError
from ..models import Participant, Player, PlayerMerge
from ..signals import players_merged

if TYPE_CHECKING:
    from base.users import User

# The details a merge fills in on the kept player where it has none.
DETAILS = ("surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date", "phone", "user")


class MergeError(UserError):
    """A merge refused: the same player twice, or two people who played one tournament."""


def shared_tournament(kept: Player, merged: Player) -> str | None:
    """The name of a tournament both played (then they are two people), or None."""
    row = (Participant.objects.filter(player=merged, tournament__participants__player=kept)
           .select_related("tournament").first())
    return row.tournament.name if row else None


def details_of(player: Player) -> dict[str, Any]:
    """What the merge record keeps of the merged player: every detail and the tournaments played."""
    details: dict[str, Any] = {name: getattr(player, name) for name in DETAILS if name != "user"}
    details["birth_date"] = player.birth_date.isoformat() if player.birth_date else None
    details["user"] = player.user.get_username() if player.user else None
    details["id"] = player.pk
    details["tournaments"] = [
        {"slug": p.tournament.slug, "name": p.tournament.name, "number": p.number, "ext_id": p.ext_id}
        for p in player.participations.select_related("tournament").order_by("tournament__starts", "pk")]
    return details


@transaction.atomic
def merge_players(kept: Player, merged: Player, *, by: User, reason: str = "") -> PlayerMerge:
    """Merge ``merged`` into ``kept``; refused when they are one entry or played the same tournament."""
    if kept.pk == merged.pk:
        raise MergeError(_("Choose two different players."))
    locked = {p.pk: p for p in Player.objects.select_for_update(of=("self",)).select_related("user")
              .filter(pk__in=[kept.pk, merged.pk])}
    if len(locked) != 2:
        raise MergeError(_("One of the players is no longer in the registry (merged or deleted meanwhile)."))
    kept, merged = locked[kept.pk], locked[merged.pk]
    both = shared_tournament(kept, merged)
    if both:
        raise MergeError(_("%(a)s and %(b)s both played %(tournament)s: they are two people, not one.")
                         % {"a": kept.display_name, "b": merged.display_name, "tournament": both})
    record = PlayerMerge(kept=kept, merged_id=merged.pk, merged=details_of(merged), reason=reason.strip(),
                         merged_at=timezone.now(), merged_by=by, merged_by_name=by.get_username())
    for participant in merged.participations.all():  # saved one by one: each participant's history says so
        participant.player = kept
        participant._change_reason = _("merged with player %(id)s") % {"id": kept.pk}  # type: ignore[attr-defined]
        participant._history_user = by  # type: ignore[attr-defined]
        participant.save(update_fields=["player"])
    filled = [name for name in DETAILS if not getattr(kept, name) and getattr(merged, name)]
    for name in filled:
        setattr(kept, name, getattr(merged, name))
    if filled:
        kept.save()
    record.save()
    PlayerMerge.objects.filter(kept=merged).update(kept=kept)  # the merged one's own earlier merges follow it
    merged_id = merged.pk
    merged.delete()
    after_commit(lambda: players_merged.send(sender=Player, kept=kept, merged_ids=[merged_id]))
    return record


@dataclass(frozen=True)
class Entry:
    player: Player
    played: int


def duplicate_groups(limit: int = 200) -> list[list[Entry]]:
    """Players sharing a full name (as the registry compares them), grouped, the groups by name; at most
    ``limit`` groups. Two queries whatever the registry's size."""
    keys = list(Player.objects.exclude(name_key="").values("name_key").annotate(n=Count("pk")).filter(n__gt=1)
                .order_by("name_key").values_list("name_key", flat=True)[:limit])
    groups: dict[str, list[Entry]] = {key: [] for key in keys}
    for player in (Player.objects.filter(name_key__in=keys).annotate(played=Count("participations"))
                   .order_by("name_key", "-played", "pk")):
        groups[player.name_key].append(Entry(player, getattr(player, "played", 0)))
    return list(groups.values())
