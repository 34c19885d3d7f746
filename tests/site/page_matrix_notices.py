"""The page matrix's check of the organizer's "Notifications" tab (notices/, docs/notifications.md): every
participant is counted, and those without a contact are listed as told nothing."""

from __future__ import annotations

from entries.models import Entry, EntryState
from tests.site.page_matrix_world import World, page, visible_text


def check_notices(world: World) -> None:
    text = visible_text(page(world.organizer, f"/t/{world.slug}/notices/"))
    players = Entry.objects.filter(tournament=world.tournament, state=EntryState.ENTERED)
    assert players.count() == world.tournament.participants.count()  # the page makes each participant's entry
    assert f" {players.count()} " in text  # "Of N players" / "Из N игроков"
    silent = [e for e in players.select_related("participant__player") if not e.email and not e.telegram_chat_id]
    for entry in silent[:5]:
        assert entry.name in text, entry.name
