"""The organizer's registration pages, under ``t/<slug>/``."""

from __future__ import annotations

from django.urls import path

from . import views

app_name = "entries"

urlpatterns = [
    path("registration/", views.RegistrationView.as_view(), name="registration"),
    path("registration/badges/", views.BadgesView.as_view(), name="badges"),
    path("registration/badges/<int:pk>/", views.BadgesView.as_view(), name="badge"),
]
