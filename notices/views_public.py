"""A player's own links beside their private page (``/p/SLUG/me/TOKEN/…``): link Telegram (the bot's deep link
with the entry's token) and unsubscribe in one tap (the link in every e-mail opens it and unsubscribes at once;
the private page's button posts it)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from entries.views_public import PrivateView

from .services import bot


def me(slug: str, token: str) -> str:
    return reverse("entries_public:me", kwargs={"slug": slug, "token": token})


class TelegramLinkView(PrivateView):
    def get(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        link = bot.deep_link(bot.entry_link_token(self.entry))
        if not link:
            messages.error(request, _("Telegram is not set up for this site yet: ask the organizer."))
            return redirect(me(slug, token))
        return redirect(link)


class UnsubscribeView(PrivateView):
    def get(self, request: HttpRequest, slug: str, token: str) -> HttpResponse:
        """The e-mail's link: one tap unsubscribes."""
        entry = self.entry
        if entry.unsubscribed_at is None:
            entry.unsubscribed_at = timezone.now()
            entry.save(update_fields=["unsubscribed_at"])
        return render(request, "notices/unsubscribed.html", {"tournament": self.tournament, "entry": entry})

    def post(self, request: HttpRequest, slug: str, token: str) -> HttpResponseBase:
        entry = self.entry
        if request.POST.get("action") == "subscribe":
            entry.unsubscribed_at = None
            messages.success(request, _("You will receive the messages again."))
        else:
            entry.unsubscribed_at = timezone.now()
            messages.success(request, _("No more messages: you are unsubscribed."))
        entry.save(update_fields=["unsubscribed_at"])
        return redirect(me(slug, token))
