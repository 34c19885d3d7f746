"""The rating's administration (K per level and side, the start), mounted under ``/ratings/rules/``."""

from __future__ import annotations

from django.urls import path

from .views.rules import RulesView

app_name = "rating_rules"

urlpatterns = [path("", RulesView.as_view(), name="rules")]
