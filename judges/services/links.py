"""Judges' accounts made from the judges page, and their private links (``/t/<slug>/j/<token>/``).

A private link signs its holder in as the judge, for the link's tournament only (``judges.middleware``): like
Tabbycat's private URLs for adjudicators, a judge needs no password. The organizer revokes it (or gives a new
one, which revokes the old): the link then answers 404 and a session it opened is signed out at its next
request. The token is a random 32-byte value (``secrets``), kept as it is, since the organizer shows it again
on the judges page and prints it as a QR code on the seating sheet of the judge's table.
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import Round, Tournament

from ..models import Judge, JudgeAssignment, PrivateLink
from .staff import StaffError, add_judge

if TYPE_CHECKING:
    from base.users import User


def new_token() -> str:
    return secrets.token_urlsafe(32)


def generated_password() -> str:
    """A password to read out or copy once: 12 letters and digits, none that look alike."""
    alphabet = "abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
    return "".join(secrets.choice(alphabet) for _ in range(12))


@transaction.atomic
def create_judge_account(tournament: Tournament, username: str, name: str, password: str | None, *,
                         chief: bool = False) -> Judge:
    """A new user ``username`` (``name`` as their full name; no password: they sign in by their private link only)
    made a judge of ``tournament``. A taken user name is refused."""
    users = get_user_model()
    if users.objects.filter(username__iexact=username).exists():
        raise StaffError(_("The user name %(name)s is taken.") % {"name": username})
    user = users(username=username, first_name=name.strip())
    if password:
        user.set_password(password)
    else:
        user.set_unusable_password()
    user.save()
    return add_judge(tournament, user, chief=chief)


@transaction.atomic
def issue_link(judge: Judge, by: User) -> PrivateLink:
    """A new private link for ``judge``; the one in force before, if any, is revoked. An account that organises
    the tournament (or administers the site) gets none: the link would carry those rights to whoever holds it."""
    Judge.objects.select_for_update().get(pk=judge.pk)
    if judge.user.is_staff or judge.tournament.is_organizer(judge.user):
        raise StaffError(_("%(user)s organises this tournament or administers the site: a private link would give "
                           "those rights to whoever holds it, so they sign in with their password.")
                         % {"user": judge.user.get_username()})
    PrivateLink.objects.filter(judge=judge, revoked_at__isnull=True).update(revoked_at=timezone.now())
    return PrivateLink.objects.create(judge=judge, token=new_token(), created_by=by)


def revoke_link(tournament: Tournament, judge_id: int) -> bool:
    """Whether a link in force of a judge of ``tournament`` was revoked."""
    return PrivateLink.objects.filter(judge__tournament=tournament, judge=judge_id,
                                      revoked_at__isnull=True).update(revoked_at=timezone.now()) > 0


def link_in_force(slug: str, token: str) -> PrivateLink | None:
    """The link of ``token`` for the tournament ``slug`` when it is in force."""
    return (PrivateLink.objects.filter(token=token, judge__tournament__slug=slug, revoked_at__isnull=True)
            .select_related("judge__user", "judge__tournament").first())


def links_of(tournament: Tournament) -> dict[int, str]:
    """Judge id → the token of their link in force."""
    return dict(PrivateLink.objects.filter(judge__tournament=tournament, revoked_at__isnull=True)
                .values_list("judge_id", "token"))


def links_by_table(round_: Round) -> dict[int, str]:
    """Table number → the token of the link in force of that table's judge in ``round_`` (a judge assigned for the
    round wins over one for the whole stage, as on the seating sheets); tables whose judge has none are left out."""
    rows = JudgeAssignment.objects.filter(Q(round=round_) | Q(round__isnull=True, stage=round_.stage_id))
    judges: dict[int, int] = {}
    for row in sorted(rows, key=lambda a: a.round_id is not None):
        judges[row.table] = row.judge_id
    tokens = dict(PrivateLink.objects.filter(judge__in=set(judges.values()), revoked_at__isnull=True)
                  .values_list("judge_id", "token"))
    return {table: tokens[judge] for table, judge in judges.items() if judge in tokens}
