from __future__ import annotations

from django.contrib import admin

from .models import Broadcast, Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin[Message]):
    list_display = ("tournament", "name", "channel", "kind", "subject", "created", "handed_at", "given_up")
    list_filter = ("channel", "kind", "given_up")
    search_fields = ("name", "subject", "address")


@admin.register(Broadcast)
class BroadcastAdmin(admin.ModelAdmin[Broadcast]):
    list_display = ("tournament", "audience", "created", "created_by")
