"""The rating's downloads, mounted under ``/ratings/export/``."""

from __future__ import annotations

from django.urls import path

from .views.exports import RatingCsvView, RatingXlsxView

app_name = "rating_exports"

urlpatterns = [
    path("rating.csv", RatingCsvView.as_view(), name="csv"),
    path("rating.xlsx", RatingXlsxView.as_view(), name="xlsx"),
]
