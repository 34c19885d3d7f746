"""The players' public pages, under ``p/<slug>/``: fixed addresses (docs/players-channel.md)."""

from __future__ import annotations

from django.urls import path

from . import views_public as views

app_name = "entries_public"

urlpatterns = [
    path("register/", views.RegisterView.as_view(), name="register"),
    path("coming/", views.ComingView.as_view(), name="coming"),
    path("calendar.ics", views.CalendarView.as_view(), name="calendar"),
    path("me/<str:token>/", views.MeView.as_view(), name="me"),
    path("me/<str:token>/calendar.ics", views.MyCalendarView.as_view(), name="my_calendar"),
]
