"""A tournament in the middle of a round, built in the database of ``DATABASE_URL`` and described as JSON
on stdout: ``python -m tests.deploy.round_in_play`` (from the repository root, after ``migrate``).

A 20-player ``fiim`` tournament file with its first round played and confirmed is imported; round 2 is
published with two tables, whose protocols the judges are entering: ``judge`` on the phone's table screen
(table 1, logged in), ``scribe`` through the write API (table 2, a token), the chief judge confirms.
"""

from __future__ import annotations

import json
import os
from typing import Any

PASSWORD = "pw-restart-12345!"


def build() -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from exchange.files import import_text
    from judges.services import staff
    from tests.helpers import played_file
    from tournaments.models import Round, RoundState, Seat, Table

    users = get_user_model().objects
    organizer = users.create_user("director", password=PASSWORD)
    tournament = import_text(json.dumps(played_file(20, 1)), organizers=[organizer])
    stage = tournament.stages.get(ext_id="qualifying")
    round_ = Round.objects.create(stage=stage, number=2, seating="random", state=RoundState.PUBLISHED)
    participants = list(tournament.participants.order_by("-number"))  # another seating than round 1's
    tables = []
    for t in range(2):
        table = Table.objects.create(round=round_, number=t + 1)
        Seat.objects.bulk_create(Seat(table=table, round=round_, number=n + 1, participant=participants[t * 10 + n])
                                 for n in range(10))
        tables.append(table)
    people = {name: users.create_user(name, password=PASSWORD) for name in ("judge", "scribe", "chief")}
    staff.add_judge(tournament, people["chief"], chief=True)
    for number, name in ((1, "judge"), (2, "scribe")):
        staff.assign(staff.add_judge(tournament, people[name]), stage, round_, number)
    return {
        "slug": tournament.slug, "tables": [t.pk for t in tables],
        "tokens": {name: Token.objects.create(user=people[name]).key for name in ("scribe", "chief")},
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mafia_tournament.settings")
    import django

    django.setup()
    print(json.dumps(build()))
