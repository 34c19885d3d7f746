"""``/favicon.ico``: the address browsers ask for by themselves (for a PDF, a CSV, a JSON answer, an old bookmark)
whatever a page's ``<link rel="icon">`` says; it leads to the site's icon instead of a 404 in every log."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseRedirect
from django.templatetags.static import static
from django.views.decorators.http import require_safe


@require_safe
def favicon(request: HttpRequest) -> HttpResponseRedirect:
    # not permanent: the hashed name in production changes with a release, and a browser keeps a 301 for good
    return HttpResponseRedirect(static("img/favicon-32.png"))
