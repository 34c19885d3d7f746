"""The hall screen's organizer page, mounted under ``/p/<slug>/screen/control/`` (where it has always been, beside
the projector's page ``/p/<slug>/screen/``, which is ``public``'s)."""

from __future__ import annotations

from django.urls import path

from .views import ScreenControlView

app_name = "venue_screen"

urlpatterns = [path("", ScreenControlView.as_view(), name="control")]
