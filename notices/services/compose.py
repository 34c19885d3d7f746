"""What each event tells whom (docs/notifications.md): the rows of ``Message``, each in its reader's language
(``Entry.language`` for a player; a judge's linked chat's, else the site's), one per channel the person has.
Everything here runs in the ``notices`` worker (``notices.tasks``), never in a request."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from entries.models import Entry, EntryState
from games.models import Game, GameState, Protest, ProtestDecision
from judges.models import Judge, JudgeAssignment
from tournaments.models import Bye, ParticipantStatus, Round, RoundState, Seat, Tournament

from ..models import Audience, Broadcast, Channel, JudgeChat, Kind, Message

User = get_user_model()
ROUND_KINDS = (Kind.SEAT, Kind.BYE, Kind.WITHDRAWN)


def site(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def private_link(entry: Entry, tournament: Tournament) -> str:
    return site(reverse("entries_public:me", kwargs={"slug": tournament.slug, "token": entry.token}))


def unsubscribe_link(entry: Entry, tournament: Tournament) -> str:
    return site(reverse("notices_public:unsubscribe", kwargs={"slug": tournament.slug, "token": entry.token}))


@dataclass
class Reader:
    """Someone to tell: a player (``entry``) or a judge (``user``), and their channels."""

    name: str
    language: str
    channels: list[tuple[str, str]]
    entry: Entry | None = None
    user: Any = None
    headers: dict[str, str] = field(default_factory=dict)
    footer_email: str = ""


def player(entry: Entry, tournament: Tournament) -> Reader | None:
    """A player who has not unsubscribed, with an e-mail or a linked Telegram chat; else None."""
    if entry.unsubscribed_at is not None:
        return None
    channels = []
    if entry.email:
        channels.append((Channel.EMAIL.value, entry.email))
    if entry.telegram_chat_id:
        channels.append((Channel.TELEGRAM.value, str(entry.telegram_chat_id)))
    if not channels:
        return None
    language = entry.language if entry.language in ("ru", "en") else settings.LANGUAGE_CODE
    stop = unsubscribe_link(entry, tournament)
    with translation.override(language):
        footer = "\n\n" + _("Your page: %(link)s") % {"link": private_link(entry, tournament)} + "\n" + \
            _("Stop these messages in one tap: %(link)s") % {"link": stop}
    return Reader(entry.name, language, channels, entry=entry,
                  headers={"List-Unsubscribe": f"<{stop}>"}, footer_email=footer)


def judge(user: Any) -> Reader | None:
    """A judge: their account's e-mail, and their Telegram chat if they linked it."""
    chat = JudgeChat.objects.filter(user=user).first()
    channels = []
    if user.email:
        channels.append((Channel.EMAIL.value, user.email))
    if chat is not None and chat.chat_id:
        channels.append((Channel.TELEGRAM.value, str(chat.chat_id)))
    if not channels:
        return None
    language = chat.language if chat is not None and chat.language in ("ru", "en") else settings.LANGUAGE_CODE
    return Reader(user.get_full_name() or user.get_username(), language, channels, user=user)


def messages_for(reader: Reader, tournament: Tournament, kind: str, subject: str, text: str, *,
                 round: Round | None = None, broadcast: Broadcast | None = None,
                 facts: dict[str, Any] | None = None) -> list[Message]:
    """The rows for one reader: one per channel; an e-mail carries the private page and the unsubscribe link (and
    the List-Unsubscribe header), a Telegram message the private page and /stop."""
    rows = []
    for channel, address in reader.channels:
        body, kept = text, dict(facts or {})
        if channel == Channel.EMAIL and reader.footer_email:
            body = text + reader.footer_email
            kept["headers"] = reader.headers
        elif channel == Channel.TELEGRAM and reader.entry is not None:
            with translation.override(reader.language):
                body = text + "\n\n" + _("Your page: %(link)s") % {"link": private_link(reader.entry, tournament)} \
                    + "\n" + _("/stop: no more messages")
        rows.append(Message(tournament=tournament, entry=reader.entry, user=reader.user, name=reader.name[:200],
                            channel=channel, address=address, kind=kind, language=reader.language,
                            subject=subject[:200], text=body, facts=kept, round=round, broadcast=broadcast))
    return rows


def when(moment: Any) -> str:
    return formats.date_format(timezone.localtime(moment), "j E, H:i") if moment else ""


def round_name(round_: Round) -> str:
    return _("%(stage)s, round %(n)s") % {"stage": round_.stage, "n": round_.number}


# --- a round published, re-seated, its start moved, withdrawn -------------------------------------------------------

def last_told(round_: Round) -> dict[int, dict[str, Any]]:
    """What each entry was last told about this round (the newest message of a round kind), by entry id."""
    told: dict[int, dict[str, Any]] = {}
    for entry_id, facts in (Message.objects.filter(round=round_, kind__in=ROUND_KINDS, entry__isnull=False)
                            .order_by("entry_id", "-created", "-id").values_list("entry_id", "facts")):
        if entry_id not in told:
            told[entry_id] = {k: v for k, v in facts.items() if k != "headers"}
    return told


def seat_text(round_: Round, tournament: Tournament, facts: dict[str, Any], changed: bool) -> tuple[str, str]:
    start = when(round_.starts_at)
    if facts["kind"] == Kind.SEAT:
        subject = _("%(tournament)s: round %(n)s, table %(table)s, seat %(seat)s") % {
            "tournament": tournament.name, "n": round_.number, "table": facts["table"], "seat": facts["seat"]}
        text = _("%(round)s: your table is %(table)s, your seat %(seat)s.") % {
            "round": round_name(round_), "table": facts["table"], "seat": facts["seat"]}
    else:
        subject = _("%(tournament)s: round %(n)s, a bye") % {"tournament": tournament.name, "n": round_.number}
        text = _("%(round)s: you have no table this round (a bye).") % {"round": round_name(round_)}
    if start:
        text += " " + _("The round starts at %(time)s.") % {"time": start}
    if changed:
        text = _("The seating has changed.") + " " + text
    return subject, f"{tournament.name}\n{text}"


def round_published(round_id: int) -> list[Message]:
    """Each player's table, seat and start time; after a re-seat or a new start time, only those whose facts
    changed (``last_told``); a player told of this round who is no longer in it is told so."""
    round_ = Round.objects.select_related("stage__tournament").filter(pk=round_id).first()
    if round_ is None or round_.state != RoundState.PUBLISHED:
        return []
    tournament = round_.stage.tournament
    now_facts: dict[int, dict[str, Any]] = {}
    start = round_.starts_at.isoformat() if round_.starts_at else ""
    for participant, table, seat in Seat.objects.filter(round=round_).values_list(
            "participant_id", "table__number", "number"):
        now_facts[participant] = {"kind": Kind.SEAT.value, "table": table, "seat": seat, "starts": start}
    for participant in Bye.objects.filter(round=round_).values_list("participant_id", flat=True):
        now_facts[participant] = {"kind": Kind.BYE.value, "starts": start}
    told = last_told(round_)
    entries = Entry.objects.filter(tournament=tournament).filter(
        Q(participant_id__in=list(now_facts)) | Q(pk__in=list(told))).select_related("participant__player")
    rows: list[Message] = []
    for entry in entries:
        facts = now_facts.get(entry.participant_id or 0)
        before = told.get(entry.pk)
        if facts == before:
            continue
        reader = player(entry, tournament)
        if reader is None:
            continue
        with translation.override(reader.language):
            if facts is None:
                if before is None or before.get("kind") == Kind.WITHDRAWN:
                    continue
                subject = _("%(tournament)s: round %(n)s") % {"tournament": tournament.name, "n": round_.number}
                text = _("%(round)s: you are no longer seated in this round; the seating sent before is not "
                         "valid.") % {"round": round_name(round_)}
                rows += messages_for(reader, tournament, Kind.WITHDRAWN, subject, f"{tournament.name}\n{text}",
                                     round=round_, facts={"kind": Kind.WITHDRAWN.value})
                continue
            changed = before is not None and before.get("kind") != Kind.WITHDRAWN
            subject, text = seat_text(round_, tournament, facts, changed)
            rows += messages_for(reader, tournament, facts["kind"], subject, text, round=round_, facts=facts)
    return rows


def round_withdrawn(round_id: int) -> list[Message]:
    """The round is a draft again (and stayed one): everyone told a seat or a bye in it hears it is withdrawn."""
    round_ = Round.objects.select_related("stage__tournament").filter(pk=round_id).first()
    if round_ is None or round_.state == RoundState.PUBLISHED:
        return []
    tournament = round_.stage.tournament
    told = {k: v for k, v in last_told(round_).items() if v.get("kind") != Kind.WITHDRAWN}
    rows: list[Message] = []
    for entry in Entry.objects.filter(pk__in=list(told)).select_related("participant__player"):
        reader = player(entry, tournament)
        if reader is None:
            continue
        with translation.override(reader.language):
            subject = _("%(tournament)s: round %(n)s withdrawn") % {"tournament": tournament.name,
                                                                    "n": round_.number}
            text = _("%(round)s is withdrawn: the seating sent before is not valid. You will be told the new "
                     "one.") % {"round": round_name(round_)}
            rows += messages_for(reader, tournament, Kind.WITHDRAWN, subject, f"{tournament.name}\n{text}",
                                 round=round_, facts={"kind": Kind.WITHDRAWN.value})
    return rows


# --- a protest decided --------------------------------------------------------------------------------------------

def protest_decided(protest_id: int) -> list[Message]:
    """To the player who filed it (the protest's seat); an upheld protest changes the game's protocol, so the
    table's other players are told too."""
    protest = Protest.objects.select_related("game__table__round__stage__tournament").filter(pk=protest_id).first()
    if protest is None or protest.decision not in (ProtestDecision.UPHELD, ProtestDecision.REJECTED) or \
            Message.objects.filter(kind=Kind.PROTEST, facts__protest=protest.pk).exists():
        return []  # not decided, or told already
    round_ = protest.game.table.round
    tournament = round_.stage.tournament
    seats = dict(Seat.objects.filter(table=protest.game.table).values_list("number", "participant_id"))
    filer = seats.get(protest.seat)
    concerned = list(seats.values()) if protest.decision == ProtestDecision.UPHELD else [filer]
    rows: list[Message] = []
    for entry in Entry.objects.filter(tournament=tournament, participant_id__in=[p for p in concerned if p]) \
            .select_related("participant__player"):
        reader = player(entry, tournament)
        if reader is None:
            continue
        with translation.override(reader.language):
            decision = _("upheld") if protest.decision == ProtestDecision.UPHELD else _("rejected")
            place = _("%(round)s, table %(table)s") % {"round": round_name(round_), "table": protest.game.table.number}
            if entry.participant_id == filer:
                subject = _("%(tournament)s: your protest is %(decision)s") % {"tournament": tournament.name,
                                                                              "decision": decision}
                text = _("Your protest (%(place)s) is %(decision)s: %(reason)s") % {
                    "place": place, "decision": decision, "reason": protest.reason}
            else:
                subject = _("%(tournament)s: a protest about your game is upheld") % {"tournament": tournament.name}
                text = _("A protest about your game (%(place)s, seat %(seat)s) is upheld: %(reason)s. The protocol "
                         "is being corrected.") % {"place": place, "seat": protest.seat, "reason": protest.reason}
            rows += messages_for(reader, tournament, Kind.PROTEST, subject, f"{tournament.name}\n{text}",
                                 round=round_, facts={"protest": protest.pk})
    return rows


# --- a protocol sent back to its judge ----------------------------------------------------------------------------

def judges_of(game: Game, also: Iterable[int] = ()) -> list[Any]:
    """The judges assigned to the game's table (for its round or its whole stage), and ``also`` (the user who
    submitted it)."""
    round_ = game.table.round
    users = set(JudgeAssignment.objects.filter(
        Q(round=round_) | Q(round__isnull=True, stage=round_.stage_id), table=game.table.number,
        judge__tournament=round_.stage.tournament_id).values_list("judge__user_id", flat=True))
    users |= {pk for pk in also if pk}
    return list(User.objects.filter(pk__in=users))


def sent_back(game_id: int, submitter: int | None) -> list[Message]:
    """To the table's judges and whoever submitted the version sent back (its history's last submitter), once per
    version sent back."""
    game = Game.objects.select_related("table__round__stage__tournament").filter(pk=game_id).first()
    if game is None or not game.sent_back_comment or game.state != GameState.DRAFT or Message.objects.filter(
            kind=Kind.SENT_BACK, facts__game=game.pk, facts__version=game.version).exists():
        return []
    if submitter is None:
        submitter = (game.history.filter(submitted_by__isnull=False)
                     .order_by("-history_date").values_list("submitted_by_id", flat=True).first())
    round_ = game.table.round
    tournament = round_.stage.tournament
    rows: list[Message] = []
    for user in judges_of(game, [submitter] if submitter else []):
        reader = judge(user)
        if reader is None:
            continue
        with translation.override(reader.language):
            subject = _("%(tournament)s: round %(n)s, table %(table)s: the protocol is sent back") % {
                "tournament": tournament.name, "n": round_.number, "table": game.table.number}
            text = _("The protocol of %(round)s, table %(table)s is sent back to you: %(comment)s") % {
                "round": round_name(round_), "table": game.table.number, "comment": game.sent_back_comment}
            text += "\n" + _("Correct it and submit it again: %(link)s") % {
                "link": site(reverse("games:protocol", kwargs={"slug": tournament.slug, "table": game.table_id}))}
            rows += messages_for(reader, tournament, Kind.SENT_BACK, subject, f"{tournament.name}\n{text}",
                                 round=round_, facts={"game": game.pk, "version": game.version})
    return rows


# --- the results final ----------------------------------------------------------------------------------------------

def results_final(tournament_id: int) -> list[Message]:
    """Once (never twice per tournament): each participant's final place, when the results are final as the
    series reads them (the last stage closed, or a final all played)."""
    from series.places import may_be_over, tournament_places

    tournament = Tournament.objects.select_related("results_version").filter(pk=tournament_id).first()
    if tournament is None or Message.objects.filter(tournament=tournament, kind=Kind.FINAL).exists():
        return []
    if not may_be_over(tournament):  # most confirmations: the places are not read (a model and a ranking) for nothing
        return []
    places = tournament_places([tournament])[tournament.pk]
    if not places.over:
        return []
    link = site(reverse("public:standings", kwargs={"slug": tournament.slug}))
    rows: list[Message] = []
    for entry in Entry.objects.filter(tournament=tournament, state=EntryState.ENTERED,
                                      participant__status=ParticipantStatus.ACCEPTED).select_related(
            "participant__player"):
        reader = player(entry, tournament)
        if reader is None:
            continue
        assert entry.participant is not None
        place = places.places.get(entry.participant.player_id)
        with translation.override(reader.language):
            subject = _("%(tournament)s: the results are final") % {"tournament": tournament.name}
            text = _("The results of %(tournament)s are final.") % {"tournament": tournament.name}
            if place:
                text += " " + _("Your place: %(place)s of %(players)s.") % {"place": place,
                                                                           "players": places.players}
            text += "\n" + _("The standings: %(link)s") % {"link": link}
            rows += messages_for(reader, tournament, Kind.FINAL, subject, text, facts={"place": place})
    if not rows:  # nobody to tell: a row all the same, so that the tournament is not read again at each change
        rows.append(Message(tournament=tournament, name="—", channel=Channel.EMAIL, address="", kind=Kind.FINAL,
                            subject="", text="", given_up=True, error="nobody to tell"))
    return rows


# --- the organizer's broadcast ----------------------------------------------------------------------------------

def broadcast(broadcast_id: int) -> list[Message]:
    item = Broadcast.objects.select_related("tournament").filter(pk=broadcast_id).first()
    if item is None or item.messages.exists():
        return []
    tournament = item.tournament
    readers: list[Reader] = []
    if item.audience in (Audience.EVERYONE, Audience.PLAYERS):
        for entry in Entry.objects.filter(tournament=tournament, state=EntryState.ENTERED).exclude(
                participant__status=ParticipantStatus.REJECTED).select_related("participant__player"):
            found = player(entry, tournament)
            if found is not None:
                readers.append(found)
    if item.audience in (Audience.EVERYONE, Audience.JUDGES):
        for row in Judge.objects.filter(tournament=tournament).select_related("user"):
            found = judge(row.user)
            if found is not None:
                readers.append(found)
    rows: list[Message] = []
    for reader in readers:
        with translation.override(reader.language):
            subject = _("%(tournament)s: a message from the organizer") % {"tournament": tournament.name}
        rows += messages_for(reader, tournament, Kind.BROADCAST, subject, f"{tournament.name}\n{item.text}",
                             broadcast=item)
    return rows
