"""The rules of a rated tournament, in a real browser: the organizer creates a tournament from the
"FIIM-style rated tournament" preset, then changes a parameter of a tournament already played: the page asks
before re-scoring, and the public standings then show the points ``scoring`` gives the file with the new rule."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from scoring import fileio
from scoring.numbers import format_number
from scoring.standings import compute_standings
from tests.e2e.helpers import login
from tests.helpers import example_text

pytestmark = pytest.mark.django_db(transaction=True)


def test_rated_preset_and_a_rule_changed_after_play(open_page: Any, shot: Any, organizer: Any, lang: str) -> None:
    from exchange.files import import_text

    page: Page = open_page()
    login(page, organizer.username)

    # The preset, chosen from the list: the page fills in its parameters.
    page.goto("/new/")
    page.select_option("#id-ruleset-choice", "fiim_rated")
    page.wait_for_url("**preset=fiim_rated**")
    expect(page.locator("#preset-description")).to_be_visible()
    expect(page.locator("input[name=param-win_points]")).to_have_value("1")
    expect(page.locator("input[name=param-ci_rate]")).to_have_value("0,4" if lang == "ru" else "0.4")
    expect(page.locator("select[name=param-tiebreaks_0]")).to_have_value("extra_total")
    expect(page.locator("input[name=param-day_points]")).to_have_count(0)
    page.fill("input[name=name]", "Рейтинг e2e")
    page.fill("input[name=slug]", "rated-e2e")
    page.fill("input[name=starts]", "2025-03-15")
    shot(page, "1-preset")
    page.click("main form[method=post] button[type=submit]:has-text('Create'), main form[method=post] "
               "button[type=submit]:has-text('Создать')")
    page.wait_for_url("**/t/rated-e2e/")

    # A played tournament: a win is worth 1 instead of 2; the page asks before re-scoring 61 games.
    source = json.loads(example_text("fiim-example.json"))
    import_text(json.dumps(source), slug="played-e2e", organizers=[organizer])
    page.goto("/t/played-e2e/parameters/")
    page.fill("input[name=param-win_points]", "1")
    # A reason pasted over its 300 characters is not cut by the browser: the line under it says by how much, and
    # the server refuses it under the field, keeping the text and the change typed.
    reason = page.locator("input[name=reason]")
    limit_line = page.locator("#parameters-form .text-limit")
    reason.fill("р" * 250)
    expect(limit_line).to_be_visible()
    expect(limit_line).to_contain_text("50")
    reason.fill("рейтинговые правила " * 16)  # 320
    assert len(reason.input_value()) == 320
    expect(limit_line).to_have_class("form-text text-limit text-danger")
    expect(limit_line).to_contain_text("19")
    page.click("#parameters-form button[type=submit]")
    expect(page.locator("#reason-error")).to_contain_text("319")
    expect(page.locator("input[name=param-win_points]")).to_have_value("1")
    assert len(page.locator("input[name=reason]").input_value()) == 320  # kept as typed
    shot(page, "2-reason-too-long")
    page.fill("input[name=reason]", "рейтинговые правила")
    expect(limit_line).to_be_hidden()
    page.click("#parameters-form button[type=submit]")
    expect(page.locator("#confirm-rescoring")).to_be_visible()
    shot(page, "2-confirm")
    page.check("#id-confirm")
    page.click("#parameters-form button[type=submit]")
    expect(page.locator("#params-history")).to_contain_text("рейтинговые правила")
    expect(page.locator("#confirm-rescoring")).to_have_count(0)
    shot(page, "3-recorded")

    # The public standings: the leader's points are those scoring computes with the new rule.
    source["params"] = {"win_points": 1}
    leader = compute_standings(fileio.loads(json.dumps(source)), "qualifying").rows[0]
    page.goto("/p/played-e2e/standings/qualifying/")
    name = next(p.name for p in fileio.loads(json.dumps(source)).players if p.id == leader.player)
    points = format_number(leader.points).replace(".", "," if lang == "ru" else ".")
    first_row = page.locator("table tbody tr").first
    expect(first_row).to_contain_text(name)
    expect(first_row).to_contain_text(points)
    assert page.js_errors == []  # type: ignore[attr-defined]
