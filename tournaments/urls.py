"""The organizer's pages of one tournament that need no results (mounted under ``t/<slug>/`` by the root URLs)."""

from __future__ import annotations

from django.urls import path

from .views import apart, params, participant, people, tournaments

app_name = "tournaments"

urlpatterns = [
    path("", tournaments.TournamentDetailView.as_view(), name="detail"),
    path("participants/", people.ParticipantsView.as_view(), name="participants"),
    path("participants/import/", people.ImportPlayersView.as_view(), name="import_players"),
    path("participants/settings/", people.SettingsView.as_view(), name="settings"),
    path("participants/applications/", people.BulkDecisionView.as_view(), name="decide_many"),
    path("participants/<int:pk>/edit/", participant.ParticipantEditView.as_view(), name="participant_edit"),
    path("participants/<int:pk>/remove/", participant.ParticipantRemoveView.as_view(), name="participant_remove"),
    path("participants/<int:pk>/disqualify/", participant.ParticipantDisqualifyView.as_view(),
         name="participant_disqualify"),
    path("participants/<int:pk>/reinstate/", participant.ParticipantReinstateView.as_view(),
         name="participant_reinstate"),
    path("participants/<int:pk>/<str:decision>/", people.DecideApplicationView.as_view(), name="decide"),
    path("teams/", people.TeamsView.as_view(), name="teams"),
    path("keep-apart/", apart.KeepApartView.as_view(), name="keep_apart"),
    path("parameters/", params.ParametersView.as_view(), name="parameters"),
]
