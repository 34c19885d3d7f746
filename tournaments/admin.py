from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import (
    Absence,
    Bye,
    KeepApart,
    LotDraw,
    Participant,
    Penalty,
    Player,
    PlayerMerge,
    Round,
    Seat,
    Stage,
    StagePlayer,
    Table,
    Team,
    Tournament,
)


class StageInline(admin.TabularInline[Stage, Tournament]):
    model = Stage
    extra = 0
    fields = [
        "order", "ext_id", "name", "kind", "advance_kind", "advance_count", "reset", "multiplier", "closed",
    ]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin[Tournament]):
    list_display = ["name", "slug", "ruleset", "city", "starts", "standings_hidden"]
    list_filter = ["ruleset", "standings_hidden"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organizers"]
    inlines = [StageInline]


class PlayerMergeInline(admin.TabularInline[PlayerMerge, Player]):
    """The merges that made this record (services.merging; merged on the registry's merge page only)."""

    model = PlayerMerge
    fk_name = "kept"
    extra = 0
    can_delete = False
    fields = readonly_fields = ("merged_at", "merged_by_name", "merged_id", "merged", "reason")

    def has_add_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin[Player]):
    list_display = ["surname", "first_name", "patronymic", "nickname", "city", "club", "birth_date", "phone"]
    search_fields = ["surname", "first_name", "nickname", "city", "club"]
    raw_id_fields = ["user"]  # the site may have many users
    inlines = [PlayerMergeInline]


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin[Team]):
    list_display = ["name", "ext_id", "tournament"]
    list_filter = ["tournament"]


@admin.register(Participant)
class ParticipantAdmin(admin.ModelAdmin[Participant]):
    list_display = ["number", "player", "tournament", "team", "guest", "status"]
    list_filter = ["tournament", "status", "guest"]
    search_fields = ["player__surname", "player__nickname", "ext_id"]
    raw_id_fields = ["player"]
    list_select_related = ["player", "tournament", "team"]


class StagePlayerInline(admin.TabularInline[StagePlayer, Stage]):
    model = StagePlayer
    extra = 0
    raw_id_fields = ["participant"]


class LotDrawInline(admin.TabularInline[LotDraw, Stage]):
    """The audit of the stage's lots: drawn and cancelled on the standings page only (running.services.lots)."""

    model = LotDraw
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "players", "method", "drawn_at", "drawn_by_name", "note", "cancelled_at", "cancelled_by_name")

    def has_add_permission(self, request: HttpRequest, obj: Stage | None = None) -> bool:
        return False


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin[Stage]):
    list_display = [
        "__str__", "tournament", "order", "kind", "advance_kind", "advance_count", "reset", "closed",
    ]
    list_filter = ["tournament"]
    inlines = [StagePlayerInline, LotDrawInline]


class TableInline(admin.TabularInline[Table, Round]):
    model = Table
    extra = 0


class ByeInline(admin.TabularInline[Bye, Round]):
    model = Bye
    extra = 0
    raw_id_fields = ["participant"]


class AbsenceInline(admin.TabularInline[Absence, Round]):
    model = Absence
    extra = 0
    raw_id_fields = ["participant"]


class PenaltyInline(admin.TabularInline[Penalty, Round]):
    model = Penalty
    extra = 0
    raw_id_fields = ["participant"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin[Round]):
    list_display = ["__str__", "stage", "number", "seating", "state", "published_at"]
    list_filter = ["state", "stage__tournament"]
    inlines = [TableInline, ByeInline, AbsenceInline, PenaltyInline]


class SeatInline(admin.TabularInline[Seat, Table]):
    model = Seat
    extra = 0
    raw_id_fields = ["participant", "round"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin[Table]):
    list_display = ["__str__", "round", "number"]
    inlines = [SeatInline]


admin.site.register([Bye, Absence, Penalty, Seat])


@admin.register(KeepApart)
class KeepApartAdmin(admin.ModelAdmin[KeepApart]):
    list_display = ["__str__", "tournament", "first", "second"]
    list_filter = ["tournament"]
    raw_id_fields = ["first", "second"]
