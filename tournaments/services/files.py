"""Import and export of the tournament file (CONTRACT.md §1, §3): all or nothing."""

from __future__ import annotations

import json
from typing import Any

from django.db import DataError, transaction
from django.utils.translation import gettext as _

from scoring import fileio
from scoring.errors import InvalidTournament

from ..adapter import save_model, to_model
from ..models import Tournament


def import_text(text: str, *, slug: str | None = None, organizers: Any = ()) -> Tournament:
    """Create a tournament from a file's text. Raises ``InvalidTournament`` listing every problem;
    then nothing is saved."""
    data = fileio.read_json(text)
    model = fileio.load(data)
    if slug is not None and Tournament.objects.filter(slug=slug).exists():
        raise InvalidTournament([_problem(f"a tournament with the address {slug!r} exists already")])
    try:
        with transaction.atomic():
            return save_model(model, slug=slug, organizers=organizers)
    except DataError as error:  # a number past the database's integers, a text past a column's length
        detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise InvalidTournament([_problem(
            _("The file has a value the database cannot store (a number too large or a text too long): "
              "%(detail)s") % {"detail": detail}
        )]) from None


def export_data(tournament: Tournament) -> dict[str, Any]:
    return fileio.dump(to_model(tournament))


def export_text(tournament: Tournament) -> str:
    return json.dumps(export_data(tournament), ensure_ascii=False, indent=1) + "\n"


def _problem(message: str) -> Any:
    from scoring.errors import Location, Problem

    return Problem(Location(), message)
