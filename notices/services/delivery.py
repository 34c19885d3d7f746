"""Handing messages to their channels: e-mail through Django's mail (SMTP: ``EMAIL_HOST``, ``EMAIL_PORT``), one
connection for a batch; Telegram through python-telegram-bot's ``Bot`` speaking to ``TELEGRAM_API_URL`` with
``TELEGRAM_BOT_TOKEN``, several messages at once. Each message's row records when the channel took it, or the
failure; a failure worth another try is tried again later (``RETRY_AFTER``), up to ``MAX_ATTEMPTS``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core.mail import EmailMessage, get_connection
from django.utils import timezone

from ..models import Channel, Message

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 4
RETRY_AFTER = (30, 120, 600)  # seconds before the 2nd, 3rd and 4th try
TELEGRAM_AT_ONCE = 8  # requests in flight to the Bot API (Telegram takes about 30 messages a second from a bot)


@dataclass
class Outcome:
    handed: bool
    error: str = ""
    retry: bool = False  # worth another try later (the network, the server busy); else given up


def bot_base_url() -> str:
    return f"{settings.TELEGRAM_API_URL}/bot"


def make_bot() -> object:
    from telegram import Bot
    from telegram.request import HTTPXRequest

    request = HTTPXRequest(connection_pool_size=TELEGRAM_AT_ONCE + 2, connect_timeout=10, read_timeout=20)
    return Bot(settings.TELEGRAM_BOT_TOKEN, base_url=bot_base_url(), request=request)


def send_emails(rows: list[Message]) -> dict[int, Outcome]:
    out: dict[int, Outcome] = {}
    try:
        connection = get_connection(fail_silently=False)
        connection.open()
    except Exception as error:  # the server unreachable: every message waits for the next try
        return {row.pk: Outcome(False, f"SMTP: {error}", retry=True) for row in rows}
    try:
        for row in rows:
            mail = EmailMessage(row.subject, row.text, settings.DEFAULT_FROM_EMAIL, [row.address],
                                connection=connection, headers=dict(row.facts.get("headers", {})))
            try:
                mail.send(fail_silently=False)
                out[row.pk] = Outcome(True)
            except Exception as error:
                refused = "refused" in type(error).__name__.lower()  # SMTPRecipientsRefused: the address is bad
                out[row.pk] = Outcome(False, f"SMTP: {error}", retry=not refused)
    finally:
        with contextlib.suppress(Exception):  # the messages are sent; a broken goodbye changes nothing
            connection.close()
    return out


async def _send_telegram(rows: list[Message]) -> dict[int, Outcome]:
    from telegram import Bot
    from telegram.error import BadRequest, Forbidden, InvalidToken, RetryAfter, TelegramError

    out: dict[int, Outcome] = {}
    bot = make_bot()
    assert isinstance(bot, Bot)
    gate = asyncio.Semaphore(TELEGRAM_AT_ONCE)

    async def one(row: Message) -> None:
        async with gate:
            for _try in range(2):
                try:
                    await bot.send_message(chat_id=int(row.address), text=row.text,
                                           disable_web_page_preview=True)
                    out[row.pk] = Outcome(True)
                    return
                except RetryAfter as error:  # Telegram's flood control: wait as it says, once, then later
                    wait = error.retry_after if isinstance(error.retry_after, int | float) \
                        else error.retry_after.total_seconds()
                    if wait > 5 or _try:
                        out[row.pk] = Outcome(False, f"Telegram: {error}", retry=True)
                        return
                    await asyncio.sleep(wait)
                except (Forbidden, BadRequest, InvalidToken) as error:  # blocked the bot, no such chat, bad token
                    out[row.pk] = Outcome(False, f"Telegram: {error}", retry=False)
                    return
                except TelegramError as error:  # the network, a timeout, the server
                    out[row.pk] = Outcome(False, f"Telegram: {error}", retry=True)
                    return

    try:
        async with bot:
            await asyncio.gather(*(one(row) for row in rows))
    except Exception as error:  # getMe failed (the token, the network): nothing was sent
        log.warning("Telegram unavailable: %s", error)
        for row in rows:
            out.setdefault(row.pk, Outcome(False, f"Telegram: {error}", retry=True))
    return out


def send_telegram(rows: list[Message]) -> dict[int, Outcome]:
    if not settings.TELEGRAM_BOT_TOKEN:
        return {row.pk: Outcome(False, "Telegram is not set up (TELEGRAM_BOT_TOKEN)", retry=False) for row in rows}
    return asyncio.run(_send_telegram(rows))


def deliver(ids: Iterable[int]) -> list[int]:
    """Sends the messages not yet handed nor given up; records each outcome; returns the ids worth another try."""
    rows = list(Message.objects.filter(pk__in=list(ids), handed_at__isnull=True, given_up=False).order_by("pk"))
    outcomes: dict[int, Outcome] = {}
    emails = [row for row in rows if row.channel == Channel.EMAIL]
    chats = [row for row in rows if row.channel == Channel.TELEGRAM]
    if emails:
        outcomes.update(send_emails(emails))
    if chats:
        outcomes.update(send_telegram(chats))
    now = timezone.now()
    again = []
    for row in rows:
        outcome = outcomes.get(row.pk, Outcome(False, "not sent", retry=True))
        row.attempts += 1
        if outcome.handed:
            row.handed_at, row.error = now, ""
        else:
            row.error = outcome.error[:2000]
            row.given_up = not outcome.retry or row.attempts >= MAX_ATTEMPTS
            if not row.given_up:
                again.append(row.pk)
    Message.objects.bulk_update(rows, ["handed_at", "error", "attempts", "given_up"])
    return again
