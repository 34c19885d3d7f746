"""The form renderer (base/form_renderer.py): Django's widget templates through Jinja2, and every form page the
same HTML as when Django's engine rendered them (the same elements, attributes and words; Jinja2 escapes a quote as
``&#34;`` where Django writes ``&quot;``, the same character). The project's own widget templates are Jinja2 only:
what they draw is checked here against the form's fields."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.forms.renderers import get_default_renderer
from django.template import TemplateDoesNotExist
from django.test import Client

from base.form_renderer import JinjaFirstRenderer
from tests.site.page_matrix_world import RULESETS, source_data

pytestmark = pytest.mark.django_db

DJANGO_FIRST = "tests.site.test_form_renderer.DjangoFirstRenderer"
# the CSRF token differs on every answer
TOKEN = re.compile(r'(csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]+')


class DjangoFirstRenderer(JinjaFirstRenderer):
    """The reference: Django's widget templates rendered by Django's engine (as before), the project's by Jinja2."""

    def get_template(self, template_name: str) -> Any:
        try:
            return self.django.get_template(template_name)
        except TemplateDoesNotExist:
            return self.jinja2.get_template(template_name)


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


def test_every_widget_template_renders_with_jinja2() -> None:
    from django.template.backends.django import Template as DjangoTemplate
    from django.template.backends.jinja2 import Template as JinjaTemplate

    renderer = get_default_renderer()
    assert type(renderer).__name__ == "JinjaFirstRenderer"
    for name in ("django/forms/widgets/select.html", "django/forms/widgets/input.html", "django/forms/div.html",
                 "tournaments/widgets/chain.html", "tournaments/widgets/seating_plan.html"):
        assert isinstance(renderer.get_template(name), JinjaTemplate), name
    # a Django template in an app's templates/ folder is still found (by Django's engine)
    assert isinstance(renderer.get_template("tournaments/_params_fields.html"), DjangoTemplate)


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
    settings.FORM_RENDERER = DJANGO_FIRST
    assert type(get_default_renderer()) is DjangoFirstRenderer
    django_s = pages()
    for url, mine, theirs in zip(urls, ours, django_s, strict=True):
        assert "<select" in mine or "<input" in mine, url
        assert elements(mine) == elements(theirs), url
    assert 'id="chain-slots"' in ours[2] and "<select" in ours[2]  # the project's widget, Django's selects in it


def test_the_chain_widget_numbers_each_slot_and_names_its_select_by_it() -> None:
    """The tie-break chain (tournaments/jinja2/tournaments/widgets/chain.html): ten numbered slots, each select
    labelled by the field's label and its number, the chain's metrics chosen in order, the rest empty."""
    from tournaments.forms.params import CHAIN_SLOTS, ChainField

    html = ChainField().widget.render("param-chain", ["wins", "points"], attrs={"id": "id_param-chain"})
    events = elements(html)
    numbers = [events[i + 1][1] for i, e in enumerate(events) if e[:2] == ("<", "span")]
    assert numbers == [f"{n}." for n in range(1, CHAIN_SLOTS + 1)]
    selects = [dict(e[2]) for e in events if e[:2] == ("<", "select")]
    assert [s["name"] for s in selects] == [f"param-chain_{n}" for n in range(CHAIN_SLOTS)]
    assert [s["aria-labelledby"] for s in selects] == [f"chain-label id_param-chain_{n}-number"
                                                       for n in range(CHAIN_SLOTS)]
    assert all(dict(e[2]).get("id") == f"id_param-chain_{n}-number"
               for n, e in enumerate(e for e in events if e[:2] == ("<", "span")))
    chosen = re.findall(r'<option value="([^"]*)" selected>', html)
    assert chosen == ["wins", "points", *[""] * (CHAIN_SLOTS - 2)]


def test_the_seating_plan_widget_reads_as_methods_from_rounds_in_russian() -> None:
    """The seating per round (tournaments/jinja2/tournaments/widgets/seating_plan.html): a method, then «с тура»
    N another one, twice; each labelled in the organizer's language."""
    from django.utils import translation

    from tournaments.forms.setup import SeatingPlanWidget

    with translation.override("ru"):
        html = SeatingPlanWidget().render("seating", "balanced,balanced,balanced,balanced,swiss_tens,swiss_tens",
                                          attrs={"id": "id_seating"})
    events = elements(html)
    fields = [(e[1], dict(e[2])) for e in events if e[0] == "<" and e[1] in ("select", "input")]
    assert [(tag, a["name"]) for tag, a in fields] == [("select", "seating_0"), ("input", "seating_1"),
                                                       ("select", "seating_2"), ("input", "seating_3"),
                                                       ("select", "seating_4")]
    assert fields[1][1]["value"] == "5" and "value" not in fields[3][1]
    then = "рассадка начиная с этого тура"
    assert [a["aria-label"] for _tag, a in fields] == ["рассадка первых туров", "с тура", then, "с тура", then]
    assert [e[1] for e in events if e[0] == "text" and e[1] == "с тура"] == ["с тура", "с тура"]
    assert re.findall(r'<option value="([^"]*)" selected>', html) == ["balanced", "swiss_tens", ""]
