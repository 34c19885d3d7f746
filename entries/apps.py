from __future__ import annotations

from django.apps import AppConfig


class EntriesConfig(AppConfig):
    """The players' own channel (docs/players-channel.md): registering themselves online with a waiting list,
    who is coming, a private link per player with their seat, and the calendars. Above ``public``: the private
    page shows the public player page's games and points for its holder."""

    name = "entries"
    verbose_name = "entries"
