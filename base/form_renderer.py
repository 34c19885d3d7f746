"""The form renderer (``FORM_RENDERER``): Django's own widget and form templates rendered by Jinja2.

Django renders every widget through a template. Its template engine spent 2–3 ms a widget, and a judge's
protocol page draws about a hundred of them (ten seats' roles, fouls, votes, the night's choices): over two thirds
of the page's time went to its ``<select>``s and ``<input>``s. Django ships the same templates written for Jinja2
(``django/forms/jinja2``), which render the same HTML in a fraction of the time (bench/README.md "Widgets
rendered by Jinja2").

The project's own widget templates are Jinja2 too (an app's ``jinja2/`` folder:
``tournaments/jinja2/tournaments/widgets/``): one written for Django's engine would render its ``<select>``s
through that engine again (the chain's ten cost 20 ms a page). A name Jinja2 does not have is still found by
Django's own form renderer, so a Django template in an app's ``templates/`` folder works, only slower.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from django.forms.renderers import BaseRenderer, DjangoTemplates, Jinja2
from django.template import TemplateDoesNotExist


class JinjaFirstRenderer(BaseRenderer):
    @cached_property
    def jinja2(self) -> Jinja2:
        return Jinja2()

    @cached_property
    def django(self) -> DjangoTemplates:
        return DjangoTemplates()

    def get_template(self, template_name: str) -> Any:
        try:
            return self.jinja2.get_template(template_name)
        except TemplateDoesNotExist:
            return self.django.get_template(template_name)
