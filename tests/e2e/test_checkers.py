"""Clean under others' checkers: every HTML page of the page matrix, read in Russian in Chromium, has no
violation of WCAG 2.1 A/AA by axe-core at 390×844 (a phone) and 1366×768 (a laptop), and no error by the Nu HTML
validator (the W3C's ``vnu.jar``).

Both checkers are pinned in ``package.json``/``package-lock.json`` and installed by ``make test`` into
``node_modules/`` (``npm ci``); axe is read from there and injected into each page, never fetched; the validator
runs once per world over all its pages' HTML (one JVM), with Debian's headless Java.

The worlds: the pages are the same templates under every regulation, so two worlds rather than four, chosen to
show the most of them: ``tomsk`` published with a round in play (teams and their table, guests, a judge's draft,
the desk with tables waiting) and ``kostroma`` after its last round with its standings hidden (applications, the
hidden standings' pages, a finished protocol), the second with each URL pattern filled once (the same templates:
every table, round and player the walk fills is read in tomsk's). Each is the every-word walk's world
(tests/site/test_every_word.py: a generated file of two stages with a disqualification, fouls and a removal with
reasons, protests, a seating job, a check-in, a series): its URL patterns filled the same way, each page read as the
organizer (the registry's pages as a superuser) with the ``django_language`` cookie set to ``ru``. htmx fragments,
JSON, CSV, XLSX and PDF answers are not pages and are left out (the PDFs render the print pages, checked here).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from playwright.sync_api import Browser, CDPSession

from tests.site.page_matrix_world import source_data, with_round_in_play
from tests.site.test_every_word import POST_ONLY, REGISTRY_PAGES, enrich, routes, urls_of

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
VNU = ROOT / "node_modules" / "vnu-jar" / "build" / "dist" / "vnu.jar"
VIEWPORTS = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1366, "height": 768}}
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# ruleset: (moment, every URL a pattern fills or only the first): kostroma's pages are the same templates as
# tomsk's, so it adds each page once, in its own state (hidden, finished), for half the time.
WORLDS = {"tomsk": ("live", True), "kostroma": ("done", False)}


@pytest.fixture
def lang() -> str:
    return "ru"


def checkers_installed() -> None:
    missing = [str(path.relative_to(ROOT)) for path in (AXE, VNU) if not path.exists()]
    if missing:
        pytest.skip(f"{', '.join(missing)} missing: `make test` installs the checkers (npm ci, package-lock.json)")
    if shutil.which("java") is None:
        pytest.skip("no java: scripts/system-packages.sh (run by make) installs Debian's default-jre-headless")


def make_world(ruleset: str, moment: str, organizer: Any) -> dict[str, Any]:
    from exchange.files import import_text

    data = source_data("generated", ruleset)
    live = moment == "live"
    content = with_round_in_play(data)[0] if live else data
    content = {**content, "tournament": {**content["tournament"], "standings_hidden": not live,
                                         "name": f"Кубок проверки {ruleset}"}}
    tournament = import_text(json.dumps(content), slug=f"axe-{ruleset}", organizers=[organizer])
    return enrich(tournament, organizer)


def html_pages(values: dict[str, Any], owner: Client, admin: Client, every: bool) -> list[tuple[str, str]]:
    """(url, who) of every URL of the world (``every``; else the first of each pattern) that answers the organizer
    (or the superuser) a whole HTML page."""
    found: list[tuple[str, str]] = []
    for name, route in routes().items():
        if name in POST_ONLY:
            continue
        who = "admin" if name in REGISTRY_PAGES or name == "rating_rules:rules" else "owner"
        client = admin if who == "admin" else owner
        for url in urls_of(name, route, values)[:None if every else 1]:
            response = client.get(url)
            if response.status_code == 200 and "text/html" in response.get("Content-Type", "") \
                    and not response.streaming and b"<html" in response.content[:400].lower():
                found.append((url, who))
    return found


def signed_in(client: Client) -> list[dict[str, Any]]:
    return [{"name": key, "value": morsel.value, "path": "/", "domain": "localhost"}
            for key, morsel in client.cookies.items()]


def emulate(session: CDPSession, size: str) -> None:
    """The device a new Playwright context of this viewport emulates (its size, the mobile flag that honours the
    page's ``<meta name="viewport">``, touch), set on a loaded page through the DevTools protocol as Playwright
    sets it: the page is laid out again, its media queries and ``resize`` listeners run, no second load."""
    viewport, phone = VIEWPORTS[size], size == "phone"
    session.send("Emulation.setDeviceMetricsOverride", {
        "width": viewport["width"], "height": viewport["height"], "deviceScaleFactor": 1, "mobile": phone,
        "screenWidth": viewport["width"], "screenHeight": viewport["height"]})
    session.send("Emulation.setTouchEmulationEnabled", {"enabled": phone, "maxTouchPoints": 1} if phone
                 else {"enabled": False})


def axe_findings(browser: Browser, base: str, pages: list[tuple[str, str]], cookies: dict[str, list[dict[str, Any]]],
                 sources: dict[str, str]) -> list[dict[str, Any]]:
    """axe's violations on every page at each viewport; each page's HTML source as served into ``sources``.
    Each page is loaded once, as the laptop (what a laptop's context reports: no touch, a pointer that hovers), and
    checked; then shown as the phone (its size, mobile, touch: what a phone's context reports, media queries
    included) and checked again. Loading it a second time for the phone cost as much as both checks."""
    found: list[dict[str, Any]] = []
    host = base.split("//", 1)[1].split(":")[0]
    tabs = {}
    for who, jar in cookies.items():
        context = browser.new_context(base_url=base, locale="ru-RU", viewport=VIEWPORTS["laptop"],  # type: ignore[arg-type]
                                      extra_http_headers={"Accept-Language": "ru"})
        context.set_default_timeout(15_000)
        context.add_cookies([{**c, "domain": host} for c in jar]  # type: ignore[arg-type]
                            + [{"name": "django_language", "value": "ru", "domain": host, "path": "/"}])
        context.add_init_script(path=AXE)  # axe in every page before it loads: parsed once a page, never sent again
        page = context.new_page()
        tabs[who] = (page, context.new_cdp_session(page))
    for url, who in pages:
        page, session = tabs[who]
        emulate(session, "laptop")
        response = page.goto(url, wait_until="load")
        assert response is not None and response.status == 200, (url, response and response.status)
        sources[url] = response.text()
        for size in ("laptop", "phone"):
            emulate(session, size)
            result = page.evaluate("""tags => axe.run(document, {runOnly: {type: "tag", values: tags},
                resultTypes: ["violations"]}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact,
                help: v.help, nodes: v.nodes.map(n => ({target: n.target.join(" "), summary: n.failureSummary,
                html: n.html.slice(0, 200)}))})))""", TAGS)
            for violation in result:
                for node in violation["nodes"]:
                    found.append({"page": url, "size": size, "id": violation["id"], "impact": violation["impact"],
                                  "help": violation["help"], "target": node["target"], "html": node["html"],
                                  "summary": " ".join(node["summary"].split())[:240]})
    for page, _session in tabs.values():
        page.context.close()
    return found


def vnu_errors(sources: dict[str, str]) -> list[dict[str, Any]]:
    """The Nu validator's errors over every page's HTML: one JVM for them all."""
    with tempfile.TemporaryDirectory() as folder:
        names = {}
        for i, (url, text) in enumerate(sorted(sources.items())):
            path = Path(folder) / f"page{i:03d}.html"
            path.write_text(text, encoding="utf-8")
            names[path.resolve().as_uri()] = url
        run = subprocess.run(["java", "-jar", str(VNU), "--format", "json", "--stdout", *sorted(
            str(Path(folder) / f"page{i:03d}.html") for i in range(len(sources)))],
            capture_output=True, text=True, timeout=300, check=False)
        assert run.stdout.strip(), f"vnu.jar gave no answer: {run.stderr[-2000:]}"
        messages = json.loads(run.stdout)["messages"]
    by_path = {uri.removeprefix("file:").removeprefix("//"): url for uri, url in names.items()}
    errors = []
    for message in messages:
        if message.get("type") != "error" and message.get("subType") != "fatal":
            continue
        where = message.get("url", "").removeprefix("file:")
        errors.append({"page": by_path.get(where, where), "message": message["message"],
                       "line": message.get("lastLine"), "extract": message.get("extract", "")})
    return errors


@pytest.mark.parametrize("ruleset", sorted(WORLDS))
def test_pages_are_clean_under_axe_and_the_nu_validator(ruleset: str, browser: Browser, live_server: Any,
                                                        organizer: Any, settings: Any) -> None:
    from django.contrib.auth.models import User
    from django.core.cache import cache

    checkers_installed()
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": f"checkers-{ruleset}"}}
    cache.clear()
    started = time.monotonic()
    moment, every = WORLDS[ruleset]
    values = make_world(ruleset, moment, organizer)
    owner, admin = Client(), Client()
    owner.force_login(organizer)
    admin.force_login(User.objects.filter(is_superuser=True).first()
                      or User.objects.create_superuser("axe-admin", "axe@example.org", "pw-12345!"))
    for client in (owner, admin):
        client.cookies["django_language"] = "ru"
    pages = html_pages(values, owner, admin, every)
    assert len(pages) > 40, pages
    sources: dict[str, str] = {}
    violations = axe_findings(browser, live_server.url, pages, {"owner": signed_in(owner), "admin": signed_in(admin)},
                              sources)
    errors = vnu_errors(sources)
    took = time.monotonic() - started
    summary = (f"{ruleset}: {len(pages)} pages in {took:.0f} s; axe: {len(violations)} "
               f"{dict(Counter(v['id'] for v in violations))}; vnu: {len(errors)} "
               f"{dict(Counter(e['message'][:60] for e in errors))}")
    print(summary)
    report = [f"axe {v['id']} ({v['impact']}) {v['size']} {v['page']} {v['target']}: {v['help']} — {v['html']} — "
              f"{v['summary']}" for v in violations]
    report += [f"vnu {e['page']} line {e['line']}: {e['message']} — {e['extract']!r}" for e in errors]
    assert not report, summary + "\n" + "\n".join(report)
