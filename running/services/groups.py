"""Groups of tables: advancing a stage group by group (tomsk's programme, 10; docs/rules/tomsk.md).

A group is a set of the stage's table numbers (its games at those tables, in every round) that feeds
one table of the next stage. With per-game advancement the qualifiers of a game depend only on that
game, so once every game of a group has a confirmed protocol the organizer can close the group: its
qualifiers are seated at its table of the next stage (round 1, seats in a random order, 4.8) and
join the next stage's players, while the other tables of the stage go on. Every change locks the
stage (then the next one), re-checks the state under the lock and saves all of it or nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from exchange.reading import to_model
from games.models import GameState
from running.services.planning import stage_kind
from running.services.stages import StageError, next_stage_of
from scoring.standings import compute_standings
from tournaments.models import Participant, Round, Seat, Stage, StagePlayer, Table, TableGroup
from tournaments.rules import ruleset_for

if TYPE_CHECKING:
    from django.contrib.auth.models import User


class GroupError(StageError):
    """The groups cannot be set, or a group cannot be closed, in the current state."""


# A group's state on the stage page.
WAITING, PLAYING, READY, SEATED = "waiting", "playing", "ready", "seated"


@dataclass(frozen=True)
class GroupView:
    feeds: int  # the next stage's table
    tables: tuple[int, ...]
    state: str  # WAITING (no game seated yet), PLAYING, READY (to close) or SEATED (closed)
    games: int
    confirmed: int
    stored: bool  # False: the ruleset's programme, not saved yet


@dataclass(frozen=True)
class ClosedGroup:
    group: TableGroup
    next_stage: Stage
    table: Table
    players: tuple[str, ...]


def default_groups(stage: Stage) -> tuple[tuple[int, ...], ...]:
    return ruleset_for(stage.tournament).table_groups(stage_kind(stage))


def current_groups(stage: Stage) -> list[tuple[int, tuple[int, ...], TableGroup | None]]:
    """(feeds, tables, row) of the stage's groups: the stored ones, else the ruleset's programme unsaved."""
    rows = list(stage.table_groups.order_by("feeds"))
    if rows:
        return [(row.feeds, tuple(row.tables), row) for row in rows]
    return [(index, tables, None) for index, tables in enumerate(default_groups(stage), start=1)]


def group_views(stage: Stage) -> list[GroupView]:
    """Each group with its state, in three queries whatever the stage's size."""
    groups = current_groups(stage)
    if not groups:
        return []
    states: dict[int, list[str | None]] = {}
    for number, state in Table.objects.filter(round__stage=stage).values_list("number", "game__state"):
        states.setdefault(number, []).append(state)
    # The next stage's tables seated already (by a closed group, by hand or by a file): nothing left to close.
    following = Stage.objects.filter(tournament_id=stage.tournament_id, order__gt=stage.order).order_by("order")
    seated = set(Table.objects.filter(round__stage=following[:1], round__number=1).values_list("number", flat=True))
    out = []
    for feeds, tables, row in groups:
        games = [state for table in tables for state in states.get(table, [])]
        confirmed = sum(1 for state in games if state == GameState.CONFIRMED)
        if (row is not None and row.closed_at is not None) or feeds in seated:
            state = SEATED
        elif not games:
            state = WAITING
        else:
            state = READY if confirmed == len(games) else PLAYING
        out.append(GroupView(feeds, tables, state, len(games), confirmed, row is not None))
    return out


def programme_words(stage: Stage, views: Sequence[GroupView]) -> list[str]:
    """What the regulation's programme assumes, said where the page proposes it (not saved yet): the players it is
    written for (tomsk 10: 96 players, 8 tables of 12, groups 1–4 and 5–8), and, once the stage seats another
    number of tables, that the groups name tables it does not have («1–4 / 5–8» with 3 tables seated)."""
    if not views or any(view.stored for view in views):
        return []
    size = ruleset_for(stage.tournament).params.table_size
    programme = sorted({table for view in views for table in view.tables})
    words = [_("The regulation's programme is written for %(players)s players: %(tables)s tables of %(size)s.")
             % {"players": len(programme) * size, "tables": len(programme), "size": size}]
    seated = sorted(set(Table.objects.filter(round__stage=stage).values_list("number", flat=True)))
    if seated and seated != programme:
        missing = [table for table in programme if table not in seated]
        words.append(ngettext(
            "This stage seats %(count)s table, not %(tables)s: ",
            "This stage seats %(count)s tables, not %(tables)s: ", len(seated))
            % {"count": len(seated), "tables": len(programme)}
            + (ngettext("the groups name table %(missing)s, which it does not have; ",
                        "the groups name tables %(missing)s, which it does not have; ", len(missing))
               % {"missing": ", ".join(str(t) for t in missing)} if missing else "")
            + _("save the groups of the tables you have."))
    return words


def check_groups(groups: Sequence[Sequence[int]]) -> list[tuple[int, ...]]:
    """The groups as given, or ``GroupError`` naming the group or the table at fault."""
    if not groups:
        raise GroupError(_("Give at least one group of tables."))
    seen: dict[int, int] = {}
    out = []
    for index, tables in enumerate(groups, start=1):
        if not tables:
            raise GroupError(_("Group %(n)s has no tables.") % {"n": index})
        for table in tables:
            if table < 1:
                raise GroupError(_("Group %(n)s: there is no table %(table)s.") % {"n": index, "table": table})
            if table in seen:
                message = (_("Table %(table)s is listed twice in group %(n)s.") if seen[table] == index else
                           _("Table %(table)s is in group %(first)s and in group %(n)s; a table feeds one group."))
                raise GroupError(message % {"table": table, "first": seen[table], "n": index})
            seen[table] = index
        out.append(tuple(tables))
    return out


def _lock_open(stage: Stage) -> Stage:
    stage = Stage.objects.select_for_update().select_related("tournament").get(pk=stage.pk)
    if stage.closed:
        raise GroupError(_("The stage is closed."))
    return stage


def _refuse_if_any_closed(stage: Stage) -> None:
    closed = stage.table_groups.filter(closed_at__isnull=False).order_by("feeds").first()
    if closed is not None:
        raise GroupError(_("Group %(n)s is closed already; the groups can no longer change.") % {"n": closed.feeds})


@transaction.atomic
def set_groups(stage: Stage, groups: Sequence[Sequence[int]]) -> list[TableGroup]:
    """Replace the stage's groups: group i feeds table i of the next stage. Refused once a group is closed."""
    checked = check_groups(groups)
    stage = _lock_open(stage)
    _refuse_if_any_closed(stage)
    stage.table_groups.all().delete()
    return [TableGroup.objects.create(stage=stage, feeds=index, tables=list(tables))
            for index, tables in enumerate(checked, start=1)]


def _stored_groups(stage: Stage) -> None:
    """Under the stage's lock: the ruleset's programme becomes the stored groups when none are stored."""
    if not stage.table_groups.exists():
        defaults = default_groups(stage)
        for index, tables in enumerate(defaults, start=1):
            TableGroup.objects.create(stage=stage, feeds=index, tables=list(tables))


def _per_game(stage: Stage) -> int:
    """The stage's per-game count K; groups need it (with ``top`` N the qualifiers depend on every game)."""
    model = to_model(stage.tournament)
    kind = model.stage_kind(model.stage(stage.ext_id))
    advance = model.stage(stage.ext_id).advance
    rule = (advance.mode, advance.count) if advance else ruleset_for(stage.tournament).stage_format(kind).advance
    if rule is None or rule[0] != "per_game":
        raise GroupError(_("Groups of tables need per-game advancement (the best of each game); this stage "
                           "sends on the best of the whole stage: close the stage instead."))
    return rule[1]


@transaction.atomic
def close_group(stage: Stage, feeds: int, user: User) -> ClosedGroup:
    """Close the group that feeds table ``feeds`` of the next stage and seat that table from its qualifiers."""
    stage = _lock_open(stage)
    following = next_stage_of(stage)
    if following is None:
        raise GroupError(_("This is the last stage: there is no next stage to seat."))
    following = Stage.objects.select_for_update().get(pk=following.pk)
    _stored_groups(stage)
    group = TableGroup.objects.select_for_update().filter(stage=stage, feeds=feeds).first()
    if group is None:
        raise GroupError(_("There is no group feeding table %(n)s.") % {"n": feeds})
    if group.closed_at is not None:
        raise GroupError(_("Group %(n)s is closed already: its table of the next stage is seated.") % {"n": feeds})
    _per_game(stage)
    tables = list(Table.objects.filter(round__stage=stage, number__in=group.tables)
                  .select_related("round", "game").order_by("round__number", "number"))
    if not tables:
        raise GroupError(_("Group %(n)s has no games yet.") % {"n": feeds})
    for table in tables:
        game = getattr(table, "game", None)
        if game is None or game.state != GameState.CONFIRMED:
            raise GroupError(_("Group %(n)s: table %(table)s of round %(round)s has no confirmed protocol yet.")
                             % {"n": feeds, "table": table.number, "round": table.round.number})
    players = _group_players(stage, group, tables)
    standings = compute_standings(to_model(stage.tournament), stage.ext_id)
    qualifiers = [pid for pid in standings.advance if pid in players]
    size = ruleset_for(stage.tournament).params.table_size
    if len(qualifiers) != size:
        raise GroupError(_("Group %(n)s sends %(count)s players on, but a table seats %(size)s: break the tie "
                           "with the stage's lots, or close the whole stage.")
                         % {"n": feeds, "count": len(qualifiers), "size": size})
    table = _seat_table(following, feeds, qualifiers)
    group.closed_at, group.closed_by = timezone.now(), user
    group.save(update_fields=["closed_at", "closed_by"])
    return ClosedGroup(group, following, table, tuple(qualifiers))


def _group_players(stage: Stage, group: TableGroup, tables: list[Table]) -> set[str]:
    """The group's players; refused when one of them also plays outside the group (their total is not final)."""
    seats = list(Seat.objects.filter(round__stage=stage).values_list("participant_id", "participant__ext_id",
                                                                      "table__number"))
    inside = {table.number for table in tables}
    players = {pid for _pk, pid, number in seats if number in inside}
    for pk, pid, number in seats:
        if pid in players and number not in inside:
            name = Participant.objects.select_related("player").get(pk=pk).player.full_name
            raise GroupError(_("%(name)s of group %(n)s also plays at table %(table)s, outside the group.")
                             % {"name": name, "n": group.feeds, "table": number})
    return players


def _seat_table(following: Stage, number: int, qualifiers: list[str]) -> Table:
    """Table ``number`` of the next stage's round 1 (made as a draft if missing), seats in a random order; the
    qualifiers join the next stage's players. Round 1 published already: the table is public at once."""
    round_ = following.rounds.filter(number=1).first()
    if round_ is None:
        round_ = Round.objects.create(stage=following, number=1, seating="random")
    elif round_.tables.filter(number=number).exists():
        raise GroupError(_("Table %(table)s of %(next)s is seated already.") % {"table": number, "next": following})
    ids = dict(Participant.objects.filter(tournament_id=following.tournament_id, ext_id__in=qualifiers)
               .values_list("ext_id", "pk"))
    taken = set(following.entries.filter(participant_id__in=ids.values()).values_list("participant_id", flat=True))
    if taken:
        raise GroupError(_("Some of these players are already in %(next)s.") % {"next": following})
    order = list(qualifiers)
    random.SystemRandom().shuffle(order)
    table = Table.objects.create(round=round_, number=number)  # a save: the public version follows
    Seat.objects.bulk_create(Seat(table=table, round=round_, number=seat, participant_id=ids[pid])
                             for seat, pid in enumerate(order, start=1))
    start = (following.entries.aggregate(n=Max("position"))["n"] or -1) + 1 if following.players_listed else 0
    if not following.players_listed:
        following.entries.all().delete()
    StagePlayer.objects.bulk_create(StagePlayer(stage=following, participant_id=ids[pid], position=start + i)
                                    for i, pid in enumerate(qualifiers))
    following.players_listed = True
    following.save(update_fields=["players_listed"])
    return table
