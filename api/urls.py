"""The API under ``/api/``: read-only data, and protocols for staff (token); the OpenAPI schema at
``/api/schema/``."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.views import SpectacularAPIView

from . import protocols, views
from .tokens import TokenView

app_name = "api"

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    path("tournaments/", views.TournamentListView.as_view(), name="tournaments"),
    path("tournaments/<slug:slug>/", views.TournamentDetailView.as_view(), name="tournament"),
    path("tournaments/<slug:slug>/stages/", views.StageListView.as_view(), name="stages"),
    path("tournaments/<slug:slug>/rounds/", views.RoundListView.as_view(), name="rounds"),
    path("tournaments/<slug:slug>/rounds/<str:stage>/<int:number>/seating/", views.SeatingView.as_view(),
         name="seating"),
    path("tournaments/<slug:slug>/games/", views.GameListView.as_view(), name="games"),
    path("tournaments/<slug:slug>/standings/", views.StandingsView.as_view(), name="standings"),
    path("tournaments/<slug:slug>/awards/", views.AwardsView.as_view(), name="awards"),
    path("tournaments/<slug:slug>/export/<str:platform>/", views.PlatformExportView.as_view(), name="export"),
    path("token/", TokenView.as_view(), name="token"),
    path("tournaments/<slug:slug>/protocols/<int:table>/", protocols.ProtocolView.as_view(), name="protocol"),
    path("tournaments/<slug:slug>/protocols/<int:table>/submit/", protocols.SubmitView.as_view(), name="submit"),
    path("tournaments/<slug:slug>/protocols/<int:table>/confirm/", protocols.ConfirmView.as_view(),
         name="confirm"),
    path("tournaments/<slug:slug>/protocols/<int:table>/reopen/", protocols.ReopenView.as_view(), name="reopen"),
]
