"""What a player's private page shows (docs/players-channel.md): where they sit now and next, the check-ins open
for them, their protests. The games and points are the public player page's (``public.views.people``), the
current round is the public pages' own (``Snapshot.current_rounds``): one notion of each."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Any

from django.db.models import F
from django.http import Http404
from django.template.loader import render_to_string

from checkin import services as checkin
from checkin.models import CheckIn, CheckInMark, CheckInState
from games.models import Protest
from public.snapshot import Snapshot
from public.views.people import PlayerView
from tournaments.labels import PROTEST_DECISIONS
from tournaments.models import Absence, Bye, Participant, Round, RoundState, Seat, Stage, Tournament


@dataclass(frozen=True)
class Place:
    """Where the player is in one round: a table and seat, a bye, an absence, or not in it (``table`` None)."""

    stage: Stage
    number: int
    starts_at: dt.datetime | None
    published: bool
    table: int | None = None
    seat: int | None = None
    bye: bool = False
    absent: bool = False


def place_in(participant: Participant, round_: Round) -> Place:
    seat = Seat.objects.filter(round=round_, participant=participant).select_related("table").first() \
        if round_.state == RoundState.PUBLISHED else None
    return Place(round_.stage, round_.number, round_.starts_at, round_.state == RoundState.PUBLISHED,
                 seat.table.number if seat else None, seat.number if seat else None,
                 round_.state == RoundState.PUBLISHED and Bye.objects.filter(round=round_, participant=participant)
                 .exists(),
                 Absence.objects.filter(round=round_, participant=participant).exists())


def rounds_of(tournament: Tournament) -> list[Round]:
    return list(Round.objects.filter(stage__tournament=tournament).select_related("stage")
                .order_by("stage__order", "number"))


def now_and_next(tournament: Tournament, participant: Participant,
                 snapshot: Snapshot) -> tuple[Place | None, Place | None]:
    """The round being played (the public pages' current round) with the player's place, and the next round
    after it: published (with the place) or only scheduled (its start time)."""
    current, _ = snapshot.current_rounds()
    rounds = rounds_of(tournament)
    if current is None:
        upcoming = [r for r in rounds if r.starts_at is not None]
        return None, place_in(participant, upcoming[0]) if upcoming else None
    index = next((i for i, r in enumerate(rounds)
                  if r.stage_id == current.stage.pk and r.number == current.number), None)
    if index is None:
        return None, None
    later = [r for r in rounds[index + 1:] if r.state == RoundState.PUBLISHED or r.starts_at is not None]
    return place_in(participant, rounds[index]), place_in(participant, later[0]) if later else None


def open_check_ins(participant: Participant) -> list[tuple[CheckIn, bool]]:
    """The check-ins open now that expect the player, with whether they are marked present."""
    out = []
    for session in CheckIn.objects.filter(tournament_id=participant.tournament_id, state=CheckInState.OPEN) \
            .select_related("stage", "tournament").order_by("pk"):
        if any(p.pk == participant.pk for p in checkin.expected(session)):
            present = CheckInMark.objects.filter(check_in=session, participant=participant, present=True).exists()
            out.append((session, present))
    return out


def protests_of(participant: Participant) -> list[dict[str, Any]]:
    """The protests lodged from the player's seat in their games, with the decision and its reason."""
    rows = (Protest.objects.filter(game__table__seats__participant=participant,
                                   game__table__seats__number=F("seat"))
            .select_related("game__table__round__stage").order_by("game__table__round__stage__order",
                                                                  "game__table__round__number", "pk"))
    return [{"stage": p.game.table.round.stage, "round": p.game.table.round.number, "table": p.game.table.number,
             "seat": p.seat, "text": p.text, "reason": p.reason,
             "decision": PROTEST_DECISIONS.get(p.decision) if p.decision else None,  # type: ignore[call-overload]
             "decided": p.decision not in (None, "", "pending")} for p in rows]


def games_html(tournament: Tournament, participant: Participant, snapshot: Snapshot) -> str:
    """The public player page's games, points, "why am I ranked here" and "what do I need" (hidden standings
    stay hidden: it is that page's own fragment), or "" when the player has none yet."""
    view = PlayerView()
    view.tournament, view.snapshot = tournament, snapshot
    try:
        context = view.fragment_context(player=participant.ext_id)
    except Http404:
        return ""
    return render_to_string("public/player.html", {"tournament": tournament, "hidden": snapshot.hidden,
                                                   **context})
