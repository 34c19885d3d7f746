"""The rating's public pages, mounted under ``/ratings/`` (beside the tournaments, not under one)."""

from __future__ import annotations

from django.urls import path

from .views.public import RatingListView, RatingPlayerView

app_name = "ratings"

urlpatterns = [
    path("", RatingListView.as_view(), name="list"),
    path("players/<int:player>/", RatingPlayerView.as_view(), name="player"),
]
