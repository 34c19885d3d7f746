"""The overlay's secret links (one a table number) and their state, under ``t/<slug>/`` in the ``games`` namespace
their names were published in (mafia_tournament/urls.py)."""

from __future__ import annotations

from django.urls import path

from .views import overlay

urlpatterns = [
    path("stream/<str:token>/<int:number>/", overlay.OverlayView.as_view(), name="overlay"),
    path("stream/<str:token>/<int:number>/state/", overlay.OverlayStateView.as_view(), name="overlay_state"),
]
