"""Backups for a tournament day (README "Backups"): every tournament's file and, when the database is an
SQLite file, a consistent copy of it, into one directory with the time in each name.

Each file is written whole or not at all (a temporary file in the same directory, synced, then renamed),
so a copy taken meanwhile by rsync or onto a USB stick never holds half a file, and an interrupted run
leaves the earlier backups as they were.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
import tempfile
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from django.db import connection
from django.utils import timezone

from exchange.files import export_text
from tournaments.filenames import safe_filename
from tournaments.models import Tournament

STAMP = "%Y%m%d-%H%M%S"
# ``SLUG-STAMP.json`` or ``database-STAMP.sqlite3``; a slug may hold hyphens, so the stamp is read from the end.
BACKUP_NAME = re.compile(r"^(?P<series>.+)-(?P<stamp>\d{8}-\d{6})\.(?P<ext>json|sqlite3)$")
DATABASE_SERIES = "database"


@dataclass
class BackupRun:
    written: list[Path] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)  # (tournament slug, what went wrong)
    removed: list[Path] = field(default_factory=list)


def write_text(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """``write`` fills a temporary file beside ``path``, which then replaces ``path`` in one rename."""
    descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    os.close(descriptor)
    temporary = Path(name)
    try:
        write(temporary)
        with open(temporary, "rb") as written:
            os.fsync(written.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def copy_sqlite_database(target: Path) -> None:
    """A consistent copy of the SQLite database in use, taken with SQLite's online backup (the server may
    keep writing meanwhile; copying the file itself could catch it half-written)."""
    if connection.in_atomic_block:  # the backup would wait, forever, for this very transaction to end
        raise RuntimeError("the SQLite database is copied outside a transaction")
    connection.ensure_connection()
    source = connection.connection

    def write(path: Path) -> None:
        with closing(sqlite3.connect(path)) as copy:
            source.backup(copy)
            # the copy one file, as any SQLite opens it: the database in use is in WAL mode (settings), which the
            # backup carries over, and a WAL copy wants its -wal and -shm files beside it (read-only media refuse)
            copy.execute("PRAGMA journal_mode=DELETE")

    write_atomically(target, write)


def backup_all(directory: Path, *, keep: int = 0, now: dt.datetime | None = None) -> BackupRun:
    """Every tournament's file into ``directory`` (created if missing) and, on SQLite, the database;
    with ``keep``, only the ``keep`` newest backups of each tournament and of the database stay."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = timezone.localtime(now or timezone.now()).strftime(STAMP)
    run = BackupRun()
    if connection.vendor == "sqlite":
        target = directory / f"{DATABASE_SERIES}-{stamp}.sqlite3"
        copy_sqlite_database(target)
        run.written.append(target)
    used: set[str] = set()
    for tournament in Tournament.objects.order_by("slug"):
        # safe characters only: a slug stored before slugs were checked (``../escaped``, a newline) stays in DIR
        name = safe_filename(tournament.slug, f"{stamp}.json")
        if name in used:  # two bad slugs made the same name
            name = safe_filename(tournament.slug, str(tournament.pk), f"{stamp}.json")
        used.add(name)
        target = directory / name
        try:
            text = export_text(tournament)
            write_atomically(target, partial(write_text, text=text))
        except Exception as error:  # one broken tournament must not cost the others their backup
            run.failed.append((tournament.slug, f"{type(error).__name__}: {error}"))
        else:
            run.written.append(target)
    if keep > 0:
        run.removed = prune(directory, keep)
    return run


def prune(directory: Path, keep: int) -> list[Path]:
    """Removes all but the ``keep`` newest backups of each series (a tournament, the database)."""
    series: dict[tuple[str, str], list[tuple[str, Path]]] = {}
    for path in directory.iterdir():
        match = BACKUP_NAME.match(path.name)
        if match and path.is_file():
            series.setdefault((match["series"], match["ext"]), []).append((match["stamp"], path))
    removed = []
    for backups in series.values():
        for _stamp, path in sorted(backups, reverse=True)[keep:]:
            path.unlink()
            removed.append(path)
    return sorted(removed)
