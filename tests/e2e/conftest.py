"""Browser journeys: Playwright (sync API) driving Debian's Chromium against pytest-django's live server.

Chromium is installed by the project's setup (``make test``, ``.ci/run``): Debian's old headless shell
(``chromium-headless-shell``), or ``/usr/bin/chromium`` where it is missing; no browser is downloaded. Each
journey runs in one language (the browser's locale sets Accept-Language): English and Russian alternate between the
journeys (``journey_languages``), so both catalogues are driven in the browser at half the cost;
``E2E_LANGUAGES=both`` runs every journey in both. The every-word walk (tests/site/test_every_word.py) still reads
every page in both languages.
Screenshots of the key pages are written to ``tests/e2e/artifacts/`` (ignored by git; override with
``E2E_ARTIFACTS``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

# Chromium's old headless shell (Debian's chromium-headless-shell, which Playwright itself runs for headless tests):
# the same Blink and V8 without the whole browser's windowing, a fifth less CPU over the journeys (bench/README.md
# "The test suite"); the whole browser where the shell is missing.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM = os.environ.get("E2E_CHROMIUM", HEADLESS_SHELL if Path(HEADLESS_SHELL).exists() else "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(os.environ.get("E2E_ARTIFACTS", Path(__file__).parent / "artifacts"))
PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium a module. While it runs, Playwright's sync API keeps an event loop in this thread, so
    Django's async-safety check would refuse the fixtures' (synchronous) ORM calls: it is switched off for
    exactly that time, and restored for the tests that run after."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (make test does)")
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            yield browser
            browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


LANGUAGES = ("en", "ru")
HERE = Path(__file__).resolve().parent


@pytest.fixture(params=LANGUAGES)
def lang(request: pytest.FixtureRequest) -> str:
    """The journey's language: parametrized with both, one kept per journey by ``pytest_collection_modifyitems``
    (a module that fixes its language defines a ``lang`` fixture of its own)."""
    return str(request.param)


def journey_languages(items: list[pytest.Item]) -> dict[str, str]:
    """The language each journey keeps, by node id: the k-th journey of the i-th module of this folder (in name
    order) runs in ``LANGUAGES[(i + k) % 2]``, whichever tests were selected, so the same node runs in the same
    language in every run. A journey is a test and its parameters other than ``lang`` (the table's journey with
    the standings shown and hidden is two journeys)."""
    modules = sorted(path.name for path in HERE.glob("test_*.py"))
    journeys: dict[tuple[str, str], list[pytest.Item]] = {}
    for item in items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.path.parent != HERE or "lang" not in params:  # the hook sees the whole run's tests
            continue
        others = repr(sorted((k, repr(v)) for k, v in params.items() if k != "lang"))
        journeys.setdefault((item.path.name, f"{getattr(item, 'originalname', item.name)}{others}"), []).append(item)
    chosen: dict[str, str] = {}
    position: dict[str, int] = {}
    for (module, _), group in journeys.items():
        k = position[module] = position.get(module, -1) + 1
        language = LANGUAGES[(modules.index(module) + k) % len(LANGUAGES)]
        for item in group:
            chosen[item.nodeid] = language
    return chosen


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("E2E_LANGUAGES", "") == "both":
        return
    chosen = journey_languages(items)
    kept = [item for item in items if item.nodeid not in chosen
            or item.callspec.params["lang"] == chosen[item.nodeid]]  # type: ignore[attr-defined]
    if len(kept) != len(items):
        config.hook.pytest_deselected(items=[item for item in items if item not in kept])
        items[:] = kept


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def open_page(request: pytest.FixtureRequest, browser: Browser, live_server: Any,
              lang: str) -> Iterator[Callable[..., Page]]:
    """Opens a page in a fresh browser context (its own cookies): ``open_page(phone=True)``; in the journey's
    language, or ``language``'s (a journey with several people in both)."""
    contexts = []

    def open_(phone: bool = False, language: str | None = None) -> Page:
        chosen = language or lang
        context = browser.new_context(
            base_url=live_server.url, locale="ru-RU" if chosen == "ru" else "en-US",
            extra_http_headers={"Accept-Language": chosen},
            viewport=PHONE if phone else {"width": 1280, "height": 900},
            is_mobile=phone, has_touch=phone,
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.js_errors = errors  # type: ignore[attr-defined]
        return page

    yield open_
    report = getattr(request.node, "report_call", None)
    for i, context in enumerate(contexts):
        if report is not None and report.failed:  # what the browser showed when the journey broke
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            for k, page in enumerate(context.pages):
                name = re.sub(r"[^\w-]+", "_", request.node.name)
                page.screenshot(path=str(ARTIFACTS / f"FAILED-{name}-{i}-{k}.png"), full_page=True)
        context.close()


@pytest.fixture
def shot(request: pytest.FixtureRequest, lang: str) -> Callable[[Page, str], Path]:
    """Saves a full-page screenshot named after the test, the language and ``name``."""
    test = re.sub(r"[^\w-]+", "_", request.node.originalname)

    def take(page: Page, name: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{test}-{lang}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take

