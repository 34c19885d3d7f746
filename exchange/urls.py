"""The tournament file's download (mounted under ``t/<slug>/`` by the root URLs; the import page is the site's)."""

from __future__ import annotations

from django.urls import path

from . import views

app_name = "exchange"

urlpatterns = [
    path("export/", views.ExportTournamentView.as_view(), name="export"),
    path("exports/", views.ExportsView.as_view(), name="exports"),
    path("export/<str:platform>/", views.PlatformExportView.as_view(), name="export_platform"),
]
