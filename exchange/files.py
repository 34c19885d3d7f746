"""Import and export of the tournament file (docs/tournament-file.md, docs/command-line.md): all or nothing."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from django.db import DataError, connection, transaction
from django.utils.translation import gettext as _

from scoring import fileio
from scoring import model as m
from scoring.errors import InvalidTournament
from scoring.rulesets import get_ruleset
from tournaments.models import Player, Tournament
from tournaments.services.setup import slug_problems

from .extras import AWARDS_KEY, KEEP_APART_KEY, LOT_DRAWS_KEY, TABLES_IN_PLAY_KEY
from .reading import awards_data, keep_apart_data, lot_draws_data, tables_in_play_data, to_model
from .writing import save_model

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from django.contrib.auth.models import User


T = TypeVar("T")

# The most players a tournament file brings (a large event has 1,000): a file past it is refused before it is
# checked (bench/README.md), instead of holding a worker while a hundred thousand rows are validated.
MAX_FILE_PLAYERS = 10_000


def read_upload(upload: Any) -> str:
    """The text of an uploaded tournament file: one past ``fileio.MAX_FILE_BYTES`` (20 MB) is refused by its
    size, before it is read. Raises ``InvalidTournament``, or ``UnicodeDecodeError`` for a file not UTF-8."""
    if upload.size is not None and upload.size > fileio.MAX_FILE_BYTES:
        raise fileio.too_large()
    return fileio.read_limited(upload).decode("utf-8")


def parse_text(text: str) -> m.Tournament:
    """The model of a file's text, checked. Raises ``InvalidTournament`` listing every problem."""
    try:
        data = fileio.read_json(text)
        players = data.get("players") if isinstance(data, dict) else None
        if isinstance(players, list) and len(players) > MAX_FILE_PLAYERS:
            raise InvalidTournament([_problem(
                _("The file lists %(count)s players; at most %(most)s are imported at once.")
                % {"count": len(players), "most": MAX_FILE_PLAYERS})])
        where = nul_at(data)
        if where is not None:  # PostgreSQL stores no text with NUL
            raise InvalidTournament([_problem(_("%(where)s: a text contains a NUL character, which cannot be "
                                                "stored.") % {"where": where})])
        return with_default_visibility(fileio.load(data))
    except RecursionError:  # Python's JSON decoder gives up on deep nesting; no tournament file is nested so
        raise InvalidTournament([_problem(_("The file is not a tournament file: its JSON is nested too deeply."))]) \
            from None


def import_text(text: str, *, slug: str | None = None, organizers: Iterable[User] = (),
                players: Callable[[m.Tournament], Mapping[str, Player]] | None = None) -> Tournament:
    """Create a tournament from a file's text. Raises ``InvalidTournament`` listing every problem;
    then nothing is saved. ``slug``, when given, must be an address the web form accepts. ``players``, given
    the file's model, says which file players are players of the registry already (``exchange.matching``);
    without it every player is a new one."""
    if slug is not None:
        problems = slug_problems(slug)
        if problems:
            raise InvalidTournament([_problem(problem) for problem in problems])
    model = parse_text(text)
    if slug is not None and Tournament.objects.filter(slug=slug).exists():
        raise InvalidTournament([_problem(_("A tournament with the address %(slug)s exists already.")
                                          % {"slug": repr(slug)})])
    try:
        with transaction.atomic():
            existing = players(model) if players else None
            return save_model(model, slug=slug, organizers=organizers, existing=existing)
    except (DataError, OverflowError) as error:
        # a number past the database's integers (SQLite: OverflowError), a text past a column's length
        detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise InvalidTournament([_problem(
            _("The file has a value the database cannot store (a number too large or a text too long): "
              "%(detail)s") % {"detail": detail}
        )]) from None


def with_default_visibility(model: m.Tournament) -> m.Tournament:
    """A file that does not say whether the standings are hidden gets its ruleset's default (``zvezdy``:
    hidden, docs/rules/zvezdy.md), as a tournament created in the browser does."""
    info = model.info or m.TournamentInfo()
    if info.standings_hidden is not None:
        return model
    hidden = get_ruleset(model.ruleset).standings_hidden_by_default
    return dataclasses.replace(model, info=dataclasses.replace(info, standings_hidden=hidden))


def nul_at(node: Any, where: str = "file") -> str | None:
    """The path of the first key or text in a JSON tree that holds a NUL character, e.g. ``players[0].name``."""
    if isinstance(node, str):
        return where if "\x00" in node else None
    if isinstance(node, list):
        items: Any = ((f"{where}[{i}]", v) for i, v in enumerate(node))
    elif isinstance(node, dict):
        if any("\x00" in k for k in node):
            return where
        items = ((k if where == "file" else f"{where}.{k}", v) for k, v in node.items())
    else:
        return None
    for path, value in items:
        found = nul_at(value, path)
        if found is not None:
            return found
    return None


def at_one_moment(read: Callable[[], T]) -> T:
    """``read()``'s queries in one transaction, on PostgreSQL one snapshot (REPEATABLE READ): an export or a backup
    taken while judges save protocols never mixes a game row from before a save with its seats from after it."""
    if connection.in_atomic_block:  # a caller's transaction: its snapshot is the caller's business
        return read()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return read()


def export_data(tournament: Tournament) -> dict[str, Any]:
    """The tournament's file as of one moment (``at_one_moment``)."""
    return at_one_moment(lambda: file_data(tournament))


def file_data(tournament: Tournament) -> dict[str, Any]:
    """The model's file plus the seating of the tables still in play, the pairs kept apart and the drawings of
    lots (``exchange.reading``)."""
    data = fileio.dump(to_model(tournament))
    if not tournament.standings_hidden and get_ruleset(tournament.ruleset).standings_hidden_by_default:
        data.setdefault("tournament", {})["standings_hidden"] = False  # left out, it would read as hidden
    for key, value in ((TABLES_IN_PLAY_KEY, tables_in_play_data(tournament)),
                       (KEEP_APART_KEY, keep_apart_data(tournament)),
                       (LOT_DRAWS_KEY, lot_draws_data(tournament)), (AWARDS_KEY, awards_data(tournament))):
        if value:
            data.setdefault("tournament", {})[key] = value
    return data


def export_text(tournament: Tournament) -> str:
    return json.dumps(export_data(tournament), ensure_ascii=False, indent=1) + "\n"


def _problem(message: str) -> Any:
    from scoring.errors import Location, Problem

    return Problem(Location(), message)
