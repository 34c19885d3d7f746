from __future__ import annotations

from django.urls import path

from .views import protests, protocol, staff, table

app_name = "games"

urlpatterns = [
    path("t/<slug:slug>/staff/", staff.StaffView.as_view(), name="staff"),
    path("t/<slug:slug>/protocols/", staff.ProtocolListView.as_view(), name="protocols"),
    path("t/<slug:slug>/tables/<int:table>/", protocol.ProtocolView.as_view(), name="protocol"),
    path("t/<slug:slug>/tables/<int:table>/state/", protocol.StateView.as_view(), name="state"),
    path("t/<slug:slug>/tables/<int:table>/history/", protocol.HistoryView.as_view(), name="history"),
    path("t/<slug:slug>/tables/<int:table>/protests/", protests.ProtestsView.as_view(), name="protests"),
    path("t/<slug:slug>/tables/<int:table>/protests/<int:protest>/decide/", protests.DecideView.as_view(),
         name="decide"),
    path("t/<slug:slug>/tables/<int:table>/live/", table.TableScreenView.as_view(), name="table"),
]
