"""The bot's side of linking: a player (or a judge) opens ``https://t.me/BOT?start=TOKEN`` from their private page,
Telegram sends the bot ``/start TOKEN``; ``telegram_poll`` reads it by getUpdates and keeps the chat id. ``/stop``
unlinks every entry and judge of that chat. The replies go by sendMessage, in the person's language."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from entries.models import Entry

from ..models import BotState, JudgeChat
from . import delivery


@dataclass(frozen=True)
class Incoming:
    update_id: int
    chat_id: int
    text: str


def new_link_token() -> str:
    return secrets.token_urlsafe(24)  # 32 characters of A-Z a-z 0-9 _ -: what a deep link's start parameter takes


def bot_name() -> str:
    """The bot's user name for the deep link: ``TELEGRAM_BOT_NAME`` (set it: no request then asks the Bot API),
    else getMe (kept a day; a failure kept 5 minutes); '' when unknown."""
    if settings.TELEGRAM_BOT_NAME:
        return str(settings.TELEGRAM_BOT_NAME).lstrip("@")
    if not settings.TELEGRAM_BOT_TOKEN:
        return ""
    key = f"notices:bot-name:{settings.TELEGRAM_API_URL}:{settings.TELEGRAM_BOT_TOKEN[:12]}"
    name = cache.get(key)
    if name is None:
        async def ask() -> str:
            from telegram import Bot

            bot = delivery.make_bot()
            assert isinstance(bot, Bot)
            async with bot:
                return bot.username or ""
        try:
            name = asyncio.run(ask())
        except Exception:  # the Bot API unreachable: asked again in 5 minutes, not at every page
            cache.set(key, "", 300)
            return ""
        cache.set(key, name, 24 * 3600 if name else 300)
    return str(name)


def deep_link(token: str) -> str:
    name = bot_name()
    return f"https://t.me/{name}?start={token}" if name else ""


def entry_link_token(entry: Entry) -> str:
    if not entry.telegram_link_token:
        entry.telegram_link_token = new_link_token()
        entry.save(update_fields=["telegram_link_token"])
    return entry.telegram_link_token


def judge_link_token(user: object) -> str:
    chat, _created = JudgeChat.objects.get_or_create(user=user, defaults={  # type: ignore[misc]
        "link_token": new_link_token(), "language": translation.get_language() or settings.LANGUAGE_CODE})
    return chat.link_token


@transaction.atomic
def handle(message: Incoming) -> str:
    """The reply to one message to the bot ('' for none)."""
    words = message.text.strip().split()
    command = words[0].split("@")[0].lower() if words else ""
    if command == "/start" and len(words) > 1:
        token = words[1]
        entry = Entry.objects.select_related("tournament").filter(telegram_link_token=token).first()
        if entry is not None:
            entry.telegram_chat_id = message.chat_id
            entry.unsubscribed_at = None
            entry.save(update_fields=["telegram_chat_id", "unsubscribed_at"])
            with translation.override(entry.language):
                return _("Linked: %(name)s, %(tournament)s. Your seats and the organizer's messages will come "
                         "here. /stop: no more messages.") % {"name": entry.name, "tournament": entry.tournament.name}
        chat = JudgeChat.objects.select_related("user").filter(link_token=token).first()
        if chat is not None:
            chat.chat_id, chat.linked_at = message.chat_id, timezone.now()
            chat.save(update_fields=["chat_id", "linked_at"])
            with translation.override(chat.language):
                return _("Linked: %(name)s. Protocols sent back to you and the organizer's messages will come "
                         "here. /stop: no more messages.") % {"name": chat.user.get_full_name() or chat.user}
        return _("This link is not valid any more: open the link from your private page again.")
    if command == "/start":
        return _("Open the link from your private page on the tournament's site to receive your seats here.")
    if command == "/stop":
        entries = list(Entry.objects.filter(telegram_chat_id=message.chat_id))
        language = entries[0].language if entries else settings.LANGUAGE_CODE
        Entry.objects.filter(telegram_chat_id=message.chat_id).update(telegram_chat_id=None)
        JudgeChat.objects.filter(chat_id=message.chat_id).update(chat_id=None)
        with translation.override(language):
            return _("Done: no more messages here. To receive them again, open the link from your private page.")
    return ""


async def _fetch(offset: int, timeout: int) -> list[Incoming]:
    from telegram import Bot

    bot = delivery.make_bot()
    assert isinstance(bot, Bot)
    async with bot:
        updates = await bot.get_updates(offset=offset or None, timeout=timeout, allowed_updates=["message"])
    found = []
    for update in updates:
        message, chat = update.effective_message, update.effective_chat
        found.append(Incoming(update.update_id, chat.id if chat is not None else 0,
                              message.text if message is not None and message.text else ""))
    return found


async def _reply(replies: list[tuple[int, str]]) -> None:
    from telegram import Bot

    bot = delivery.make_bot()
    assert isinstance(bot, Bot)
    async with bot:
        for chat_id, text in replies:
            await bot.send_message(chat_id=chat_id, text=text)


def poll(timeout: int = 0) -> int:
    """One getUpdates (waiting up to ``timeout`` seconds for a message), each message handled here (in this
    thread's database connection) and answered; the position kept so that a message is read once."""
    state = BotState.objects.get_or_create(pk=1)[0]
    updates = asyncio.run(_fetch(state.offset, timeout))
    replies = []
    for update in updates:
        reply = handle(update) if update.chat_id and update.text else ""
        if reply:
            replies.append((update.chat_id, reply))
        state.offset = update.update_id + 1
    if updates:
        state.save(update_fields=["offset"])
    if replies:
        asyncio.run(_reply(replies))
    return len(updates)
