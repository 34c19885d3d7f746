"""Who may print or download what (checked on the server by every view of this app).

- Seating sheets and blank protocol forms: the tournament's organizers and its chief judge
  (any round, a draft one marked as such).
- Results (CSV, XLSX, the printable sheet): anyone while the standings are public; while they are
  hidden, only the organizers (the documents then say they are not for publication), as the
  standings API decides.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.permissions import staff_of
from tournaments.models import Tournament

if TYPE_CHECKING:
    from base.users import AnyUser



def may_print(user: AnyUser, tournament: Tournament) -> bool:
    return staff_of(user, tournament).may("print")


def may_see_results(user: AnyUser, tournament: Tournament) -> bool:
    return not tournament.standings_hidden or tournament.is_organizer(user)
