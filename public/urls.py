"""Public pages: no login; mounted under ``/p/``."""

from __future__ import annotations

from django.urls import path

from .views import pages, people, seating, standings, venue_screen, visibility

app_name = "public"

urlpatterns = [
    path("", pages.TournamentListView.as_view(), name="list"),
    path("<slug:slug>/", pages.HomeView.as_view(), name="home"),
    path("<slug:slug>/rules/", pages.RulesView.as_view(), name="rules"),
    path("<slug:slug>/where/", seating.WhereView.as_view(), name="where"),
    path("<slug:slug>/seating/", seating.SeatingView.as_view(), name="seating"),
    path("<slug:slug>/seating/<str:stage>/<int:number>/", seating.SeatingView.as_view(), name="round_seating"),
    path("<slug:slug>/standings/", standings.StandingsView.as_view(), name="standings"),
    path("<slug:slug>/standings/<str:stage>/", standings.StandingsView.as_view(), name="stage_standings"),
    path("<slug:slug>/players/<str:player>/", people.PlayerView.as_view(), name="player"),
    path("<slug:slug>/players/<str:player>/why/<str:stage>/", people.PlayerWhyView.as_view(), name="player_why"),
    path("<slug:slug>/games/<str:stage>/<int:number>/<int:table>/", people.GameView.as_view(), name="game"),
    path("<slug:slug>/screen/", venue_screen.ScreenView.as_view(), name="screen"),
    path("<slug:slug>/standings-visibility/", visibility.StandingsVisibilityView.as_view(),
         name="standings_visibility"),
]
