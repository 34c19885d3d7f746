"""Changing a tournament's awards (docs/rules/awards.md): an organizer gives or withdraws a proposal of the
ruleset, adds a free-form award, chooses a recipient by hand with a reason, or goes back to the computed one.

Each change locks the tournament's row, so two organizers editing awards at once are serialized and nothing is
half-saved; a bad input is refused with a message that names the award or the player.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from scoring.rulesets import AwardProposal, get_ruleset

from ..errors import UserError
from ..labels import award_label
from ..models import Award, Diplomas, Participant, ParticipantStatus, Tournament

if TYPE_CHECKING:
    from base.users import User

TITLE_MAX = 200
DIPLOMA_FIELDS = {"title": _lazy("Title on the diplomas"), "signer_name": _lazy("Signed by (name)"),
                  "signer_position": _lazy("Signer's position")}


class AwardError(UserError):
    """An award change the input or the user forbids."""


def proposals(tournament: Tournament) -> tuple[AwardProposal, ...]:
    return get_ruleset(tournament.ruleset)().proposed_awards()


def locked(tournament: Tournament, user: User | None) -> Tournament:
    row = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if user is None or not getattr(user, "is_authenticated", False) or not row.is_organizer(user):
        raise AwardError(_("Only the tournament's organizers may change its awards."))
    return row


def proposal_of(tournament: Tournament, kind: str) -> AwardProposal:
    for proposal in proposals(tournament):
        if proposal.kind == kind:
            return proposal
    raise AwardError(_("“%(kind)s” is not an award this regulation proposes.") % {"kind": kind})


def row_for_kind(tournament: Tournament, kind: str) -> Award:
    """The row of a proposed award, created with the ruleset's default the first time it is changed."""
    proposal = proposal_of(tournament, kind)
    award, _created = Award.objects.get_or_create(
        tournament=tournament, kind=kind,
        defaults={"enabled": proposal.enabled, "order": [p.kind for p in proposals(tournament)].index(kind)})
    return award


def free_form(tournament: Tournament, pk: int | str) -> Award:
    found = None
    if re.fullmatch(r"\d{1,18}", str(pk), re.ASCII):  # a database integer, not any text
        found = Award.objects.filter(tournament=tournament, kind="", pk=int(pk)).first()
    if found is None:
        raise AwardError(_("There is no such award in this tournament; reload the page."))
    return found


def clean_title(title: str | None) -> str:
    title = " ".join((title or "").split())
    if not title:
        raise AwardError(_("Give the award a title."))
    if len(title) > TITLE_MAX:
        raise AwardError(_("An award's title has at most %(n)s characters.") % {"n": TITLE_MAX})
    return title


@transaction.atomic
def set_given(tournament: Tournament, user: User, kind: str, given: bool) -> Award:
    """Gives (or withdraws) a proposed award."""
    row = locked(tournament, user)
    award = row_for_kind(row, kind)
    award.enabled = given
    award.save(update_fields=["enabled"])
    return award


@transaction.atomic
def add_award(tournament: Tournament, user: User, title: str | None) -> Award:
    """A free-form award (a special prize, kostroma 5.4), given; its recipient is chosen by hand."""
    row = locked(tournament, user)
    title = clean_title(title)
    if Award.objects.filter(tournament=row, kind="", title=title).exists():
        raise AwardError(_("There is already an award “%(title)s”.") % {"title": title})
    last = Award.objects.filter(tournament=row).aggregate(last=Max("order"))["last"]
    order = max(last if last is not None else 0, len(proposals(row))) + 1
    return Award.objects.create(tournament=row, kind="", title=title, order=order)


@transaction.atomic
def remove_award(tournament: Tournament, user: User, pk: int | str) -> None:
    """Deletes a free-form award; a proposed one is withdrawn instead (``set_given``)."""
    row = locked(tournament, user)
    free_form(row, pk).delete()


@transaction.atomic
def choose_recipient(tournament: Tournament, user: User, player: str | None, reason: str | None, *,
                     kind: str = "", pk: int | str | None = None) -> Award:
    """The organizer's recipient of an award (``kind`` for a proposed one, ``pk`` for a free-form one), with the
    reason: a participant of this tournament who is not disqualified. The award is given from then on."""
    row = locked(tournament, user)
    award = row_for_kind(row, kind) if kind else free_form(row, pk if pk is not None else "")
    title = award.title or award_label(award.kind)
    # an application rejected, waiting or withdrawn is no player of the tournament
    participant = Participant.objects.select_related("player").filter(
        tournament=row, ext_id=player or "", status=ParticipantStatus.ACCEPTED).first()
    if participant is None:
        raise AwardError(_("%(award)s: there is no player “%(player)s” in this tournament.")
                         % {"award": title, "player": player or ""})
    if participant.disqualified_at is not None:
        raise AwardError(_("%(award)s: %(player)s is disqualified and cannot receive an award.")
                         % {"award": title, "player": participant.player.full_name})
    reason = (reason or "").strip()
    if not reason:
        raise AwardError(_("%(award)s: give the reason for choosing the recipient by hand.") % {"award": title})
    award.recipient, award.reason, award.enabled = participant, reason, True
    award.chosen_by, award.chosen_at = user, timezone.now()
    award.save()
    return award


@transaction.atomic
def clear_choice(tournament: Tournament, user: User, *, kind: str = "", pk: int | str | None = None) -> Award:
    """Forgets the recipient chosen by hand: a proposed award names its computed candidate again."""
    row = locked(tournament, user)
    award = row_for_kind(row, kind) if kind else free_form(row, pk if pk is not None else "")
    award.recipient, award.reason, award.chosen_by, award.chosen_at = None, "", None, None
    award.save()
    return award


@transaction.atomic
def save_diplomas(tournament: Tournament, user: User, title: str | None, signer_name: str | None,
                  signer_position: str | None) -> Diplomas:
    """The diplomas' title and signature line (each optional, at most 200 characters)."""
    row = locked(tournament, user)
    values = {"title": title, "signer_name": signer_name, "signer_position": signer_position}
    cleaned = {key: " ".join((value or "").split()) for key, value in values.items()}
    for key, value in cleaned.items():
        if len(value) > TITLE_MAX:
            raise AwardError(_("%(field)s: at most %(n)s characters.")
                             % {"field": DIPLOMA_FIELDS[key], "n": TITLE_MAX})
    diplomas, _created = Diplomas.objects.update_or_create(tournament=row, defaults=cleaned)
    return diplomas
