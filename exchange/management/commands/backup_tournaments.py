"""``python manage.py backup_tournaments DIR [--keep N]``: every tournament's file, timestamped (and the
SQLite database); made for cron or a loop between rounds (README "Backups")."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from exchange.backup import backup_all


class Command(BaseCommand):
    help = ("Write every tournament's file into DIR as SLUG-YYYYMMDD-HHMMSS.json and, when the database is "
            "SQLite, a consistent copy of it as database-YYYYMMDD-HHMMSS.sqlite3; each file appears whole or not "
            "at all. Prints the files written; exits 1 if a tournament could not be written.")

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("directory")
        parser.add_argument("--keep", type=int, default=0, metavar="N",
                            help="then keep only the N newest backups of each tournament and of the database "
                                 "(default: keep all)")

    def handle(self, *args: Any, **options: Any) -> None:
        run = backup_all(Path(options["directory"]), keep=max(options["keep"], 0))
        for path in run.written:
            self.stdout.write(str(path))
        for slug, problem in run.failed:
            self.stderr.write(f"{slug}: not backed up: {problem}")
        if run.failed:
            sys.exit(1)
