"""The player registry: is the person typed (or read from a list or a file) someone already in it?

The rule, in docs/registry.md: names and nicknames are compared as ``normal_key`` makes them (case folded, ё as
е, spaces collapsed). The same full name with the same nickname, or with the same club, is the same person
(exact); the same full name otherwise, or the same nickname and club under another name, may be (ambiguous: the
organizer decides). A whole list is matched by one query, whatever its length.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

from django.db.models import Count, Exists, F, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.fields import BooleanField

from ..models import Participant, Player, Tournament, normal_key

if TYPE_CHECKING:
    import datetime as dt


@dataclass(frozen=True)
class Typed:
    """One person as the organizer typed them, a CSV row or a tournament file gives them."""

    surname: str
    first_name: str = ""
    patronymic: str = ""
    nickname: str = ""
    club: str = ""

    @property
    def name_key(self) -> str:
        return normal_key(" ".join(part for part in (self.surname, self.first_name, self.patronymic) if part))

    @classmethod
    def of(cls, data: dict[str, object]) -> Typed:
        """From a player form's cleaned data (the fields it lacks are empty)."""
        def text(name: str) -> str:
            value = data.get(name)
            return value if isinstance(value, str) else ""
        return cls(text("surname"), text("first_name"), text("patronymic"), text("nickname"), text("club"))


class Verdict(Enum):
    EXISTING = "existing"  # exactly one exact match: the same person
    AMBIGUOUS = "ambiguous"  # several exact matches, or only partial ones: the organizer decides
    NEW = "new"  # nobody like them in the registry


@dataclass(frozen=True)
class Candidate:
    """An existing player who may be the person typed, with what the organizer needs to recognise them."""

    player: Player
    exact: bool
    why: str  # what they share: "nickname" or "club" (with the name), "name" alone, "nickname and club", or
    # "nickname, a patronymic apart" (the nickname and the name, one of the two without its patronymic)
    played: int  # tournaments played (participations)
    last_tournament: str  # the name of the latest one, by its first day
    last_starts: dt.date | None
    registered_here: bool  # already a participant of the tournament registering them


@dataclass
class Match:
    candidates: list[Candidate] = field(default_factory=list)

    @property
    def exact(self) -> list[Candidate]:
        return [c for c in self.candidates if c.exact]

    @property
    def verdict(self) -> Verdict:
        if not self.candidates:
            return Verdict.NEW
        return Verdict.EXISTING if len(self.exact) == 1 else Verdict.AMBIGUOUS

    @property
    def proposed(self) -> Candidate | None:
        """The candidate to preselect: the single exact match, if there is one."""
        exact = self.exact
        return exact[0] if len(exact) == 1 else None

    def candidate(self, player_id: int) -> Candidate | None:
        return next((c for c in self.candidates if c.player.pk == player_id), None)


# The answer "a new player" to "Is this the same person?" (the others are a candidate's id).
NEW_PLAYER = "new"


def answer(value: str, match: Match) -> tuple[bool, Player | None]:
    """(answered, the existing player chosen or None for a new one) from a "same person" choice's value; a value
    that is none of the match's candidates is no answer."""
    if not match.candidates or value == NEW_PLAYER:
        return True, None
    candidate = match.candidate(int(value)) if value.isdigit() and len(value) < 19 else None
    return (True, candidate.player) if candidate else (False, None)


def is_exact(typed: Typed, player: Player) -> tuple[bool, str] | None:
    """(True, why): the same person; (False, why): maybe (ambiguous); None: not a candidate (docs/registry.md).
    ``why`` says what they share besides the name, as ``Candidate.why``."""
    same_name = typed.name_key == player.name_key
    nickname = normal_key(typed.nickname)
    club = normal_key(typed.club)
    same_nickname = bool(nickname) and nickname == player.nickname_key
    same_club = bool(club) and club == normal_key(player.club)
    if same_name:
        if same_nickname or same_club:
            return True, "nickname" if same_nickname else "club"
        return False, "name"
    if same_nickname and without_patronymic_alike(typed, player):
        # «Иванов Петр» «шмель» and «Иванов Пётр Сергеевич» «Шмель»: one of them left the patronymic out; the
        # organizer decides (a patronymic is optional on most forms, so people type it or not)
        return False, "nickname, a patronymic apart"
    if same_nickname and same_club:
        return False, "nickname and club"
    return None


def without_patronymic_alike(typed: Typed, player: Player) -> bool:
    """The same surname and first name, one of the two with no patronymic."""
    if bool(typed.patronymic) == bool(player.patronymic):
        return False
    return normal_key(f"{typed.surname} {typed.first_name}") == normal_key(f"{player.surname} {player.first_name}")


def candidates_of(keys: set[str], nicknames: set[str], tournament: Tournament | None) -> QuerySet[Player]:
    """Every player sharing a full name or a nickname with the list, with their tournaments counted and the
    latest named: one query."""
    latest = Participant.objects.filter(player=OuterRef("pk")).order_by(
        F("tournament__starts").desc(nulls_last=True), "-tournament__created", "-pk")
    here = Exists(Participant.objects.filter(player=OuterRef("pk"), tournament=tournament)) if tournament \
        else Value(False, output_field=BooleanField())
    return (Player.objects.filter(Q(name_key__in=keys) | Q(nickname_key__in=nicknames - {""}))
            .annotate(played=Count("participations", distinct=True),
                      last_tournament=Subquery(latest.values("tournament__name")[:1]),
                      last_starts=Subquery(latest.values("tournament__starts")[:1]),
                      registered_here=here)
            .order_by("-played", "surname", "first_name", "pk"))


def match_many(people: Sequence[Typed], tournament: Tournament | None = None) -> list[Match]:
    """Each person's candidates among the existing players (exact ones first), in one query for the whole list.
    ``tournament``: the one registering them, whose participants are marked ``registered_here``."""
    keys = {typed.name_key for typed in people if typed.name_key}
    nicknames = {normal_key(typed.nickname) for typed in people}
    if not keys and not nicknames - {""}:
        return [Match() for _ in people]
    by_name: dict[str, list[Player]] = defaultdict(list)
    by_nickname: dict[str, list[Player]] = defaultdict(list)
    for player in candidates_of(keys, nicknames, tournament):
        by_name[player.name_key].append(player)
        if player.nickname_key:
            by_nickname[player.nickname_key].append(player)
    matches = []
    for typed in people:
        seen: dict[int, Candidate] = {}
        for player in [*by_name.get(typed.name_key, ()), *by_nickname.get(normal_key(typed.nickname), ())]:
            found = is_exact(typed, player)
            if found is None or player.pk in seen:
                continue
            seen[player.pk] = Candidate(  # the annotations of candidates_of
                player, *found, getattr(player, "played", 0), getattr(player, "last_tournament", None) or "",
                getattr(player, "last_starts", None), bool(getattr(player, "registered_here", False)))
        matches.append(Match(sorted(seen.values(), key=lambda c: not c.exact)))
    return matches


def match_one(typed: Typed, tournament: Tournament | None = None) -> Match:
    return match_many([typed], tournament)[0]
