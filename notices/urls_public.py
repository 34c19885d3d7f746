"""A player's links beside the private page, under ``p/<slug>/``."""

from __future__ import annotations

from django.urls import path

from . import views_public as views

app_name = "notices_public"

urlpatterns = [
    path("me/<str:token>/telegram/", views.TelegramLinkView.as_view(), name="telegram"),
    path("me/<str:token>/unsubscribe/", views.UnsubscribeView.as_view(), name="unsubscribe"),
]
