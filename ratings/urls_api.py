"""The rating in the API, mounted under ``/api/ratings/`` (beside the API's tournaments, in the same schema)."""

from __future__ import annotations

from django.urls import path

from .views.api import RatingsView

app_name = "rating_api"

urlpatterns = [path("", RatingsView.as_view(), name="ratings")]
