"""``python manage.py import_tournament FILE``: create a tournament from a tournament file."""

from __future__ import annotations

import sys
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandParser, no_translations

from exchange.files import import_text
from exchange.matching import exact_players
from scoring import fileio
from scoring import model as m
from scoring.errors import InvalidTournament
from tournaments.models import Player
from tournaments.services.setup import slug_problems


class Command(BaseCommand):
    help = "Create a tournament from a tournament file (ids kept) and print its slug; FILE may be '-'."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--slug", help="address of the new tournament (default: from its name)")
        parser.add_argument("--organizer", action="append", default=[], metavar="USERNAME",
                            help="a user who organises it (repeatable); the file carries no users")
        parser.add_argument("--match-players", action="store_true",
                            help="reuse the registry's player where a file player is exactly one of them "
                                 "(docs/registry.md; each one reused is listed on stderr, the others are new players); "
                                 "default: every player is a new one")

    @no_translations  # in English, as python -m scoring validate prints the same problems (docs/command-line.md)
    def handle(self, *args: Any, **options: Any) -> None:
        path = options["file"]
        slug = options.get("slug")
        if slug is not None:  # the web form's checks: cup.2025 would break every page linking it
            problems = slug_problems(slug)
            if problems:
                for problem in problems:
                    self.stderr.write(f"--slug: {problem}")
                sys.exit(2)
        try:
            # at most scoring.fileio.MAX_FILE_BYTES (20 MB): a larger file is refused by its size, unread
            text = fileio.read_file(path)
        except InvalidTournament as error:
            for found in error.problems:
                self.stderr.write(f"{path}: {found}")
            sys.exit(2)
        except OSError as error:
            self.stderr.write(f"{path}: cannot read: {error.strerror}")
            sys.exit(2)
        except UnicodeDecodeError:
            self.stderr.write(f"{path}: not UTF-8 text")
            sys.exit(2)
        # a name that is not text (bytes not UTF-8 in argv arrive as lone surrogates) cannot be a username and
        # cannot be sent to the database: it is an unknown user, not a traceback
        names = [name for name in options["organizer"] if _is_text(name)]
        users = get_user_model().objects.filter(username__in=names)
        unknown = sorted(set(options["organizer"]) - {user.get_username() for user in users})
        if unknown:
            self.stderr.write(f"no user {', '.join(map(repr, unknown))}: create it first (createsuperuser)")
            sys.exit(2)
        matched: dict[str, Player] = {}

        def exact(model: m.Tournament) -> dict[str, Player]:
            matched.update(exact_players(model))
            return matched

        try:
            tournament = import_text(text, slug=slug, organizers=list(users),
                                     players=exact if options["match_players"] else None)
        except InvalidTournament as error:
            for found in error.problems:
                self.stderr.write(str(found))
            sys.exit(2)
        for pid, player in matched.items():  # stdout stays the slug alone, as scripts read it
            self.stderr.write(f"{pid}: the registry's player {player.pk} ({player.display_name})")
        self.stdout.write(tournament.slug)


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
