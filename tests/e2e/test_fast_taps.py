"""A practised judge on a venue's Wi-Fi: hundreds of random taps (modes, seats, reasons, values, the
game log's vote chips and shots with their shooter, the day/night, the winner, undo) 50-100 ms apart, each request
slowed to 300-700 ms, for every regulation. The protocol and the game log saved are exactly those of the same taps
applied one at a time: no tap wrong, lost or doubled.

The four regulations' tables are tapped at the same time, each on a phone of its own (four judges of one venue):
each judge's taps keep their pace in their own page while the others' are on their way, so the test takes one
game's time instead of four.

The taps are made in the page (element clicks and field changes, each on what the screen shows at that moment),
at the judge's pace, while earlier taps are still on their way; the reference applies the taps the judge meant,
in order, through ``games.services.table.perform`` and the protocol's own checks, skipping the ones the rules
refuse, as the server does."""

from __future__ import annotations

import copy
import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from games.models import Game
from games.reasons import award_choices, foul_choices, removal_choices, warning_choices
from games.services import protocol as service
from games.services.facts import ProtocolFacts, facts_of, problems
from games.services.protocol import kept_circles
from games.services.table import Tap, perform
from games.views.table import modes
from scoring.rulesets import Ruleset
from tests.conftest import new_people, new_round
from tests.e2e.helpers import login
from tests.helpers import ROLES, table
from tournaments.rules import ruleset_for

pytestmark = pytest.mark.django_db(transaction=True)

# the regulations' own events (warnings, awarded wins) add modes a tap may land on: 320 taps record about as much
# of a game as 300 did before them (more than 100 saved taps under each regulation)
TAPS = 320
SLOW_WIFI = """
(() => {
  const realFetch = window.fetch.bind(window);
  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // each request takes 300-700 ms: half of it on the way there, half on the way back
  window.fetch = async (...args) => {
    const total = 300 + Math.random() * 400;
    await wait(total / 2);
    const response = await realFetch(...args);
    await wait(total / 2);
    return response;
  };
})();
"""
# Runs the steps in the page, each on the element the screen shows at that moment, then waits the step's pause.
DRIVE = """
async (steps) => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  for (const step of steps) {
    if (step.kind === "click") {
      document.getElementById(step.id).click();
    } else if (step.kind === "chip") {
      document.querySelector('#controls [data-value="' + step.value + '"]').click();
    } else if (step.kind === "count") {
      document.querySelector('#controls [data-set-count="' + step.value + '"]').click();
    } else {
      const field = document.querySelector('#controls [name="' + step.name + '"]');
      field.value = step.value;
      field.dispatchEvent(new Event(step.kind === "select" ? "change" : "input", { bubbles: true }));
    }
    await sleep(step.pause);
  }
}
"""
QUEUE_EMPTY = "() => JSON.parse(localStorage.getItem('mafia-table-queue:' + location.pathname) || '[]').length === 0"
FOLLOWS = {"voted": "killed", "killed": "voted", "nominated": "shot", "votes": "shot", "shot": "nominated",
           "don_check": "nominated", "sheriff_check": "nominated", "heal": "nominated"}  # table-controls.js
LOG_MODES = ["nominated", "votes", "shot"]
SP_TYPED = ["0", "1", "0,5", "1.5", "-1", "2,5", "", "3", "−0,5"]
SP_CHIPS = ["-1", "0.5", "1", "1.5", "-0.5", "2", "-3", "3", "0"]  # tomsk's one-tap marks
TAKES_BACK = {"unfoul": "foul", "unwarn": "warn"}  # table-controls.js: a take-back at once gives the reason back


def plan(ruleset: Ruleset, seats: int, seed: int) -> tuple[list[dict[str, Any]], list[Tap]]:
    """``TAPS`` steps of a judge tapping fast, and the taps they mean, in order. Each step is what a judge can touch
    on the screen: a mode, a seat, a reason or a value, the day/night, the winner, the log's undo."""
    rng = random.Random(seed)
    ruleset_id = ruleset.id
    shown = [value for value, _text in modes(ruleset)]
    fouls = [value for value, _text in foul_choices(ruleset_id)]
    removals = [value for value, _text in removal_choices(ruleset_id)]
    # the regulation's own events apart from the remarks, where it has them: a verbal warning's reason, an awarded
    # win's reason (a seat tapped against it) and the judge's decision (one tap a side)
    warnings = [value for value, _text in warning_choices(ruleset_id)]
    awards = [value for value, _text in award_choices(ruleset.win_awards)]
    judge_awards = [code for code in awards if ruleset.win_awards[code] == "judge"]
    # who a shot is by: the whole mafia (""), or one black player or maniac (the choices the screen always shows)
    shooters = [""] + [str(n) for n, role in enumerate(ROLES[ruleset_id], start=1) if role in ("mafia", "don")] \
        + [str(n) for n, role in enumerate(ROLES[ruleset_id], start=1) if role == "maniac"]
    # every reason starts "not chosen", and goes back to it once a seat tap has used it (table-controls.js); the
    # speech circle starts following the day ("")
    state = {"action": "foul", "reason": "", "removal": "", "value": "0", "count": "", "circle": "", "by": "",
             "warning": "", "award": ""}
    # the tap just made that used a reason (action, seat, field, reason): taken back at once, it gives it back
    given: list[tuple[str, int, str, str] | None] = [None]
    reason_of = {"foul": "reason", "warn": "warning", "award": "award"}  # table.REASON_FIELDS
    steps: list[dict[str, Any]] = []
    meant: list[Tap] = []
    # the last seat tap (mode, seat) and the pauses since: table-screen.js takes a second tap of it within 350 ms
    # for a double tap, so the plan taps another seat rather than leave the count to the page's timing
    last: dict[str, Any] = {"key": None, "since": 0}

    def step(**fields: Any) -> None:
        steps.append({**fields, "pause": rng.randint(50, 100)})
        last["since"] += steps[-1]["pause"]

    while len(steps) < TAPS:
        roll = rng.random()
        if roll < 0.45:
            seat = rng.randint(1, seats)
            action = state["action"]
            if last["key"] == (action, seat) and last["since"] < 700:
                seat = seat % seats + 1
            last["key"], last["since"] = (action, seat), 0
            step(kind="click", id=f"seat-{seat}")
            field = reason_of.get(action, "removal")
            reason = state[field]
            value = {"votes": state["count"], "shot": state["by"]}.get(action, state["value"])
            meant.append(Tap(action, seat, reason, value, int(state["circle"] or 0)))
            before, given[0] = given[0], None
            if action in ("foul", "warn", "award", "remove"):
                given[0] = (action, seat, field, state[field]) if state[field] else None
                state[field] = ""
            if before and TAKES_BACK.get(action) == before[0] and before[1] == seat and not state[before[2]]:
                state[before[2]] = before[3]
        elif roll < 0.70:
            # half of the mode changes to the game log's (so that its votes and shots decide departures)
            state["action"] = rng.choice(LOG_MODES if rng.random() < 0.5 else shown)
            step(kind="click", id=f"mode-{state['action']}")
        elif roll < 0.80:
            mode = state["action"]
            if mode == "foul":
                state["reason"] = rng.choice(fouls)
                step(kind="select", name="reason", value=state["reason"])
            elif mode == "remove":
                state["removal"] = rng.choice(removals)
                step(kind="select", name="removal", value=state["removal"])
            elif mode == "warn":
                state["warning"] = rng.choice(warnings)
                step(kind="select", name="warning", value=state["warning"])
            elif mode == "award" and judge_awards and rng.random() < 0.3:
                code, side = rng.choice(judge_awards), rng.choice(["red", "black"])
                step(kind="click", id=f"award-{code}-{side}")
                given[0] = None
                meant.append(Tap("award", None, code, side))
            elif mode == "award":
                state["award"] = rng.choice(awards)
                step(kind="select", name="award", value=state["award"])
            elif mode == "subjective" and rng.random() < 0.5:
                state["value"] = rng.choice(SP_CHIPS)
                step(kind="chip", value=state["value"])
            elif mode == "subjective":
                state["value"] = rng.choice(SP_TYPED)
                step(kind="fill", name="value", value=state["value"])
            elif mode in ("votes", "nominated") and rng.random() < 0.6:
                # a vote count chip: the count, and the «Votes» mode chosen with it
                state["count"], state["action"] = str(rng.randint(0, seats)), "votes"
                step(kind="count", value=state["count"])
            elif mode == "votes":
                state["count"] = str(rng.randint(0, seats))
                step(kind="fill", name="count", value=state["count"])
            elif mode == "shot":
                state["by"] = "" if rng.random() < 0.4 else rng.choice(shooters)
                step(kind="click", id=f"by-{state['by'] or 'mafia'}")
            elif mode.startswith("circle_"):
                state["circle"] = rng.choice(["", "1", "2"])  # the options every screen shows
                step(kind="select", name="circle", value=state["circle"])
        elif roll < 0.90:
            last["key"] = None  # a button that is no seat: the next seat tap is never a double tap
            direction = "next" if rng.random() < 0.7 else "back"
            step(kind="click", id=f"phase-{direction}")
            meant.append(Tap("phase", value=direction))
            given[0] = None
            # the screen goes on with the departure, or the log's entry, the new phase has (voted out by day, killed
            # by night; nominations by day, the shot by night), and the circle follows the day again
            state["action"] = FOLLOWS.get(state["action"], state["action"])
            state["circle"] = ""
        elif roll < 0.95:
            step(kind="click", id="log-undo")
            meant.append(Tap("log_undo"))
            given[0] = None
        else:
            side = rng.choice(["red", "black"])
            step(kind="click", id=f"winner-{side}")
            meant.append(Tap("winner", value=side))
            given[0] = None
    return steps, meant


def one_at_a_time(facts: ProtocolFacts, taps: list[Tap], ruleset: Ruleset) -> tuple[ProtocolFacts, int, int]:
    """The taps applied in order as the server applies a tap alone: refused ones change nothing. Returns the facts,
    how many taps were saved, and how many of them made a departure the game log derived (a shot's kill, a vote)."""
    applied = derived = 0
    for tap in taps:
        trial = copy.deepcopy(facts)
        try:
            perform(trial, tap, ruleset)
        except service.ProtocolError:
            continue
        if not problems(trial, ruleset, need_result=False):
            derived += tap.action in ("shot", "votes", "heal", "log_undo") and any(
                e.get("derived") and e not in facts.log for e in trial.log)
            facts, applied = trial, applied + 1
    return facts, applied, derived


def saved(facts: ProtocolFacts) -> dict[str, Any]:
    """What a protocol holds, as the judge's screen writes it."""
    return {
        "seats": [(s.number, s.role, s.foul_reasons, s.removal_reason, s.left, s.left_number if s.left else None,
                   s.extra, s.best, s.subjective, s.warning_reasons) for s in facts.seats],
        "awarded": facts.awarded,
        "winner": facts.winner, "best_move": facts.best_move, "circles": kept_circles(facts.circles),
        "missed": facts.mafia_missed_three_nights, "phase": facts.phase, "log": facts.log,
        "first_killed": facts.derived_first_killed(),
    }


# each regulation's phone in the language its test had when they were four tests (the journeys alternate)
LANGUAGES = {"tomsk": "en", "kostroma": "ru", "fiim": "en", "zvezdy": "ru"}
# Starts the drive and returns at once, so that the other phones start theirs meanwhile: ``tapsDone`` becomes true
# when the last step's pause is over, or the error's text if a step failed.
START_DRIVE = f"""
(steps) => {{
  window.tapsDone = false;
  const started = performance.now();
  ({DRIVE})(steps).then(() => {{ window.tapsDone = true; window.tapsTook = performance.now() - started; }},
    (error) => {{ window.tapsDone = String(error); }});
}}
"""


def judge_ready(ruleset_id: str, organizer: Any, open_page: Any) -> dict[str, Any]:
    """A table of this regulation with its roles dealt, its judge's phone on the table's screen over slow Wi-Fi,
    the taps planned."""
    round_ = new_round(organizer, ruleset_id, tables=1)
    people = new_people(round_, prefix=ruleset_id)
    pk = table(round_, 1).pk
    game = service.open_protocol(table(round_, 1), people["judge"])

    def line_up(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES[ruleset_id], strict=True):
            seat.role = role

    game = service.change(game, people["judge"], game.version, line_up)
    ruleset = ruleset_for(round_.stage.tournament)
    before = facts_of(game, list(game.seats.select_related("seat")), removal_at=ruleset.foul_removal_at)
    steps, meant = plan(ruleset, len(before.seats), seed=sum(map(ord, ruleset_id)))
    page = open_page(phone=True, language=LANGUAGES[ruleset_id])
    login(page, people["judge"].username)
    expect(page).to_have_url(re.compile(rf"/tables/{pk}/live/$"))
    page.add_init_script(SLOW_WIFI)
    page.reload()
    expect(page.locator("#seat-1")).to_be_visible()
    return {"ruleset": ruleset, "game": game, "version": game.version, "before": before, "steps": steps,
            "meant": meant, "page": page}


def test_fast_taps_over_slow_wifi_are_recorded_as_meant(open_page: Any, shot: Any, organizer: Any) -> None:
    judges = {ruleset_id: judge_ready(ruleset_id, organizer, open_page) for ruleset_id in LANGUAGES}
    for judge in judges.values():
        judge["page"].evaluate(START_DRIVE, judge["steps"])
    for ruleset_id, judge in judges.items():
        page, ruleset, steps = judge["page"], judge["ruleset"], judge["steps"]
        page.wait_for_function("() => window.tapsDone !== false", timeout=120_000)
        assert page.evaluate("() => window.tapsDone") is True, ruleset_id
        page.wait_for_function(QUEUE_EMPTY, timeout=120_000)
        shot(page, f"{ruleset_id}-{LANGUAGES[ruleset_id]}-after-{len(steps)}-taps")
        print(ruleset_id, "taps took", round(page.evaluate("() => window.tapsTook")), "ms; their pauses",
              sum(step["pause"] for step in steps), "ms")

        game = Game.objects.get(pk=judge["game"].pk)
        after = facts_of(game, list(game.seats.select_related("seat")), removal_at=ruleset.foul_removal_at)
        expected, applied, derived = one_at_a_time(judge["before"], judge["meant"], ruleset)
        assert saved(after) == saved(expected), ruleset_id
        assert game.version == judge["version"] + applied, ruleset_id  # each tap saved once: none doubled, none lost
        assert applied > 100, ruleset_id  # the run recorded a game, not a screen of refusals
        assert derived >= 2, ruleset_id  # and the game log's shots and votes decided departures on the way
        assert page.js_errors == [], ruleset_id  # type: ignore[attr-defined]


ANSWER_LATE = """
(() => {
  const realFetch = window.fetch.bind(window);
  window.fetch = async (...args) => {
    const response = await realFetch(...args);
    await new Promise((resolve) => setTimeout(resolve, 600));
    return response;
  };
})();
"""


def test_a_tap_held_while_an_answer_arrives_is_not_lost(open_page: Any, organizer: Any) -> None:
    """A finger on a seat when the answer to the tap before comes back: the screen is not replaced under it (the
    press and the release would land on two elements and make no click), so the tap counts when it is lifted."""
    round_ = new_round(organizer, "tomsk", tables=1)
    people = new_people(round_)
    game = service.open_protocol(table(round_, 1), people["judge"])

    def line_up(facts: ProtocolFacts) -> None:
        for seat, role in zip(facts.seats, ROLES["tomsk"], strict=True):
            seat.role = role

    service.change(game, people["judge"], game.version, line_up)
    page = open_page(phone=True)
    login(page, people["judge"].username)
    page.add_init_script(ANSWER_LATE)
    page.reload()
    expect(page.locator("#seat-1")).to_be_visible()
    page.click("#seat-3")  # a foul (the first mode), its answer 600 ms late
    box = page.locator("#seat-5").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(1000)  # the answer to seat 3's foul has come back meanwhile
    page.mouse.up()
    page.wait_for_function(QUEUE_EMPTY, timeout=20_000)
    expect(page.locator("#seat-5 .fouls-badge")).to_be_visible()
    fouls = {row.seat.number: row.fouls for row in Game.objects.get(pk=game.pk).seats.select_related("seat")}
    assert fouls[3] == 1 and fouls[5] == 1
