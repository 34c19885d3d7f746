from __future__ import annotations

from django.urls import path

from .views import desk, links, protests, protocol, protocol_list, table

app_name = "games"

urlpatterns = [
    path("protocols/", protocol_list.ProtocolListView.as_view(), name="protocols"),
    path("desk/", desk.DeskView.as_view(), name="desk"),
    path("desk/tables/<int:table>/", desk.DeskActionView.as_view(), name="desk_action"),
    path("j/<str:token>/", links.PrivateLinkView.as_view(), name="private_link"),
    path("tables/<int:table>/", protocol.ProtocolView.as_view(), name="protocol"),
    path("tables/<int:table>/state/", protocol.StateView.as_view(), name="state"),
    path("tables/<int:table>/history/", protocol.HistoryView.as_view(), name="history"),
    path("tables/<int:table>/protests/", protests.ProtestsView.as_view(), name="protests"),
    path("tables/<int:table>/protests/<int:protest>/decide/", protests.DecideView.as_view(),
         name="decide"),
    path("tables/<int:table>/live/", table.TableScreenView.as_view(), name="table"),
]
