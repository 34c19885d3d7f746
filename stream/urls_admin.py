"""The organizer's "Stream" tab, under ``t/<slug>/`` in the ``games`` namespace its name was published in
(mafia_tournament/urls.py)."""

from __future__ import annotations

from django.urls import path

from .views import control

urlpatterns = [
    path("stream/", control.StreamControlView.as_view(), name="stream"),
]
