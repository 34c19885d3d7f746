"""A table's line-up checked before it is saved, in words that name the seats: "Seats 3 and 7 are both don; the
table needs one don." ``scoring`` counts roles ("2 dons at the table; fiim expects 1"); a judge with a phone needs
to know which seats to change, and keeps every role already chosen while fixing them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.model import EXTRA_CHARACTERS, Role
from scoring.rulesets import Ruleset
from tournaments.labels import ROLES

from ..models import Game
from .facts import ProtocolFacts
from .protocol import ProtocolError, change

if TYPE_CHECKING:
    from base.users import User


@dataclass(frozen=True)
class LineupProblem:
    seats: tuple[int, ...]  # the seats to look at (highlighted on the screen); empty: no seat in particular
    text: str


def seat_list(seats: Sequence[int]) -> str:
    """``3``, ``3 and 7``, ``2, 5 and 8``."""
    words = [str(n) for n in seats]
    if len(words) < 2:
        return "".join(words)
    return _("%(first)s and %(last)s") % {"first": ", ".join(words[:-1]), "last": words[-1]}


def lineup_problems(roles: Mapping[int, str], ruleset: Ruleset) -> list[LineupProblem]:
    """What is wrong with ``roles`` (seat number → role id, "" for none yet) for ``ruleset``'s table."""
    known = {role.value for role in Role}
    unset = sorted(n for n, role in roles.items() if role not in known)  # none yet, or no role at all
    found: list[LineupProblem] = []
    missing: list[LineupProblem] = []
    if unset:
        found.append(LineupProblem(tuple(unset), ngettext(
            "Seat %(seats)s has no role yet.", "Seats %(seats)s have no role yet.", len(unset))
            % {"seats": seat_list(unset)}))
    expected = ruleset.expected_roles()
    by_role: dict[Role, list[int]] = {}
    for n, role in sorted(roles.items()):
        if role in known:
            # an extra character (kostroma) takes a civilian's seat in the count, at most one of each
            counted = Role.CIVILIAN if Role(role) in EXTRA_CHARACTERS else Role(role)
            by_role.setdefault(counted, []).append(n)
            if counted != Role(role):
                by_role.setdefault(Role(role), []).append(n)
    for role in Role:
        seats = by_role.get(role, [])
        if role in EXTRA_CHARACTERS:
            if len(seats) > 1:
                text = (_("Seats %(seats)s are both %(role)s; a table has at most one.") if len(seats) == 2
                        else _("Seats %(seats)s are all %(role)s; a table has at most one."))
                found.append(LineupProblem(tuple(seats), text % {"seats": seat_list(seats), "role": ROLES[role]}))
            continue
        want = expected.get(role, 0)
        if len(seats) > want:
            found.append(LineupProblem(tuple(seats), surplus(seats, role, want)))
        elif len(seats) < want and not unset:  # while seats have no role, a missing one is said by that
            missing.append(LineupProblem((), shortage(seats, role, want)))
    return found + missing  # the seats to change first


def surplus(seats: Sequence[int], role: Role, want: int) -> str:
    if want == 0:
        return ngettext("Seat %(seats)s is %(role)s; this regulation has no such role.",
                        "Seats %(seats)s are %(role)s; this regulation has no such role.", len(seats)) % {
            "seats": seat_list(seats), "role": ROLES[role]}
    if len(seats) == 2:
        return ngettext("Seats %(seats)s are both %(role)s; the table needs %(want)s %(role)s.",
                        "Seats %(seats)s are both %(role)s; the table needs %(want)s.", want) % {
            "seats": seat_list(seats), "role": ROLES[role], "want": want}
    return ngettext("Seats %(seats)s are all %(role)s; the table needs %(want)s %(role)s.",
                    "Seats %(seats)s are all %(role)s; the table needs %(want)s.", want) % {
        "seats": seat_list(seats), "role": ROLES[role], "want": want}


def shortage(seats: Sequence[int], role: Role, want: int) -> str:
    if not seats:
        return _("No seat is %(role)s; the table needs %(want)s.") % {"role": ROLES[role], "want": want}
    return ngettext("Only seat %(seats)s is %(role)s; the table needs %(want)s.",
                    "Only seats %(seats)s are %(role)s; the table needs %(want)s.", len(seats)) % {
        "seats": seat_list(seats), "role": ROLES[role], "want": want}


class LineupRefused(ProtocolError):
    """The line-up breaks the table's composition: nothing is saved; ``roles`` are the roles posted (kept on the
    screen), ``problems`` name the seats to fix."""

    def __init__(self, roles: dict[int, str], problems: list[LineupProblem]) -> None:
        super().__init__(" ".join(problem.text for problem in problems))
        self.roles, self.problems = roles, problems


def posted_roles(game: Game, data: Mapping[str, Any]) -> dict[int, str]:
    """The role posted for each seat of ``game`` (``s<seat>_role``; a seat left out keeps its role)."""
    return {row.seat.number: str(data.get(f"s{row.seat.number}_role", row.role))
            for row in game.seats.select_related("seat")}


def save_lineup(game: Game, user: User, version: int, data: Mapping[str, Any], ruleset: Ruleset) -> Game:
    """The line-up as the screen posts it (each seat's ``s<seat>_role`` and an extra character's ``s<seat>_side``),
    saved at once, or refused whole (``LineupRefused``) when the table's composition is wrong."""
    roles = posted_roles(game, data)
    found = lineup_problems(roles, ruleset)
    if found:
        raise LineupRefused(roles, found)

    def set_roles(facts: ProtocolFacts) -> None:
        for seat in facts.seats:
            seat.role = str(data.get(f"s{seat.number}_role", seat.role))
            seat.side = str(data.get(f"s{seat.number}_side", seat.side) or "")

    return change(game, user, version, set_roles)
