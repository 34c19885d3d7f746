"""``python manage.py load_demo``: the demo tournament and an organizer login; twice changes nothing. It speaks
the site's language (``LANGUAGE_CODE``, Russian by default), as a command does in Django."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.translation import gettext as _

from exchange.demo import SLUG, build_demo_file, planned_format
from exchange.files import import_text
from tournaments.models import Tournament

USERNAME = "organizer"
PASSWORD = "mafia-demo"


class Command(BaseCommand):
    help = "Load the demo fiim tournament (70 players, qualifying under way) and an organizer login."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user, created = get_user_model().objects.get_or_create(username=USERNAME)
        if created:
            user.set_password(PASSWORD)
            user.save()
            user.user_permissions.add(Permission.objects.get(codename="add_tournament"))
        if Tournament.objects.filter(slug=SLUG).exists():
            self.stdout.write(_("The demo tournament is loaded already: %(url)s") % {"url": f"/t/{SLUG}/"})
        else:
            tournament = import_text(json.dumps(build_demo_file()), slug=SLUG, organizers=[user])
            for stage in tournament.stages.all():
                stage.planned_rounds, stage.seating_plan = planned_format(tournament.ruleset, stage.kind)
                stage.save(update_fields=["planned_rounds", "seating_plan"])
            self.stdout.write(_("Loaded the demo tournament: %(url)s") % {"url": f"/t/{SLUG}/"})
        login = {"user": USERNAME, "password": PASSWORD}
        self.stdout.write(_("Organizer login: %(user)s / %(password)s") % login if created else
                          _("Organizer login: %(user)s (password %(password)s unless you changed it)") % login)
