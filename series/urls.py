"""The series' pages, mounted under ``s/`` (the list, a new one, each series by its slug)."""

from __future__ import annotations

from django.urls import path

from . import views

app_name = "series"

urlpatterns = [
    path("", views.SeriesListView.as_view(), name="list"),
    path("new/", views.CreateSeriesView.as_view(), name="new"),
    path("<slug:series>/", views.SeriesView.as_view(), name="detail"),
    path("<slug:series>/edit/", views.EditSeriesView.as_view(), name="edit"),
    path("<slug:series>/series.csv", views.SeriesCsvView.as_view(), name="csv"),
    path("<slug:series>/series.xlsx", views.SeriesXlsxView.as_view(), name="xlsx"),
]
