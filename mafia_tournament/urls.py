"""Root URL configuration: the site's pages, and every page of one tournament mounted once under ``t/<slug>/``
(each app's own URLs, in its own namespace, relative to that address)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

import checkin.urls_admin
import checkin.urls_public
import games.urls
import judges.urls_admin
import running.urls
import stream.urls_admin
import stream.urls_public
from base.favicon import favicon
from exchange.views import ImportTournamentView
from games.views.start import StartView
from tournaments.views.registry import DuplicatesView, MergeView, PlayerView
from tournaments.views.setup import CreateTournamentView
from tournaments.views.tournaments import TournamentListView

site_urlpatterns = [
    path("", TournamentListView.as_view(), name="tournaments"),
    path("new/", CreateTournamentView.as_view(), name="new_tournament"),
    path("import/", ImportTournamentView.as_view(), name="import_tournament"),
    path("start/", StartView.as_view(), name="start"),
    path("players/duplicates/", DuplicatesView.as_view(), name="duplicate_players"),
    path("players/merge/", MergeView.as_view(), name="merge_players"),
    path("players/<int:pk>/", PlayerView.as_view(), name="player"),
]

tournament_urlpatterns = [
    path("", include("tournaments.urls")),
    # The features cut out of running and games (check-in, the judges, the stream overlay) keep the URL names their
    # pages were published under: each app's URL files are mounted in the old app's namespace.
    path("", include((running.urls.urlpatterns + checkin.urls_admin.urlpatterns + checkin.urls_public.urlpatterns,
                      "running"))),
    path("", include((games.urls.urlpatterns + judges.urls_admin.urlpatterns + stream.urls_admin.urlpatterns
                      + stream.urls_public.urlpatterns, "games"))),
    path("", include("exchange.urls")),
    path("", include("paper.urls")),
    path("", include("entries.urls")),
    path("", include("notices.urls")),
]

urlpatterns = [
    path("", include((site_urlpatterns, "site"))),
    path("t/<slug:slug>/", include(tournament_urlpatterns)),
    path("p/<slug:slug>/", include("entries.urls_public")),  # the players' own pages (docs/players-channel.md)
    path("p/<slug:slug>/", include("notices.urls_public")),  # link Telegram, unsubscribe (docs/notifications.md)
    path("p/<slug:slug>/screen/control/", include("venue_screen.urls_admin")),  # the hall screen's organizer page
    path("p/", include("public.urls")),
    path("ratings/export/", include("ratings.urls_exports")),
    path("ratings/rules/", include("ratings.urls_admin")),
    path("ratings/", include("ratings.urls_public")),
    path("s/", include("series.urls")),
    path("api/ratings/", include("ratings.urls_api")),
    path("api/", include("api.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # The language switch takes no CSRF token: public pages are shared by every anonymous reader (public.conditional)
    # and so carry nobody's token; a forged switch changes only the language of the forger's victim.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("admin/", admin.site.urls),
    path("favicon.ico", favicon),
]

# a database failure after the view (saving the session) is the same clear 503 as one in it
handler400 = "base.database_outage.bad_request"
handler500 = "base.database_outage.server_error"
