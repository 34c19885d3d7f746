"""The organizer's stage, round, standings and awards pages (mounted under ``t/<slug>/`` by the root URLs)."""

from __future__ import annotations

from django.urls import path

from .views import awards, rounds, schedule, standings

app_name = "running"

urlpatterns = [
    path("stages/<str:stage>/", rounds.StageView.as_view(), name="stage"),
    path("stages/<str:stage>/rounds/<int:number>/", rounds.RoundView.as_view(), name="round"),
    path("stages/<str:stage>/rounds/<int:number>/start/", schedule.RoundStartView.as_view(), name="round_start"),
    path("stages/<str:stage>/seating/<int:pk>/", rounds.JobView.as_view(), name="job"),
    path("stages/<str:stage>/standings/", standings.StandingsView.as_view(), name="standings"),
    path("awards/", awards.AwardsView.as_view(), name="awards"),
]
