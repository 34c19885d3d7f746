"""The judges page (organizers only), under ``t/<slug>/`` in the ``games`` namespace its name was published in
(mafia_tournament/urls.py)."""

from __future__ import annotations

from django.urls import path

from .views import staff

urlpatterns = [
    path("staff/", staff.StaffView.as_view(), name="staff"),
]
