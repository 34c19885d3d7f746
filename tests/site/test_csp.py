"""The Content-Security-Policy (``base/csp.py``): the production profile's responses
carry the strict header; only the printable documents allow inline styles; and no template carries an inline
script, an inline handler, code htmx would evaluate, or (outside the printable documents) an inline style — a
new one fails here. ``tests/e2e/test_csp_journey.py`` walks the pages in Chromium with the policy on."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client, RequestFactory
from django.urls import resolve

from base.csp import POLICY, policy_for
from tests.deploy.test_production_settings import good_env, run

ROOT = Path(__file__).resolve().parents[2]

STRICT = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; "
          "connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'; form-action 'self'")


def directives(header: str) -> dict[str, list[str]]:
    """A policy's header as directive → sources: django-csp writes the directives in no fixed order (a browser reads
    them in any), so two headers are compared as these."""
    found: dict[str, list[str]] = {}
    for part in header.split(";"):
        name, *sources = part.split()
        assert name not in found, header
        found[name] = sources
    return found

# A request through the whole middleware stack of the production profile (static files from the source tree:
# the hashed copies need collectstatic, which these tests do not run).
PROBE = """
import django; django.setup()
from django.test import Client
from django.test.utils import override_settings, setup_test_environment
setup_test_environment()
storages = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
with override_settings(STORAGES=storages):
    response = Client().get("/accounts/login/", secure=True, HTTP_HOST="mafia.example.org")
print(response.status_code)
print(response.get("Content-Security-Policy", "-"))
print(response.get("Content-Security-Policy-Report-Only", "-"))
"""


def test_the_production_profile_sends_the_strict_policy() -> None:
    assert directives(STRICT) == POLICY
    result = run(["-c", PROBE], **good_env())
    assert result.returncode == 0, result.stderr
    status, enforced, reported = result.stdout.strip().splitlines()
    assert status == "200"
    assert directives(enforced) == directives(STRICT)
    assert reported == "-"


def test_report_only_sends_the_same_policy_to_be_reported() -> None:
    result = run(["-c", PROBE], CSP_REPORT_ONLY="1", **good_env())
    assert result.returncode == 0, result.stderr
    enforced, reported = result.stdout.strip().splitlines()[1:]
    assert enforced == "-"
    assert directives(reported) == directives(STRICT)


def test_only_the_printable_documents_allow_inline_styles() -> None:
    def policy(path: str) -> dict[str, list[str]]:
        request = RequestFactory().get(path)
        request.resolver_match = resolve(path)
        return policy_for(request, POLICY)

    for path in ["/t/cup/results/", "/t/cup/print/q/1/seating/", "/t/cup/print/q/1/protocols/"]:
        relaxed = policy(path)
        assert relaxed["style-src"] == ["'self'", "'unsafe-inline'"], path
        assert relaxed["script-src"] == ["'self'"]
        assert {k: v for k, v in relaxed.items() if k != "style-src"} == {
            k: v for k, v in POLICY.items() if k != "style-src"}
    for path in ["/", "/p/cup/standings/", "/accounts/login/", "/t/cup/"]:
        assert policy(path) == POLICY, path


@pytest.mark.django_db
def test_development_sends_none_unless_switched_on(settings: Any) -> None:
    assert settings.CONTENT_SECURITY_POLICY is None
    assert "Content-Security-Policy" not in Client().get("/accounts/login/")
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": POLICY}
    assert directives(Client().get("/accounts/login/")["Content-Security-Policy"]) == directives(STRICT)


# --- no template carries inline code -------------------------------------------------------------------------

TAG = re.compile(r"<([a-zA-Z][\w-]*)((?:[^>{]|\{[^}]*\})*)>", re.S)  # a tag, Django tags inside it kept whole
B = r"(?:^|[\s\"'}])"  # where an attribute starts: after a space, a quote or a Django tag ({% if %}style=)
INLINE_HANDLER = re.compile(B + r"on[a-z]+\s*=", re.I)
HX_ON = re.compile(B + r"(?:data-)?hx-on", re.I)
HX_EVAL = re.compile(B + r"(?:data-)?hx-(?:vals|headers)\s*=\s*[\"']\s*(?:js|javascript):", re.I)
HX_VARS = re.compile(B + r"(?:data-)?hx-vars\s*=", re.I)  # always evaluated
HX_FILTER = re.compile(B + r"(?:data-)?hx-trigger\s*=\s*(\"[^\"]*\"|'[^']*')", re.I)
JS_URL = re.compile(r"(?:href|src|action|formaction)\s*=\s*[\"']\s*javascript:", re.I)
STYLE_ATTR = re.compile(B + r"style\s*=", re.I)
SCRIPT_SRC = re.compile(B + r"src\s*=", re.I)
DATA_SCRIPT = re.compile(r"type\s*=\s*[\"']application/(?:ld\+)?json[\"']", re.I)  # data, never run
INLINE_STYLES_ALLOWED = ("paper/templates/",)  # csp.py: WeasyPrint renders these pages' own CSS


def templates() -> list[Path]:
    found = sorted((ROOT / "templates").rglob("*.html"))
    for app in sorted(ROOT.glob("*/templates")):
        found += sorted(app.rglob("*.html"))
    return found


def inline_code(text: str, *, styles_allowed: bool = False) -> list[str]:
    """What in a template's text the strict policy would block: one line per finding."""
    found = []
    for match in TAG.finditer(text):
        name, attributes = match.group(1).lower(), match.group(2)
        where = f"line {text.count(chr(10), 0, match.start()) + 1}: {match.group(0)[:80]}"
        if name == "script" and not SCRIPT_SRC.search(attributes) and not DATA_SCRIPT.search(attributes):
            found.append(f"inline <script> at {where}")
        if name == "style" and not styles_allowed:
            found.append(f"inline <style> at {where}")
        if INLINE_HANDLER.search(attributes):
            found.append(f"inline handler at {where}")
        if HX_ON.search(attributes):
            found.append(f"hx-on at {where}")
        if HX_EVAL.search(attributes) or HX_VARS.search(attributes):
            found.append(f"htmx evaluation at {where}")
        trigger = HX_FILTER.search(attributes)
        if trigger and "[" in trigger.group(1):
            found.append(f"htmx trigger filter (evaluated) at {where}")
        if JS_URL.search(attributes):
            found.append(f"javascript: URL at {where}")
        if STYLE_ATTR.search(attributes) and not styles_allowed:
            found.append(f"style attribute at {where}")
    return found


def test_the_check_finds_each_kind_of_inline_code() -> None:
    bad = [
        "<script>alert(1)</script>",
        "<script type='module'>x()</script>",
        '<select onchange="this.form.submit()">',
        "<form class='x' onsubmit='return false'>",
        '<body onload="go()">',
        '<button hx-on:click="alert(1)">',
        '<button hx-on::after-request="x()">',
        '<div data-hx-on-click="x()">',
        "<button hx-vals='js:{a: 1}'>",
        '<div hx-vars="a:1">',
        """<div hx-trigger="every 20s [document.visibilityState === 'visible']">""",
        '<a href="javascript:alert(1)">',
        '<div style="width: 5%">',
        '<div class="x" {% if a %}style="color: red"{% endif %}>',
        "<style>p { color: red }</style>",
    ]
    for text in bad:
        assert inline_code(text), text
    good = [
        '<script src="{% static \'js/site.js\' %}" defer></script>',
        '<script id="data" type="application/json">{"a": 1}</script>',
        '<select name="language" data-submit-on-change>',
        '<button hx-post="/x" hx-vals=\'{"seat": "{{ seat.number }}"}\' hx-target="#screen">',
        '<div hx-trigger="every 20s" data-poll-only-visible>',
        '<input name="online" value="1"><p>Click once= here</p>',
        '<div class="{% if x > 1 %}a{% endif %}" data-percent="{{ job.percent }}">',
    ]
    for text in good:
        assert not inline_code(text), text


def test_no_template_carries_inline_code() -> None:
    found = []
    paths = templates()
    assert len(paths) > 40  # the walk found the templates
    for path in paths:
        relative = path.relative_to(ROOT).as_posix()
        allowed = relative.startswith(INLINE_STYLES_ALLOWED)
        found += [f"{relative} {finding}" for finding in inline_code(path.read_text(), styles_allowed=allowed)]
    assert not found, "move it to static/js/ or static/css/ (base/csp.py):\n" + "\n".join(found)
