"""Root URL configuration."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls")),
    path("p/", include("public.urls")),
    path("api/", include("api.urls")),
    path("", include("games.urls")),
    path("", include("paper.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]

# a database failure after the view (saving the session) is the same clear 503 as one in it
handler400 = "mafia_tournament.database_outage.bad_request"
handler500 = "mafia_tournament.database_outage.server_error"
