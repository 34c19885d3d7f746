"""Printed documents and exports, under a tournament's administration addresses (mounted under ``t/<slug>/``)."""

from __future__ import annotations

from django.urls import path

from . import views, views_results

app_name = "paper"

ROUND = "print/<str:stage>/<int:number>/"
RESULTS = "results"

urlpatterns = [
    path(ROUND + "seating/", views.SeatingPrintView.as_view(), name="seating"),
    path(ROUND + "seating.pdf", views.SeatingPrintView.as_view(pdf=True), name="seating_pdf"),
    path(ROUND + "protocols/", views.ProtocolFormsView.as_view(), name="forms"),
    path(ROUND + "protocols.pdf", views.ProtocolFormsView.as_view(pdf=True), name="forms_pdf"),
    path(RESULTS + "/", views_results.ResultsPrintView.as_view(), name="results"),
    path(RESULTS + ".pdf", views_results.ResultsPrintView.as_view(pdf=True), name="results_pdf"),
    path(RESULTS + ".xlsx", views_results.ResultsXlsxView.as_view(), name="results_xlsx"),
    path(RESULTS + ".csv", views_results.ResultsCsvView.as_view(), name="results_csv"),
    path(RESULTS + "/<str:stage>.csv", views_results.ResultsCsvView.as_view(), name="stage_csv"),
    path(RESULTS + "/teams/<str:stage>.csv", views_results.TeamsCsvView.as_view(), name="teams_csv"),
    path("application-form/", views.ApplicationFormView.as_view(), name="application_form"),
    path("application-form.pdf", views.ApplicationFormView.as_view(pdf=True), name="application_form_pdf"),
    path("diplomas/", views_results.DiplomasView.as_view(), name="diplomas"),
    path("diplomas.pdf", views_results.DiplomasView.as_view(pdf=True), name="diplomas_pdf"),
]
