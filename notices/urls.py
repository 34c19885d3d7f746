"""The organizer's and the judges' pages, under ``t/<slug>/``."""

from __future__ import annotations

from django.urls import path

from . import views

app_name = "notices"

urlpatterns = [
    path("notices/", views.NoticesView.as_view(), name="notices"),
    path("notices/telegram/", views.JudgeTelegramView.as_view(), name="judge_telegram"),
]
