"""``python manage.py import_tournament FILE``: create a tournament from a tournament file."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser

from scoring.errors import InvalidTournament

from ...services.files import import_text


class Command(BaseCommand):
    help = "Create a tournament from a tournament file (ids kept) and print its slug; FILE may be '-'."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", help="address of the new tournament (default: from its name)")
        parser.add_argument("--organizer", action="append", default=[], metavar="USERNAME",
                            help="a user who organises it (repeatable); the file carries no users")

    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        try:
            text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
        except OSError as error:
            self.stderr.write(f"{path}: cannot read: {error.strerror}")
            sys.exit(2)
        except UnicodeDecodeError:
            self.stderr.write(f"{path}: not UTF-8 text")
            sys.exit(2)
        users = get_user_model().objects.filter(username__in=options["organizer"])
        unknown = sorted(set(options["organizer"]) - {user.get_username() for user in users})
        if unknown:
            self.stderr.write(f"no user {', '.join(map(repr, unknown))}: create it first (createsuperuser)")
            sys.exit(2)
        try:
            tournament = import_text(text, slug=options.get("slug"), organizers=list(users))
        except InvalidTournament as error:
            for problem in error.problems:
                self.stderr.write(str(problem))
            sys.exit(2)
        self.stdout.write(tournament.slug)
