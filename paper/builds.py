"""What each results document is: its bytes, built from a tournament loaded with its results version, in the
language active. A document is named ``KIND`` or ``KIND:ARGUMENT`` (``csv:s1``: stage s1's standings); the names
are the ones kept in the cache (``documents.variant``) and sent to the worker (``paper.tasks``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from public.snapshot import Snapshot
from tournaments.models import Tournament

from .diplomas import diplomas_of, final_over, settings_of
from .pdf import render_pdf
from .results import ResultTable, all_tables
from .spreadsheets import to_csv, to_xlsx

RESULTS_TEMPLATE = "paper/results.html"
DIPLOMAS_TEMPLATE = "paper/diplomas.html"


class UnknownDocument(ValueError):
    """A name no builder answers to (a stage that is gone, a kind this version does not make)."""


def notice(tournament: Tournament) -> str:
    """Only organizers get hidden standings; their copy says it is not for publication."""
    return _("The standings are hidden: not for publication.") if tournament.standings_hidden else ""


def stage_of(stages: list[ResultTable], key: str) -> ResultTable:
    for table in stages:
        if table.key == key:
            return table
    raise UnknownDocument(key)


def results_csv(tournament: Tournament, stage: str) -> bytes:
    final, stages = all_tables(Snapshot(tournament))
    return to_csv(final if not stage else stage_of(stages, stage), notice(tournament)).encode()


def teams_csv(tournament: Tournament, stage: str) -> bytes:
    _final, stages = all_tables(Snapshot(tournament))
    teams = stage_of(stages, stage).teams
    if teams is None:
        raise UnknownDocument(stage)
    return to_csv(teams, notice(tournament)).encode()


def results_xlsx(tournament: Tournament, _argument: str) -> bytes:
    final, stages = all_tables(Snapshot(tournament))
    return to_xlsx([final, *stages], notice(tournament))


def results_context(tournament: Tournament) -> dict[str, Any]:
    final, stages = all_tables(Snapshot(tournament))
    return {"tournament": tournament, "final": final, "stages": [t for t in stages if t.rows],
            "hidden": tournament.standings_hidden}


def results_print(tournament: Tournament, _argument: str) -> bytes:
    return render_to_string(RESULTS_TEMPLATE, results_context(tournament)).encode()


def results_pdf(tournament: Tournament, _argument: str) -> bytes:
    return render_pdf(None, RESULTS_TEMPLATE, results_context(tournament))


def diplomas_context(tournament: Tournament) -> dict[str, Any]:
    snapshot = Snapshot(tournament)
    return {"tournament": tournament, "diplomas": diplomas_of(snapshot), "settings": settings_of(snapshot),
            "final": final_over(snapshot), "hidden": tournament.standings_hidden, "lang": translation.get_language()}


def diplomas_print(tournament: Tournament, _argument: str) -> bytes:
    return render_to_string(DIPLOMAS_TEMPLATE, diplomas_context(tournament)).encode()


def diplomas_pdf(tournament: Tournament, _argument: str) -> bytes:
    return render_pdf(None, DIPLOMAS_TEMPLATE, diplomas_context(tournament))


BUILDERS: dict[str, Callable[[Tournament, str], bytes]] = {
    "csv": results_csv,
    "csv-teams": teams_csv,
    "xlsx": results_xlsx,
    "print": results_print,
    "pdf": results_pdf,
    "diplomas": diplomas_print,
    "diplomas-pdf": diplomas_pdf,
}


def build(tournament: Tournament, name: str) -> bytes:
    """The bytes of document ``name`` (``KIND`` or ``KIND:ARGUMENT``) of ``tournament``."""
    kind, _colon, argument = name.partition(":")
    builder = BUILDERS.get(kind)
    if builder is None:
        raise UnknownDocument(name)
    return builder(tournament, argument)
