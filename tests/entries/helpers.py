"""What the players' channel's tests share."""

from __future__ import annotations

import datetime as dt
from typing import Any


def open_registration(tournament: Any, **fields: Any) -> Any:
    """The tournament's online registration open since yesterday, until tomorrow."""
    from django.utils import timezone

    from entries.models import SelfRegistration

    now = timezone.now()
    return SelfRegistration.objects.update_or_create(tournament=tournament, defaults={
        "opens": now - dt.timedelta(days=1), "closes": now + dt.timedelta(days=1), **fields})[0]


def typed(n: int, **fields: Any) -> dict[str, Any]:
    """What a player types in the form (the n-th of a series of distinct people)."""
    return {"surname": f"Орлов{n}", "first_name": "Павел", "patronymic": "Ильич", "phone": f"+7 900 100-{n:04d}",
            "nickname": f"Орёл{n}", "club": "Ночь",
            "city": "Кострома", "birth_date": "2000-05-01", "email": f"p{n}@example.org", "telegram": "",
            "consent": "on", "website": "", **fields}
