"""The session's links that need no account (the volunteer's list, the door's QR code), under ``t/<slug>/`` in the
``running`` namespace their names were published in (mafia_tournament/urls.py)."""

from __future__ import annotations

from django.urls import path

from .views import links

urlpatterns = [
    path("checkin/v/<str:token>/", links.VolunteerPhoneView.as_view(), name="checkin_volunteer"),
    path("checkin/q/<str:token>/", links.SelfView.as_view(), name="checkin_self"),
]
