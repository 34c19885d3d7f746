"""Printed documents and exports, under a tournament's administration addresses."""

from __future__ import annotations

from django.urls import path

from . import views

app_name = "paper"

ROUND = "t/<slug:slug>/print/<str:stage>/<int:number>/"

urlpatterns = [
    path(ROUND + "seating/", views.SeatingPrintView.as_view(), name="seating"),
    path(ROUND + "seating.pdf", views.SeatingPrintView.as_view(pdf=True), name="seating_pdf"),
]
