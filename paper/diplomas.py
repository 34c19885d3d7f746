"""Diplomas and certificates (tomsk §8, kostroma 5.3; docs/rules/awards.md): one page per winner, per award
recipient, and a participation certificate per finalist, from one template with the organizer's title and
signature line (``tournaments.Diplomas``).

Winners: under a "last game's side" regulation (tomsk, kostroma) every winner gets a winner's diploma; otherwise
the prize places 1–3 of the final results (a shared place gives each the same place). Winners and awards only
once the results are final; the finalists (the players of the last stage, when there are several stages) get
their certificates as soon as they are known, never the players of an earlier stage. Until the final is over the
page and the PDF say so above everything.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from public.snapshot import Snapshot
from tournaments.models import Diplomas

from .results import final_table, stage_table

PRIZE_PLACES = 3


@dataclass(frozen=True)
class Diploma:
    kind: str  # "winner", "place", "award", "participant"
    heading: str  # "Diploma", "Certificate of participation"
    name: str
    line: str  # what for: "Winner", "2nd place", the award's title, "finalist of the tournament"


def final_over(snapshot: Snapshot) -> bool:
    """The results are final (``Snapshot.final_over``) and no table of the last stage is still in play: a round
    whose played tables all have results while others play on is not over, unless the organizer closed
    the stage."""
    if not snapshot.final_over:
        return False
    last = snapshot.stages[-1]
    return bool(last.closed) or not snapshot.model.seated_in_play(last.ext_id)


def diplomas_of(snapshot: Snapshot) -> list[Diploma]:
    out: list[Diploma] = []
    if final_over(snapshot):
        out += winners(snapshot)
        out += [Diploma("award", _("Diploma"), name, award.title)
                for award in snapshot.awards if not award.tied for name in award.names]
    out += [Diploma("participant", _("Certificate of participation"), snapshot.name(pid),
                    _("finalist of the tournament") if len(snapshot.stages) > 1 else _("participant of the tournament"))
            for pid in finalists(snapshot)]
    return out


def winners(snapshot: Snapshot) -> list[Diploma]:
    if snapshot.ruleset.winners_rule == "last_game_side":
        last = snapshot.stages[-1]
        standings = snapshot.standings(last.ext_id)
        return [Diploma("winner", _("Diploma"), snapshot.name(pid), _("Winner of the tournament"))
                for pid in standings.winners or () if pid not in disqualified(snapshot)]
    final = final_table(snapshot, [stage_table(snapshot, stage) for stage in snapshot.stages])
    return [Diploma("place", _("Diploma"), row["name"], place_line(row["place"]))
            for row in final.rows if row["place"] is not None and row["place"] <= PRIZE_PLACES]  # disqualified: None


def place_line(place: int) -> str:
    return {1: _("1st place"), 2: _("2nd place"), 3: _("3rd place")}[place]


def finalists(snapshot: Snapshot) -> list[str]:
    """The players of the last stage (the final; the whole tournament's in a one-stage tournament), ranked players
    only, disqualified ones left out, in alphabetical order. Before the final has players, nobody: the players of
    an earlier stage are not finalists (mid-qualifying, 24 players got "finalist" certificates)."""
    if not snapshot.stages:
        return []
    guests = {p.id for p in snapshot.model.players if p.guest}
    # seated at a table still in play counts: the final's players are known once it is seated
    players = snapshot.model.stage_participants(snapshot.model_stage(snapshot.stages[-1].ext_id))
    return snapshot.alphabetical([pid for pid in players if pid not in guests and pid not in disqualified(snapshot)])


def disqualified(snapshot: Snapshot) -> set[str]:
    return set(snapshot.model.disqualified())


def settings_of(snapshot: Snapshot) -> Diplomas:
    """The organizer's title and signature line (blank ones when never set)."""
    found = Diplomas.objects.filter(tournament=snapshot.tournament).first()
    return found if found is not None else Diplomas(tournament=snapshot.tournament)
