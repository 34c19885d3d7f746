from __future__ import annotations

from django.urls import path

from .views import tournaments

app_name = "tournaments"

urlpatterns = [
    path("", tournaments.TournamentListView.as_view(), name="list"),
    path("t/<slug:slug>/", tournaments.TournamentDetailView.as_view(), name="detail"),
]
