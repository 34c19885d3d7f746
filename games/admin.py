from __future__ import annotations

from django.contrib import admin

from .models import Game, GameSeat, Protest


class GameSeatInline(admin.TabularInline[GameSeat, Game]):
    model = GameSeat
    extra = 0
    raw_id_fields = ["seat"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin[Game]):
    list_display = ["table", "winner"]
    list_filter = ["winner", "table__round__stage__tournament"]
    raw_id_fields = ["table"]
    inlines = [GameSeatInline]


@admin.register(Protest)
class ProtestAdmin(admin.ModelAdmin[Protest]):
    list_display = ["game", "seat", "decision", "decided_by"]
    list_filter = ["decision"]
    raw_id_fields = ["game"]
