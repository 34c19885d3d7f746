from __future__ import annotations

from django.urls import path

from .views import apart, participant, people, rounds, schedule, setup, standings, tournaments

app_name = "tournaments"

urlpatterns = [
    path("", tournaments.TournamentListView.as_view(), name="list"),
    path("new/", setup.CreateTournamentView.as_view(), name="create"),
    path("import/", setup.ImportTournamentView.as_view(), name="import"),
    path("t/<slug:slug>/", tournaments.TournamentDetailView.as_view(), name="detail"),
    path("t/<slug:slug>/export/", setup.ExportTournamentView.as_view(), name="export"),
    path("t/<slug:slug>/participants/", people.ParticipantsView.as_view(), name="participants"),
    path("t/<slug:slug>/participants/import/", people.ImportPlayersView.as_view(), name="import_players"),
    path("t/<slug:slug>/participants/<int:pk>/edit/", participant.ParticipantEditView.as_view(),
         name="participant_edit"),
    path("t/<slug:slug>/participants/<int:pk>/remove/", participant.ParticipantRemoveView.as_view(),
         name="participant_remove"),
    path("t/<slug:slug>/participants/<int:pk>/disqualify/", participant.ParticipantDisqualifyView.as_view(),
         name="participant_disqualify"),
    path("t/<slug:slug>/participants/<int:pk>/reinstate/", participant.ParticipantReinstateView.as_view(),
         name="participant_reinstate"),
    path("t/<slug:slug>/participants/<int:pk>/<str:decision>/", people.DecideApplicationView.as_view(),
         name="decide"),
    path("t/<slug:slug>/teams/", people.TeamsView.as_view(), name="teams"),
    path("t/<slug:slug>/keep-apart/", apart.KeepApartView.as_view(), name="keep_apart"),
    path("t/<slug:slug>/stages/<str:stage>/", rounds.StageView.as_view(), name="stage"),
    path("t/<slug:slug>/stages/<str:stage>/rounds/<int:number>/", rounds.RoundView.as_view(), name="round"),
    path("t/<slug:slug>/stages/<str:stage>/rounds/<int:number>/start/", schedule.RoundStartView.as_view(),
         name="round_start"),
    path("t/<slug:slug>/stages/<str:stage>/seating/<int:pk>/", rounds.JobView.as_view(), name="job"),
    path("t/<slug:slug>/stages/<str:stage>/standings/", standings.StandingsView.as_view(), name="standings"),
]
