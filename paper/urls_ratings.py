"""The rating's downloads, mounted under ``/ratings/export/``."""

from __future__ import annotations

from django.urls import path

from . import ratings

app_name = "rating_exports"

urlpatterns = [
    path("rating.csv", ratings.RatingCsvView.as_view(), name="csv"),
    path("rating.xlsx", ratings.RatingXlsxView.as_view(), name="xlsx"),
]
