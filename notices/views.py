"""The organizer's "Notifications" tab (``/t/SLUG/notices/``): a broadcast to everyone, the players or the judges,
and who has been told what: every message with its channel, when the channel took it, or its failure (try the
failed ones again). And a judge's page to link Telegram (``/t/SLUG/notices/telegram/``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from base.after_commit import after_commit
from entries.models import Entry, EntryState
from entries.services import registering
from judges.models import Judge
from tournaments.mixins import TournamentMixin, signed_in
from tournaments.models import ParticipantStatus
from tournaments.permissions import OrganizerRequiredMixin

from .forms import BroadcastForm
from .models import Broadcast, JudgeChat, Message
from .services import bot

SHOWN = 500  # the newest messages listed


class NoticesView(OrganizerRequiredMixin, View):
    def get(self, request: HttpRequest, slug: str, form: BroadcastForm | None = None,
            status: int = 200) -> HttpResponse:
        tournament = self.tournament
        registering.ensure_entries(tournament)
        rows = list(Message.objects.filter(tournament=tournament).exclude(address="")
                    .select_related("round__stage")[:SHOWN])
        totals = Message.objects.filter(tournament=tournament).exclude(address="").aggregate(
            all=Count("id"), handed=Count("id", filter=Q(handed_at__isnull=False)),
            failed=Count("id", filter=Q(handed_at__isnull=True, given_up=True)),
            waiting=Count("id", filter=Q(handed_at__isnull=True, given_up=False)))
        # whom a broadcast to the players reaches (services/compose.py broadcast): no application rejected
        players = Entry.objects.filter(tournament=tournament, state=EntryState.ENTERED).exclude(
            participant__status=ParticipantStatus.REJECTED)
        unreachable = list(players.filter(unsubscribed_at__isnull=True, telegram_chat_id__isnull=True, email="")
                           .select_related("participant__player"))
        return render(request, "notices/organizer.html", {
            "tournament": tournament, "form": form or BroadcastForm(), "rows": rows, "totals": totals,
            "shown": SHOWN, "unreachable": unreachable,
            "unsubscribed": players.filter(unsubscribed_at__isnull=False).count(),
            "telegram": players.filter(telegram_chat_id__isnull=False, unsubscribed_at__isnull=True).count(),
            "email": players.exclude(email="").filter(unsubscribed_at__isnull=True).count(),
            "players": players.count(),
            "broadcasts": Broadcast.objects.filter(tournament=tournament).annotate(
                sent=Count("messages"), handed=Count("messages", filter=Q(messages__handed_at__isnull=False)))[:20],
            "bot": bool(settings.TELEGRAM_BOT_TOKEN),
        }, status=status)

    def post(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        handler = self.ACTIONS.get(request.POST.get("action", ""))
        if handler is None:
            messages.error(request, _("Unknown action."))
            return self.get(request, slug, status=400)
        return handler(self, request, slug)

    def retry(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        from . import tasks

        ids = list(Message.objects.filter(tournament=self.tournament, handed_at__isnull=True)
                   .exclude(address="").values_list("pk", flat=True))
        Message.objects.filter(pk__in=ids).update(given_up=False)
        if ids:
            after_commit(lambda: tasks.retry.enqueue(ids))
        messages.success(request, _("%(n)s message(s) not handed to their channel will be tried again.")
                         % {"n": len(ids)})
        return redirect(request.path)

    def broadcast(self, request: HttpRequest, slug: str) -> HttpResponseBase:
        from . import tasks

        form = BroadcastForm(request.POST)
        if not form.is_valid():
            return self.get(request, slug, form, status=400)
        item = Broadcast.objects.create(tournament=self.tournament, audience=form.cleaned_data["audience"],
                                        text=form.cleaned_data["text"], created_by=signed_in(request))
        after_commit(lambda: tasks.broadcast.enqueue(item.pk))
        messages.success(request, _("The message is being sent; the list below shows who has been told."))
        return redirect(request.path)

    ACTIONS: ClassVar[dict[str, Callable[[NoticesView, HttpRequest, str], HttpResponseBase]]] = {
        "retry": retry, "broadcast": broadcast,
    }


class JudgeTelegramView(LoginRequiredMixin, TournamentMixin, View):
    """A judge (or an organizer) of the tournament links their Telegram: the bot's deep link with their token."""

    def check_access(self, request: HttpRequest, **kwargs: Any) -> None:
        user = signed_in(request)
        if not (Judge.objects.filter(tournament=self.tournament, user=user).exists()
                or self.tournament.is_organizer(user)):
            raise PermissionDenied

    def get(self, request: HttpRequest, slug: str) -> HttpResponse:
        user = signed_in(request)
        token = bot.judge_link_token(user)
        chat = JudgeChat.objects.get(user=user)
        return render(request, "notices/judge_telegram.html", {
            "tournament": self.tournament, "link": bot.deep_link(token), "chat": chat, "email": user.email})
