"""Check-in at the venue (docs/check-in.md): open and close a session, tick a player present or not (the
organizer, a volunteer's link or the player at the door), the roll of a session and the session that speaks for a
round. Marking a round's missing players absent is the round's (``running.services.no_shows``, above this app).

Every change is a service under ``transaction.atomic``. A tick writes only its participant's row, with the state
asked for (never a toggle), so two phones ticking at once never lose each other's ticks and a tick sent twice
(a retried request on the venue's Wi-Fi) changes nothing."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import SeatingError
from tournaments.models import Participant, ParticipantStatus, Round, Stage, Tournament
from tournaments.services.stage_players import stage_players

from .models import CheckIn, CheckInMark, CheckInState, NoShow

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class CheckInError(SeatingError):
    """A check-in action the session's state forbids (a seating error too: the round page shows it as its own)."""


def new_token() -> str:
    return secrets.token_urlsafe(24)


@transaction.atomic
def open_check_in(tournament: Tournament, user: User, *, stage: Stage | None = None,
                  round_number: int | None = None) -> CheckIn:
    """A new open session for the day (no stage) or for round ``round_number`` of ``stage``; one open session
    for the same day or round at a time (the one already open is returned)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)  # two organizers opening at once: one session
    if (stage is None) != (round_number is None) or (stage is not None and stage.tournament_id != tournament.pk):
        raise CheckInError(_("Choose the day or a round of a stage."))
    same = CheckIn.objects.filter(tournament=tournament, stage=stage, round_number=round_number,
                                  state=CheckInState.OPEN).first()
    if same is not None:
        return same
    return CheckIn.objects.create(tournament=tournament, stage=stage, round_number=round_number, opened_by=user,
                                  volunteer_token=new_token(), door_token=new_token())


def _lock(check_in: CheckIn) -> CheckIn:
    return CheckIn.objects.select_for_update().get(pk=check_in.pk)


@transaction.atomic
def close_check_in(check_in: CheckIn, user: User) -> CheckIn:
    """Closed: no more ticks, its links answer 404; its marks stay for the round page."""
    check_in = _lock(check_in)
    if check_in.state == CheckInState.CLOSED:
        raise CheckInError(_("The check-in is already closed."))
    check_in.state, check_in.closed_at, check_in.closed_by = CheckInState.CLOSED, timezone.now(), user
    check_in.save(update_fields=["state", "closed_at", "closed_by"])
    return check_in


@transaction.atomic
def reopen_check_in(check_in: CheckIn) -> CheckIn:
    check_in = _lock(check_in)
    if check_in.state == CheckInState.OPEN:
        raise CheckInError(_("The check-in is already open."))
    if CheckIn.objects.filter(tournament_id=check_in.tournament_id, stage=check_in.stage,
                              round_number=check_in.round_number, state=CheckInState.OPEN).exists():
        raise CheckInError(_("Another check-in for the same day or round is open."))
    check_in.state, check_in.closed_at, check_in.closed_by = CheckInState.OPEN, None, None
    check_in.save(update_fields=["state", "closed_at", "closed_by"])
    return check_in


@transaction.atomic
def new_links(check_in: CheckIn) -> CheckIn:
    """New volunteer and door tokens: the links and QR codes given before answer 404 from now on."""
    check_in = _lock(check_in)
    check_in.volunteer_token, check_in.door_token = new_token(), new_token()
    check_in.save(update_fields=["volunteer_token", "door_token"])
    return check_in


def expected(check_in: CheckIn) -> list[Participant]:
    """Who should check in: the round's stage players (or, for the day, every accepted participant), not
    disqualified, by number."""
    if check_in.stage is not None:
        people = stage_players(check_in.stage)
    else:
        people = list(check_in.tournament.participants.filter(status=ParticipantStatus.ACCEPTED)
                      .select_related("player").order_by("number", "id"))
    return [p for p in people if p.disqualified_at is None]


def tick(check_in: CheckIn, participant_id: int, present: bool, *, by: User | None, source: str) -> CheckInMark:
    """Set one participant present (or not) in an open session; the same state again changes nothing."""
    with transaction.atomic():
        session = CheckIn.objects.select_related("stage", "tournament").get(pk=check_in.pk)  # no lock: ticks of
        # different players must not queue on the session; a tick racing the close is harmless
        if session.state != CheckInState.OPEN:
            raise CheckInError(_("The check-in is closed."))
        if participant_id not in {p.pk for p in expected(session)}:
            raise CheckInError(_("This player is not on the check-in list."))
        now = timezone.now()
        values = {"present": present, "at": now, "by": by, "source": source}
        mark = CheckInMark.objects.select_for_update().filter(check_in=session, participant_id=participant_id).first()
        if mark is None:
            try:
                with transaction.atomic():  # another phone may insert the same row meanwhile: then update it
                    return CheckInMark.objects.create(check_in=session, participant_id=participant_id, **values)
            except IntegrityError:
                mark = CheckInMark.objects.select_for_update().get(check_in=session, participant_id=participant_id)
        if mark.present != present:
            for name, value in values.items():
                setattr(mark, name, value)
            mark.save(update_fields=list(values))
        return mark


@dataclass(frozen=True)
class Row:
    participant: Participant
    mark: CheckInMark | None

    @property
    def present(self) -> bool:
        return self.mark is not None and self.mark.present


@dataclass(frozen=True)
class Roll:
    """The list of a session: each expected player with their mark, missing first, then by number."""

    check_in: CheckIn
    rows: list[Row]

    @property
    def present(self) -> int:
        return sum(row.present for row in self.rows)

    @property
    def missing(self) -> list[Participant]:
        return [row.participant for row in self.rows if not row.present]

    @property
    def total(self) -> int:
        return len(self.rows)


def roll(check_in: CheckIn) -> Roll:
    """Three queries: the players (with the stage's list when it has one) and the marks."""
    marks = {m.participant_id: m for m in check_in.marks.all()}
    rows = [Row(p, marks.get(p.pk)) for p in expected(check_in)]
    rows.sort(key=lambda row: row.present)  # stable: missing first, each part by number
    return Roll(check_in, rows)


def for_round(round_: Round) -> CheckIn | None:
    """The session that speaks for a round: the round's own (the open one, else the latest), else the day's
    session opened on the same date (local time), open or used. One query."""
    rows = list(CheckIn.objects.filter(Q(stage=round_.stage, round_number=round_.number) | Q(stage__isnull=True),
                                       tournament_id=round_.stage.tournament_id)
                .select_related("stage", "tournament")
                .order_by("-state", "-opened_at", "-id")[:20])  # "open" sorts after "closed": open ones first
    own = [c for c in rows if c.stage_id is not None]
    today = timezone.localdate()
    day = [c for c in rows if c.stage_id is None and timezone.localdate(c.opened_at) == today]
    found = own or day
    return found[0] if found else None


def active_no_shows(round_: Round) -> list[NoShow]:
    return list(NoShow.objects.filter(round=round_, restored_at__isnull=True).select_related("participant__player")
                .order_by("participant__number", "participant_id"))
