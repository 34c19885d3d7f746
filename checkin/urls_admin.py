"""The organizer's check-in pages, under ``t/<slug>/`` in the ``running`` namespace their names were published in
(mafia_tournament/urls.py)."""

from __future__ import annotations

from django.urls import path

from .views import organizer

urlpatterns = [
    path("checkin/", organizer.CheckInsView.as_view(), name="checkins"),
    path("checkin/<int:pk>/", organizer.OrganizerPhoneView.as_view(), name="checkin_phone"),
    path("checkin/<int:pk>/door/", organizer.DoorView.as_view(), name="checkin_door"),
]
