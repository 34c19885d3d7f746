"""The tournament's programme as iCalendar (RFC 5545, written by the ``icalendar`` library): the tournament's
days, each stage and each round with a start time, at the venue; for one player, the rounds they are seated in
carry their table and seat. A calendar application subscribed to the address reads it again (every 15 minutes,
as the calendar asks): a start time changed by the organizer, or a round published, is there at the next
reading. Each event keeps its UID, so a changed round is updated, not added twice."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from icalendar import Calendar, Event, vDuration

from tournaments.models import Participant, Round, RoundState, Seat, Tournament

# how long a round is taken to last in the calendar (a game of mafia: about an hour)
ROUND_LENGTH = dt.timedelta(hours=1)
REFRESH = dt.timedelta(minutes=15)


def location(tournament: Tournament) -> str:
    return ", ".join(part for part in (tournament.venue, tournament.city) if part)


def uid(tournament: Tournament, *parts: object) -> str:
    return "-".join(str(p) for p in (tournament.slug, *parts)) + "@mafia-tournaments"


def calendar_of(tournament: Tournament, participant: Participant | None = None, link: str = "") -> bytes:
    """The calendar of ``tournament``; with ``participant``, theirs (their table and seat in each published
    round, and ``link``, their private page, in every event)."""
    now = timezone.now()
    cal = Calendar()
    cal.add("prodid", "-//Mafia tournaments//players' channel//RU")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    name = tournament.name if participant is None else _("%(tournament)s: my games") % {"tournament": tournament.name}
    cal.add("x-wr-calname", name)
    cal.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    cal.add("x-published-ttl", vDuration(REFRESH))
    where = location(tournament)

    def event(key: str, summary: str, start: dt.datetime | dt.date, end: dt.datetime | dt.date,
              description: str = "") -> None:
        item = Event()
        item.add("uid", uid(tournament, *([participant.ext_id] if participant else []), key))
        item.add("dtstamp", now)
        item.add("dtstart", start)
        item.add("dtend", end)
        item.add("summary", summary)
        if where:
            item.add("location", where)
        text = "\n".join(part for part in (description, link) if part)
        if text:
            item.add("description", text)
        cal.add_component(item)

    if tournament.starts:
        event("days", tournament.name, tournament.starts, (tournament.ends or tournament.starts) + dt.timedelta(days=1))
    rounds = list(Round.objects.filter(stage__tournament=tournament, starts_at__isnull=False)
                  .select_related("stage").order_by("stage__order", "number"))
    seats = {}
    if participant is not None:
        seats = {(s.round.stage_id, s.round.number): s for s in Seat.objects.published()
                 .filter(participant=participant).select_related("round", "table")}
    by_stage: dict[int, list[Round]] = {}
    for round_ in rounds:
        by_stage.setdefault(round_.stage_id, []).append(round_)
    for stage_rounds in by_stage.values():
        stage = stage_rounds[0].stage
        first, last = stage_rounds[0].starts_at, stage_rounds[-1].starts_at
        assert first is not None and last is not None
        # the stage's rounds and when each starts («1 тур со временем начала» said nothing a player could use)
        starts = ", ".join(_("round %(number)s at %(when)s") % {
            "number": r.number, "when": date_format(timezone.localtime(r.starts_at), "j E, H:i")}
            for r in stage_rounds if r.starts_at is not None)
        event(f"stage-{stage.ext_id}", f"{tournament.name}: {stage}", first, last + ROUND_LENGTH,
              ngettext("%(n)s round: %(starts)s.", "%(n)s rounds: %(starts)s.", len(stage_rounds))
              % {"n": len(stage_rounds), "starts": starts})
        for round_ in stage_rounds:
            assert round_.starts_at is not None
            summary = _("%(stage)s, round %(number)s") % {"stage": stage, "number": round_.number}
            seat = seats.get((round_.stage_id, round_.number)) if round_.state == RoundState.PUBLISHED else None
            if seat is not None:
                summary += ": " + _("table %(table)s, seat %(seat)s") % {"table": seat.table.number,
                                                                         "seat": seat.number}
            event(f"round-{stage.ext_id}-{round_.number}", summary, round_.starts_at,
                  round_.starts_at + ROUND_LENGTH, tournament.name)
    return bytes(cal.to_ical())
