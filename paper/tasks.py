"""The documents' queue (tournaments/background.py): each results document and each organizer's PDF is made here,
by a worker, never in a web request (``documents.built_document`` and ``documents.pdf_document`` ask for them)."""

from __future__ import annotations

from django.utils import translation
from django_tasks import task

from tournaments.background import DOCUMENTS
from tournaments.models import Tournament

from . import documents


@task(queue_name=DOCUMENTS)
def build_document(tournament_id: int, name: str, language: str) -> str:
    """Builds document ``name`` of the tournament's current results version in ``language`` and keeps it."""
    tournament = Tournament.objects.select_related("results_version").filter(pk=tournament_id).first()
    if tournament is None:
        return "no such tournament"
    with translation.override(language):
        return documents.store(tournament, name)


@task(queue_name=DOCUMENTS)
def make_pdf(digest: str, kind: str) -> str:
    """Makes the PDF of an organizer's printable page (``documents.pdf_document``) and keeps it."""
    return documents.store_pdf(digest, kind)
