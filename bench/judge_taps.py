"""Benchmark: the taps a judge spends on a whole game, per regulation, on the real table screen.

A tournament per regulation (one round published, two tables) is built in a fresh SQLite database; ``manage.py
runserver`` serves it; Chromium at a phone's size (390×844, Russian) logs in as the table's judge and records a
scripted game, as a practised judge would: the line-up, the days and nights with their departures, fouls, the
regulation's own marks (tomsk's SP, the best move of fiim and zvezdy, kostroma's extra points), optionally the game
log (nominations, the votes by their one-tap counts, the night's shots, checks and heals: the departures then
follow from the log and the winner is proposed, so the judge taps neither), the winner and the submission. Every
tap is counted by part: a tap on a button, a seat, a mode, a chip or an option is one; a typed value is one tap to
reach the field and one a character. Nothing waits for an answer but what a judge would wait for («Submit» is
offered once the protocol can be submitted; the seat the log sends out turns grey). The protocol saved is then
checked (submitted, the winner, the departures, with the log: each derived from it), and any tap the server refused
is reported: the counts hold only for a game recorded right.

Run from the repository root: ``python bench/judge_taps.py [--slow MS]`` (``--slow``: each request delayed by
MS, as a venue's Wi-Fi). Prints one table: parts × runs, and the goals beside the totals; then, last,
one JSON line, whose names are fixed for the checks that read it
(``{"tomsk": {"log": n, "no_log": n}, "fiim": {...}, ...}``).
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

GOALS = {("tomsk", True): 60, ("tomsk", False): 40, ("fiim", False): 35, ("kostroma", False): 35,
         ("zvezdy", False): 35}
RUNS = [("tomsk", False), ("tomsk", True), ("fiim", False), ("kostroma", False), ("zvezdy", False), ("fiim", True)]

# Each regulation's game: the line-up (tests.helpers.ROLES), who leaves when (red wins), fouls, the marks.
STORY: dict[str, dict[str, Any]] = {
    "fiim": {"departures": [(1, "killed", 5), (2, "voted", 2), (2, "killed", 6), (3, "voted", 3), (3, "killed", 7),
                            (4, "voted", 1)],
             "fouls": [8, 9, 9], "best_move": [2, 3, 7], "checks": {"don_check": 4, "sheriff_check": 2}},
    "zvezdy": {"departures": [(1, "killed", 5), (2, "voted", 2), (2, "killed", 6), (3, "voted", 3), (3, "killed", 7),
                              (4, "voted", 1)],
               "fouls": [8, 9, 9], "best_move": [2, 3, 7], "checks": {"don_check": 4, "sheriff_check": 2}},
    "kostroma": {"departures": [(1, "killed", 6), (2, "voted", 2), (2, "killed", 7), (3, "voted", 3), (3, "killed", 8),
                                (4, "voted", 1)],
                 "fouls": [9, 10, 10], "extras": {4: "0.5", 5: "0.5"},
                 "checks": {"don_check": 4, "sheriff_check": 2, "heal": 5}},
    "tomsk": {"departures": [(1, "killed", 7), (2, "voted", 1), (2, "killed", 8), (3, "voted", 2), (3, "killed", 9),
                             (4, "voted", 3), (4, "killed", 10), (5, "voted", 4)],
              "fouls": [11, 12, 12], "sp": {5: "1.5", 1: "-1", 7: "0.5"},
              "checks": {"sheriff_check": 1, "heal": 6}},
}


class Judge:
    """The judge's thumb: every tap through here, counted by part."""

    def __init__(self, page: Any, shots: Path | None = None, prefix: str = "") -> None:
        self.page, self.taps = page, Counter[str]()
        self.shots, self.prefix = shots, prefix

    def look(self, name: str) -> None:
        """What the phone shows now, saved with ``--shots`` (no tap)."""
        snapshot(self.page, self.shots, self.prefix, name)

    def tap(self, part: str, selector: str) -> None:
        self.page.click(selector)
        self.taps[part] += 1

    def type(self, part: str, selector: str, text: str) -> None:
        self.page.fill(selector, text)
        self.taps[part] += 1 + len(text)

    def mode(self, part: str, mode: str) -> None:
        if not self.page.locator(f"#mode-{mode}").is_checked():  # already chosen: no tap
            self.tap(part, f"label[for=mode-{mode}]")


def line_up(judge: Judge, ruleset: str) -> None:
    from tests.helpers import ROLES

    order = ["don", "mafia", "sheriff", "doctor", "maniac"]
    seats = sorted(((n, r) for n, r in enumerate(ROLES[ruleset], start=1) if r != "civilian"),
                   key=lambda seat: (order.index(seat[1]), seat[0]))
    for seat, _role in seats:
        judge.tap("line-up", f"[data-lineup-seat='{seat}'].seat-number")
    judge.tap("line-up", "#roles-form button[type=submit]")
    judge.page.wait_for_selector("#seat-1")


def game(judge: Judge, ruleset: str, log: bool) -> None:
    if log:
        logged_game(judge, ruleset)
    else:
        departures(judge, ruleset)
    marks(judge, ruleset)


def departures(judge: Judge, ruleset: str) -> None:
    """Without the log: each departure tapped in its phase (the mode follows the phase: voted out by day, killed by
    night)."""
    story = STORY[ruleset]
    day, night = 1, False
    for when, how, seat in story["departures"]:
        while (day, night) != (when, how == "killed"):
            judge.tap("days and nights", "#phase-next")
            day, night = (day + 1, False) if night else (day, True)
        judge.mode("days and nights", how)
        judge.tap("days and nights", f"#seat-{seat}")
        first_night(judge, ruleset, when, how)


def first_night(judge: Judge, ruleset: str, when: int, how: str) -> None:
    if ruleset in ("fiim", "zvezdy") and (when, how) == (1, "killed"):
        judge.mode("best move", "best_move")
        for named in STORY[ruleset]["best_move"]:
            judge.tap("best move", f"#seat-{named}")


def logged_game(judge: Judge, ruleset: str) -> None:
    """With the log: each day two nominated and the votes for the first (the last nominee gets the rest; a tie the
    first day), each night the mafia's shot (the maniac's once no mafioso is left) and, the first night, the checks
    and the heal. Who leaves follows from the votes and the shots: no departure is tapped. The mode follows the
    phase (nominations by day, the shot by night)."""
    from tests.helpers import ROLES

    story = STORY[ruleset]
    size = len(ROLES[ruleset])
    gone: set[int] = set()
    voted = {when: seat for when, how, seat in story["departures"] if how == "voted"}
    killed = {when: seat for when, how, seat in story["departures"] if how == "killed"}
    last = max(when for when, _how, _seat in story["departures"])
    judge.mode("game log", "nominated")  # once: from then on each phase tap brings the log's mode of its phase
    for day in range(1, last + 1):
        alive = [n for n in range(1, size + 1) if n not in gone]
        out = voted.get(day)
        others = [n for n in reversed(alive) if n != out]
        nominees = [out, others[0]] if out else others[:2]
        for n in nominees:
            judge.tap("game log", f"#seat-{n}")
        # the first nominee's votes: a majority sends them out, half of the table ties
        count = len(alive) // 2 + 1 if out else len(alive) // 2
        judge.tap("game log", f"#controls [data-set-count='{count}']")  # the count and the «Votes» mode at once
        judge.tap("game log", f"#seat-{nominees[0]}")
        if out:
            gone.add(out)
            judge.page.wait_for_selector(f"#seat-{out}.btn-secondary")  # the vote-out the log derived
        judge.look(f"1-day-{day}-voted")
        if day == last:
            break
        judge.tap("days and nights", "#phase-next")  # night: the shot mode
        victim = killed[day]
        judge.tap("game log", f"#seat-{victim}")  # the whole mafia's shot (once no mafioso is left, the maniac's)
        gone.add(victim)
        judge.page.wait_for_selector(f"#seat-{victim}.btn-secondary")  # the kill the shots derived
        judge.look(f"1-night-{day}-shot")
        first_night(judge, ruleset, day, "killed")
        if day == 1:
            for mode, seat in story["checks"].items():
                judge.mode("game log", mode)
                judge.tap("game log", f"#seat-{seat}")
            judge.page.wait_for_function("() => !document.querySelector('#screen [data-pending]')")
            judge.look("1-night-1-checked")
        judge.tap("days and nights", "#phase-next")  # day: the nominations mode


def marks(judge: Judge, ruleset: str) -> None:
    story = STORY[ruleset]
    judge.mode("fouls", "foul")
    for k, seat in enumerate(story["fouls"]):
        if k and story["fouls"][k - 1] == seat:  # a second foul on one seat, as a judge gives it: no double tap
            judge.page.wait_for_timeout(400)  # (static/js/table-screen.js DOUBLE_TAP_MS is 350)
        judge.tap("fouls", f"#seat-{seat}")
    if "sp" in story:
        judge.mode("SP", "subjective")
        for seat, value in story["sp"].items():
            judge.tap("SP", f"#sp-chips [data-value='{value}']")
            judge.tap("SP", f"#seat-{seat}")
        judge.tap("SP", "#subjective-rest")
    if "extras" in story:
        judge.tap("extra points", "#extra-points summary")
        for seat, value in story["extras"].items():
            judge.page.select_option(f"#x{seat}", value)
            judge.taps["extra points"] += 2  # open the list, choose
        judge.tap("extra points", "#extras-form button[type=submit]")


def submit(judge: Judge, log: bool) -> None:
    if log:  # the departures decide the game: the winner is proposed, the judge confirms it
        judge.page.wait_for_selector("#winner-red[data-proposed]")
    judge.tap("winner and submission", "#winner-red")
    judge.tap("winner and submission", "#submit-ask")  # offered once the protocol can be submitted
    judge.tap("winner and submission", "#submit-yes")
    judge.page.wait_for_selector("#screen-state .text-bg-primary")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build(database: Path) -> dict[tuple[str, bool], tuple[str, str, int]]:
    """The tournaments; per run: (login, screen URL, table pk)."""
    # the checks read the database while Playwright's sync API keeps an event loop in this thread
    os.environ.update({"DATABASE_URL": f"sqlite:///{database}", "DJANGO_SETTINGS_MODULE": "mafia_tournament.settings",
                       "DJANGO_ALLOW_ASYNC_UNSAFE": "true"})
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from tests.conftest import new_people, new_round, new_user
    from tests.helpers import table

    organizer = new_user("director", can_create=True)
    runs: dict[tuple[str, bool], tuple[str, str, int]] = {}
    for ruleset in STORY:
        round_ = new_round(organizer, ruleset, tables=2)
        people = new_people(round_, prefix=f"{ruleset}-")
        slug = round_.stage.tournament.slug
        for log, who, number in ((False, "judge", 1), (True, "other", 2)):
            pk = table(round_, number).pk
            runs[(ruleset, log)] = (people[who].username, f"/t/{slug}/tables/{pk}/live/", pk)
    return runs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--slow", type=int, default=0, help="delay each request by this many ms")
    parser.add_argument("--shots", type=Path, help="save what the phone shows at each part's end in this folder")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="judge-taps-"))
    runs = build(folder / "db.sqlite3")
    port = free_port()
    server = subprocess.Popen([sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
                              cwd=ROOT, env=os.environ.copy(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        results = drive(f"http://127.0.0.1:{port}", runs, args.slow, args.shots)
    finally:
        server.terminate()
        server.wait(10)
    report(results, args.slow)


def drive(base: str, runs: dict[tuple[str, bool], tuple[str, str, int]], slow: int,
          shots: Path | None) -> dict[Any, Counter[str]]:
    from playwright.sync_api import sync_playwright

    from games.models import Game
    from tests.conftest import PASSWORD

    results: dict[Any, Counter[str]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("E2E_CHROMIUM", "/usr/bin/chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])
        for ruleset, log in RUNS:
            username, url, pk = runs[(ruleset, log)]
            context = browser.new_context(base_url=base, locale="ru-RU", viewport={"width": 390, "height": 844},
                                          is_mobile=True, has_touch=True, extra_http_headers={"Accept-Language": "ru"})
            context.set_default_timeout(20_000)
            page = context.new_page()
            if slow:
                def delayed(route: Any) -> None:
                    time.sleep(slow / 1000)
                    route.continue_()

                page.route("**/live/", delayed)
            page.goto("/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", PASSWORD)
            page.click("main form[method=post] button[type=submit]")
            page.wait_for_url(f"**{url}")
            prefix = f"{ruleset}{'-log' if log else ''}"
            judge = Judge(page, shots, prefix)
            snapshot(page, shots, prefix, "0-line-up")
            line_up(judge, ruleset)
            snapshot(page, shots, prefix, "1-lined-up")
            game(judge, ruleset, log)
            snapshot(page, shots, prefix, "2-game-recorded")
            submit(judge, log)
            snapshot(page, shots, prefix, "3-submitted")
            if shots is not None and log:  # the log as the judge reads it back, newest first
                page.locator("#game-log").screenshot(path=str(shots / f"{prefix}-4-game-log.png"))
            refused = page.locator("#offline-queue [data-refused] li").all_inner_texts()
            saved = Game.objects.get(table_id=pk)
            left = sorted(row.seat.number for row in saved.seats.select_related("seat") if row.left)
            expected = sorted(seat for _w, _h, seat in STORY[ruleset]["departures"])
            derived = sum(1 for e in saved.log if e.get("derived")) if log else len(expected)
            if refused or saved.state != "submitted" or saved.winner != "red" or left != expected \
                    or derived != len(expected):
                raise SystemExit(f"{ruleset} (log: {log}): the game was not recorded right: refused {refused}, "
                                 f"state {saved.state}, winner {saved.winner}, left {left} (expected {expected}), "
                                 f"departures the log derived {derived}")
            results[(ruleset, log)] = judge.taps
            context.close()
        browser.close()
    return results


def snapshot(page: Any, shots: Path | None, prefix: str, name: str) -> None:
    """What the phone shows now (its screen, not the whole page), when ``--shots`` asks for it."""
    if shots is not None:
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{prefix}-{name}.png"))


def report(results: dict[Any, Counter[str]], slow: int) -> None:
    parts = ["line-up", "days and nights", "fouls", "best move", "SP", "extra points", "game log",
             "winner and submission"]
    heads = [f"{ruleset}{' +log' if log else ''}" for ruleset, log in results]
    print(f"Taps a whole game takes on the judge's screen (Chromium 390×844, ru; requests delayed {slow} ms)")
    print(f"{'part':<24}" + "".join(f"{h:>14}" for h in heads))
    for part in parts:
        print(f"{part:<24}" + "".join(f"{results[key][part]:>14}" for key in results))
    print(f"{'total':<24}" + "".join(f"{sum(results[key].values()):>14}" for key in results))
    print(f"{'goal':<24}" + "".join(f"{GOALS.get(key, '–'):>14}" for key in results))
    # last, one JSON line (its names fixed for the checks that read it): each regulation's taps, table to submission
    figures: dict[str, dict[str, int]] = {}
    for (ruleset, log), taps in results.items():
        figures.setdefault(ruleset, {})["log" if log else "no_log"] = sum(taps.values())
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
