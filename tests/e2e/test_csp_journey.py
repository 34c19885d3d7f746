"""The key pages in Chromium under the production profile's Content-Security-Policy
(``base/csp.py``): the login and the language switcher, the public standings polling by htmx and the
seat finder, the organizer's seating job polled to its round, the judge's table screen (roles, a tap), a
printable sheet. Each page must still work (the htmx swap happened) and the browser must report no violation:
neither a console message about the policy nor a ``securitypolicyviolation`` event. One language: the policy
does not depend on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from base.csp import POLICY
from tests.e2e.helpers import login
from tests.helpers import ROLES, table
from tests.site.test_csp import directives

pytestmark = pytest.mark.django_db(transaction=True)

REPORT = """document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolation([e.violatedDirective, e.blockedURI, e.sourceFile + ":" + e.lineNumber, e.sample].join(" "));
});"""


@pytest.fixture
def lang() -> str:
    return "en"


@pytest.fixture(autouse=True)
def policy_on(settings: Any) -> None:
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": POLICY}


@pytest.fixture
def watched(open_page: Callable[..., Page]) -> Callable[..., Page]:
    """``open_page`` whose page records every violation the browser reports, in ``page.csp_violations``."""

    def open_(phone: bool = False) -> Page:
        page = open_page(phone=phone)
        violations: list[str] = []
        page.on("console", lambda message: violations.append(f"console: {message.text}")
                if reported(message) else None)
        page.expose_function("__cspViolation", lambda text: violations.append(f"event: {text}"))
        page.add_init_script(REPORT)
        page.csp_violations = violations  # type: ignore[attr-defined]
        return page

    return open_


def reported(message: Any) -> bool:
    """The policy's own messages, and any error logged (htmx logs htmx:evalDisallowedError for code it may not
    run); not the browser asking for a favicon the site does not have."""
    if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
        return True
    return bool(message.type == "error" and not str(message.location.get("url", "")).endswith("/favicon.ico"))


def visit(page: Page, path: str) -> None:
    response = page.goto(path)
    assert response is not None and response.ok, (path, response and response.status)
    expected = POLICY
    if "/print/" in path:
        expected = {**POLICY, "style-src": ["'self'", "'unsafe-inline'"]}
    assert directives(response.headers.get("content-security-policy", "")) == expected, path


def mark_old(page: Page, selector: str) -> None:
    """Marks what is on the page now, so that an htmx swap (new elements) can be told from no swap."""
    page.eval_on_selector(selector, "element => element.setAttribute('data-before-swap', '1')")


def no_violation(page: Page) -> None:
    page.wait_for_timeout(200)  # reports are delivered asynchronously
    assert page.csp_violations == [], page.csp_violations  # type: ignore[attr-defined]
    assert not page.js_errors, page.js_errors  # type: ignore[attr-defined]


def test_the_check_sees_a_violation(watched: Callable[..., Page]) -> None:
    """The control: an inline script put on a page is blocked, and reported both ways."""
    page = watched()
    visit(page, "/accounts/login/")
    page.evaluate("""() => { const s = document.createElement("script"); s.textContent = "window.ran = 1";
                             document.body.appendChild(s); }""")
    expect(page.locator("body")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.ran") is None  # blocked
    violations: list[str] = page.csp_violations  # type: ignore[attr-defined]
    kinds = {v.split(":")[0] for v in violations if "Content Security Policy" in v or v.startswith("event")}
    assert kinds == {"console", "event"}, violations


def test_spectator_login_and_language(watched: Callable[..., Page], round_: Any, people: dict[str, Any]) -> None:
    slug = round_.stage.tournament.slug
    page = watched(phone=True)
    page.clock.install()
    # the public standings poll their fragment every 20 s (htmx), only while the page is visible
    visit(page, f"/p/{slug}/standings/")
    expect(page.locator("#live[data-hx-trigger]")).to_have_count(1)
    mark_old(page, "#live > *")
    with page.expect_response(lambda r: f"/p/{slug}/standings/" in r.url and r.request.headers.get("hx-request")):
        page.clock.run_for(21_000)
    expect(page.locator("#live > *").first).to_be_attached()
    expect(page.locator("#live [data-before-swap]")).to_have_count(0)  # swapped in anew
    # the seat finder searches as one types (htmx, delayed)
    seat = table(round_, 1).seats.get(number=3).participant.player
    visit(page, f"/p/{slug}/where/")
    page.fill("#where-q", seat.surname[:4])
    page.clock.run_for(1_000)
    expect(page.locator("#places")).to_contain_text(seat.surname)
    # the phone's menu opens (Bootstrap's collapse), the language switcher submits on change (static/js/site.js)
    page.click(".navbar-toggler")
    page.select_option("select[name=language]", "ru")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    page.click(".navbar-toggler")
    page.select_option("select[name=language]", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    no_violation(page)
    visit(page, "/admin/login/")  # Django's admin: no inline code of its own either
    expect(page.locator("#login-form")).to_be_visible()
    no_violation(page)
    # a wrong password, then the right one
    visit(page, "/accounts/login/")
    page.fill("input[name=username]", people["organizer"].username)
    page.fill("input[name=password]", "wrong")
    page.click("main form[method=post] button[type=submit]")
    expect(page.locator("main .alert, main .invalid-feedback, main .errorlist").first).to_be_visible()
    login(page, people["organizer"].username)
    expect(page.locator("nav form[action$='/logout/']")).to_be_attached()  # in the phone's folded menu
    no_violation(page)


def test_organizer_seating_job_and_printable(watched: Callable[..., Page], round_: Any,
                                             people: dict[str, Any]) -> None:
    from tournaments.models import JobState, SeatingJob

    stage, slug = round_.stage, round_.stage.tournament.slug
    job = SeatingJob.objects.create(stage=stage, method="random", seed=1, state=JobState.RUNNING, progress=0.4,
                                    created_by=people["organizer"])
    page = watched()
    login(page, people["organizer"].username)
    visit(page, f"/t/{slug}/stages/{stage.ext_id}/seating/{job.pk}/")
    bar = page.locator("#seating-job .progress-bar")
    expect(bar).to_have_attribute("style", "width: 40%;")  # from data-percent, by static/js/site.js
    mark_old(page, "#seating-job")
    SeatingJob.objects.filter(pk=job.pk).update(progress=0.7)
    expect(page.locator("#job-percent")).to_have_text("70", timeout=5_000)  # polled every second, swapped
    expect(page.locator("#seating-job[data-before-swap]")).to_have_count(0)
    expect(bar).to_have_attribute("style", "width: 70%;")
    SeatingJob.objects.filter(pk=job.pk).update(state=JobState.DONE, progress=1.0, first_number=1)
    page.wait_for_url(f"**/t/{slug}/stages/{stage.ext_id}/rounds/1/", timeout=5_000)  # htmx's HX-Redirect
    expect(page.locator(".table-card")).to_have_count(2)
    no_violation(page)
    # a printable sheet: its own CSS inline (allowed there), the print button attached by site.js
    visit(page, f"/t/{slug}/print/{stage.ext_id}/1/seating/")
    expect(page.locator("button[data-print]")).to_be_visible()
    assert page.eval_on_selector(".screen-only", "e => getComputedStyle(e).backgroundColor") == "rgb(244, 244, 244)"
    no_violation(page)


def test_judge_table_screen(watched: Callable[..., Page], round_: Any, people: dict[str, Any]) -> None:
    slug = round_.stage.tournament.slug
    page = watched(phone=True)
    login(page, people["judge"].username)
    visit(page, f"/t/{slug}/tables/{table(round_, 1).pk}/live/")
    for n, role in enumerate(ROLES["fiim"], start=1):
        page.select_option(f"#screen select[name=s{n}_role]", role)
    page.click("#screen form button[type=submit]")  # posted by htmx, the screen swapped
    seat = page.locator("#seat-5")
    expect(seat).to_be_visible()
    assert seat.evaluate("e => getComputedStyle(e).minHeight") == "104px"  # 6.5rem, from site.css
    seat.click()  # a foul, posted by htmx
    expect(seat.locator(".fouls-badge")).to_contain_text("1")
    # Enter in the controls' value field must not post the form as a page
    page.check("#mode-foul")
    page.press("#controls select[name=reason]", "Enter")
    expect(page.locator("#seat-5")).to_be_visible()
    no_violation(page)
