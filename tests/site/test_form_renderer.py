"""The form renderer (base/form_renderer.py): Django's widget templates through Jinja2, the project's own through
Django's engine, and every form page the same HTML as Django's own renderer drew it (the same elements, attributes
and words; Jinja2 escapes a quote as ``&#34;`` where Django writes ``&quot;``, the same character)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.forms.renderers import get_default_renderer
from django.test import Client

from tests.site.page_matrix_world import RULESETS, source_data

pytestmark = pytest.mark.django_db

DJANGO_RENDERER = "django.forms.renderers.DjangoTemplates"
# the CSRF token differs on every answer
TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


class Elements(HTMLParser):
    """A page as its elements, their attributes (values unescaped) and its words, whitespace aside."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.events: list[tuple[Any, ...]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.events.append(("<", tag, tuple(sorted(attrs, key=lambda a: a[0]))))

    def handle_endtag(self, tag: str) -> None:
        self.events.append((">", tag))

    def handle_data(self, data: str) -> None:
        if words := " ".join(data.split()):
            self.events.append(("text", words))


def elements(html: str) -> list[tuple[Any, ...]]:
    parser = Elements()
    parser.feed(TOKEN.sub(r"\1-", html))
    return parser.events


def test_django_widgets_render_with_jinja2_and_the_projects_own_with_django() -> None:
    from django.template.backends.django import Template as DjangoTemplate
    from django.template.backends.jinja2 import Template as JinjaTemplate

    renderer = get_default_renderer()
    assert type(renderer).__name__ == "JinjaFirstRenderer"
    for name in ("django/forms/widgets/select.html", "django/forms/widgets/input.html", "django/forms/div.html"):
        assert isinstance(renderer.get_template(name), JinjaTemplate), name
    for name in ("tournaments/widgets/chain.html", "tournaments/widgets/seating_plan.html"):
        assert isinstance(renderer.get_template(name), DjangoTemplate), name


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_form_page_is_the_html_djangos_renderer_draws(ruleset: str, organizer: Any, settings: Any) -> None:
    """A judge's protocol (a played table and one in play), the parameters with the chain's slots, a new
    tournament, a participant's edit: the same page with either renderer."""
    from exchange.files import import_text
    from games.services import protocol as protocol_service
    from tournaments.models import Participant, Table

    tournament = import_text(json.dumps(source_data("generated", ruleset)), slug=f"r-{ruleset}",
                             organizers=[organizer])
    tables = list(Table.objects.filter(round__stage__tournament=tournament).order_by("pk"))
    protocol_service.open_protocol(tables[-1], organizer)
    participant = Participant.objects.filter(tournament=tournament).order_by("pk").first()
    assert participant is not None
    urls = [f"/t/{tournament.slug}/tables/{tables[0].pk}/", f"/t/{tournament.slug}/tables/{tables[-1].pk}/",
            f"/t/{tournament.slug}/parameters/", "/new/", f"/t/{tournament.slug}/participants/{participant.pk}/edit/"]
    client = Client()
    client.force_login(organizer)

    def pages() -> list[str]:
        answers = [client.get(url) for url in urls]
        assert [a.status_code for a in answers] == [200] * len(urls)
        return [a.content.decode() for a in answers]

    ours = pages()
    settings.FORM_RENDERER = DJANGO_RENDERER
    assert type(get_default_renderer()).__name__ == "DjangoTemplates"
    django_s = pages()
    for url, mine, theirs in zip(urls, ours, django_s, strict=True):
        assert "<select" in mine or "<input" in mine, url
        assert elements(mine) == elements(theirs), url
    assert 'id="chain-slots"' in ours[2] and "<select" in ours[2]  # the project's widget, Django's selects in it
