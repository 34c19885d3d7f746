"""The judges' allocation grid of a round: a judge per table, saved at once, and the conflicts beside each table.

A conflict is a warning, not a refusal (the organizer may have no other judge): the judge's account is linked to
a player at the table (``participant_problem`` keeps a participant from judging, but an account can be linked to a
player entry after the judge was added); the judge's own player entry in the tournament (any status) is a
teammate or a kept-apart partner of a player at the table; the judge is on another table of the same round too.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import KeepApart, Participant, Round, Seat, Table

from .. import plan as judge_plan
from ..models import Judge, JudgeAssignment


@dataclass
class GridRow:
    table: Table
    judge: Judge | None
    conflicts: list[str] = field(default_factory=list)
    every_round: Judge | None = None  # a judge who hosts this table in every round of the stage, another one


def previous_round(round_: Round) -> Round | None:
    """The round before ``round_``: the one before it in its stage, else the last round of the stage before."""
    earlier = Round.objects.filter(stage=round_.stage_id, number__lt=round_.number).order_by("-number").first()
    if earlier is not None:
        return earlier
    return (Round.objects.filter(stage__tournament=round_.stage.tournament_id, stage__order__lt=round_.stage.order)
            .order_by("-stage__order", "-number").first())


def allocation(round_: Round) -> dict[int, int]:
    """Table number → judge id in ``round_`` (a judge assigned for the round wins over one for the whole stage)."""
    rows = JudgeAssignment.objects.filter(Q(round=round_) | Q(round__isnull=True, stage=round_.stage_id))
    out: dict[int, int] = {}
    for row in sorted(rows, key=lambda a: a.round_id is not None):
        out[row.table] = row.judge_id
    return out


def seated_name(seat: Seat) -> str:
    return seat.participant.player.full_name


def conflicts(round_: Round, chosen: dict[int, Judge | None]) -> dict[int, list[str]]:
    """Table number → the warnings about its chosen judge (a fixed number of queries)."""
    judges = {j.pk: j for j in chosen.values() if j is not None}
    by_user = {j.user_id: j for j in judges.values()}
    seats = list(Seat.objects.filter(round=round_).select_related("table", "participant__player", "participant__team")
                 .order_by("table__number", "number"))
    own = {p.player.user_id: p for p in Participant.objects.filter(  # the judges' own entries, any status
        tournament=round_.stage.tournament_id, player__user__in=list(by_user)).select_related("player")}
    pairs: set[frozenset[int]] = {frozenset(pair) for pair in KeepApart.objects.filter(
        tournament=round_.stage.tournament_id).values_list("first_id", "second_id")}
    tables_of: dict[int, set[int]] = defaultdict(set)  # a judge's tables: chosen, or theirs in every round
    for number, judge in chosen.items():
        if judge is not None:
            tables_of[judge.pk].add(number)
    for number, judge_id in stage_wide(round_).items():
        if judge_id in judges and number in chosen:
            tables_of[judge_id].add(number)
    out: dict[int, list[str]] = defaultdict(list)
    for seat in seats:
        number, judge = seat.table.number, chosen.get(seat.table.number)
        if judge is None:
            continue
        values = {"judge": judge_label(judge), "seat": seat.number, "name": seated_name(seat)}
        if seat.participant.player.user_id == judge.user_id:
            out[number].append(_("%(judge)s plays at this table (seat %(seat)s: %(name)s).") % values)
            continue
        entry = own.get(judge.user_id)
        if entry is None or entry.pk == seat.participant_id:
            continue
        if entry.team_id is not None and entry.team_id == seat.participant.team_id:
            out[number].append(_("%(judge)s is a teammate of %(name)s (seat %(seat)s, team %(team)s).")
                               % {**values, "team": seat.participant.team})
        if frozenset((entry.pk, seat.participant_id)) in pairs:
            out[number].append(_("%(judge)s is kept apart from %(name)s (seat %(seat)s).") % values)
    for judge_id, numbers in tables_of.items():
        if len(numbers) > 1:
            for number in sorted(numbers):
                here = chosen.get(number)
                if here is None or here.pk != judge_id:  # the table where they are in every round says it
                    continue
                others = ", ".join(str(n) for n in sorted(numbers) if n != number)
                out[number].append(_("%(judge)s is also on table %(tables)s of this round.")
                                   % {"judge": judge_label(judges[judge_id]), "tables": others})
    return dict(out)


def stage_wide(round_: Round) -> dict[int, int]:
    """Table number → the judge who hosts it in every round of ``round_``'s stage."""
    return dict(JudgeAssignment.objects.filter(stage=round_.stage_id, round__isnull=True)
                .values_list("table", "judge_id"))


def judge_label(judge: Judge) -> str:
    return judge.user.get_full_name() or judge.user.get_username()


def grid(round_: Round, chosen: dict[int, Judge | None]) -> list[GridRow]:
    """The round's tables in order, each with its chosen judge and the warnings about it."""
    found = conflicts(round_, chosen)
    wide = stage_wide(round_)
    judges = {j.pk: j for j in Judge.objects.filter(pk__in=set(wide.values())).select_related("user")}
    rows = []
    for t in Table.objects.filter(round=round_).order_by("number"):
        judge, other = chosen.get(t.number), judges.get(wide.get(t.number, 0))
        rows.append(GridRow(t, judge, found.get(t.number, []),
                            other if other is not None and (judge is None or judge.pk != other.pk) else None))
    return rows


def chosen_from(round_: Round, source: Round | None = None) -> dict[int, Judge | None]:
    """The judge of each table of ``round_`` as allocated in ``source`` (``round_`` itself by default)."""
    by_table = allocation(source or round_)
    judges = {j.pk: j for j in Judge.objects.filter(pk__in=set(by_table.values())).select_related("user")}
    numbers = Table.objects.filter(round=round_).values_list("number", flat=True)
    return {n: judges.get(by_table[n]) if n in by_table else None for n in numbers}


@transaction.atomic
def save_allocation(round_: Round, chosen: dict[int, Judge | None]) -> int:
    """Replaces the round's own assignments by ``chosen`` (table number → judge, or none), all at once; the
    assignments for every round of the stage stay. Returns how many tables have a judge."""
    Round.objects.select_for_update().get(pk=round_.pk)
    tables = set(Table.objects.filter(round=round_).values_list("number", flat=True))
    if set(chosen) - tables:
        raise ValueError("a table the round does not have")
    if any(j is not None and j.tournament_id != round_.stage.tournament_id for j in chosen.values()):
        raise ValueError("a judge of another tournament")
    JudgeAssignment.objects.filter(round=round_).delete()
    JudgeAssignment.objects.bulk_create(
        JudgeAssignment(judge=judge, stage_id=round_.stage_id, round=round_, table=number)
        for number, judge in sorted(chosen.items()) if judge is not None)
    return sum(1 for j in chosen.values() if j is not None)


# --- "Allocate": the grid filled by the app (judges/plan.py decides) ----------------------------------------


def barred(round_: Round, judges: list[Judge]) -> dict[int, dict[int, list[str]]]:
    """Table number → judge id → why that judge may not sit there: the warnings ``conflicts`` gives, for every
    judge at every table (a fixed number of queries)."""
    seats = list(Seat.objects.filter(round=round_).select_related("table", "participant__player")
                 .order_by("table__number", "number"))
    by_user = {j.user_id: j for j in judges}
    own = {p.player.user_id: p for p in Participant.objects.filter(
        tournament=round_.stage.tournament_id, player__user__in=list(by_user)).select_related("player")}
    pairs: set[frozenset[int]] = {frozenset(pair) for pair in KeepApart.objects.filter(
        tournament=round_.stage.tournament_id).values_list("first_id", "second_id")}
    teams = dict(Participant.objects.filter(pk__in={s.participant_id for s in seats}, team__isnull=False)
                 .values_list("pk", "team__name"))
    out: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    for seat in seats:
        number = seat.table.number
        for judge in judges:
            values = {"judge": judge_label(judge), "seat": seat.number, "name": seated_name(seat)}
            if seat.participant.player.user_id == judge.user_id:
                out[number][judge.pk].append(_("%(judge)s plays at this table (seat %(seat)s: %(name)s).") % values)
                continue
            entry = own.get(judge.user_id)
            if entry is None or entry.pk == seat.participant_id:
                continue
            if entry.team_id is not None and entry.team_id == seat.participant.team_id:
                out[number][judge.pk].append(
                    _("%(judge)s is a teammate of %(name)s (seat %(seat)s, team %(team)s).")
                    % {**values, "team": teams.get(seat.participant_id, "")})
            if frozenset((entry.pk, seat.participant_id)) in pairs:
                out[number][judge.pk].append(_("%(judge)s is kept apart from %(name)s (seat %(seat)s).") % values)
    return {number: dict(by_judge) for number, by_judge in out.items()}


def history(round_: Round) -> tuple[dict[int, int], dict[tuple[int, int], int]]:
    """(judge id → games judged in the tournament's earlier rounds, (judge id, table) → times at that table in the
    stage's earlier rounds), from the allocations (a judge for every round of a stage counts in each)."""
    earlier = [r for r in Round.objects.filter(stage__tournament=round_.stage.tournament_id)
               .select_related("stage").order_by("stage__order", "number")
               if (r.stage.order, r.number) < (round_.stage.order, round_.number)]
    tables: dict[int, set[int]] = defaultdict(set)
    for round_id, number in Table.objects.filter(round__in=earlier).values_list("round_id", "number"):
        tables[round_id].add(number)
    rows = list(JudgeAssignment.objects.filter(stage__tournament=round_.stage.tournament_id)
                .values_list("stage_id", "round_id", "table", "judge_id"))
    judged: dict[int, int] = defaultdict(int)
    before: dict[tuple[int, int], int] = defaultdict(int)
    for r in earlier:
        by_table = {table: judge for stage, rid, table, judge in rows if stage == r.stage_id and rid is None}
        by_table.update({table: judge for _stage, rid, table, judge in rows if rid == r.pk})
        for table, judge in by_table.items():
            if table not in tables[r.pk]:
                continue
            judged[judge] += 1
            if r.stage_id == round_.stage_id:
                before[(judge, table)] += 1
    return dict(judged), dict(before)


@dataclass
class Proposal:
    chosen: dict[int, Judge | None]
    unfilled: list[str]  # each empty table and why, in words


def proposal(round_: Round) -> Proposal:
    """The grid "Allocate" fills (not saved: the organizer checks it and saves), and why a table stays empty."""
    judges = list(Judge.objects.filter(tournament=round_.stage.tournament_id).select_related("user")
                  .order_by("-chief", "user__username"))
    numbers = list(Table.objects.filter(round=round_).order_by("number").values_list("number", flat=True))
    judged, before = history(round_)
    bars = barred(round_, judges)
    facts = judge_plan.Facts(
        tables=numbers,
        judges=[judge_plan.Judge(j.pk, rank=j.rank, chief=j.chief, judged=judged.get(j.pk, 0)) for j in judges],
        barred=bars, before=before, fixed=stage_wide(round_))
    plan = judge_plan.allocate(facts)
    by_id = {j.pk: j for j in judges}
    chosen = {number: by_id.get(judge) if judge is not None else None for number, judge in plan.chosen.items()}
    unfilled = []
    for empty in plan.unfilled:
        if not empty.barred:
            unfilled.append(ngettext(
                "Table %(n)s: no judge is left for it (%(judges)s judge for %(tables)s tables).",
                "Table %(n)s: no judge is left for it (%(judges)s judges for %(tables)s tables).",
                len(judges)) % {"n": empty.table, "judges": len(judges), "tables": len(numbers)})
            continue
        reasons = " ".join(line for lines in empty.barred.values() for line in lines)
        unfilled.append(_("Table %(n)s: every judge still free is linked to a player at it. %(reasons)s")
                        % {"n": empty.table, "reasons": reasons})
    return Proposal(chosen, unfilled)
