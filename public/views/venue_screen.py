"""The venue screen: a full-screen page for the hall's projector (no login; the organizer copies its link from the
hall screen's tab, ``venue_screen``), its slides rotating in the browser, polled like every live page."""

from __future__ import annotations

from typing import Any

from venue_screen.services import screen_of

from ..venue_slides import slides
from .base import PublicTournamentView


class ScreenView(PublicTournamentView):
    page_template = "public/venue_screen_page.html"
    fragment_template = "public/venue_screen.html"
    live = True

    def fragment_context(self, **kwargs: Any) -> dict[str, Any]:
        settings = screen_of(self.tournament)
        return {"slides": slides(self.snapshot, settings), "screen": settings}
