"""The tournament day: a round ends while the crowd watches (a phase of ``public_load.py``).

A generated ``fiim`` tournament is loaded with its last round seated and published but not played
(no protocol opened yet); the generated results of that round are kept aside as the truth. Each
table has a judge of its own with an API token, and there is a chief judge. Then, at once:

- judges (one thread per table) end their games at random moments over ``--day-window`` seconds:
  each opens the protocol (``GET``), enters it (``PUT``; a ``--drafts`` share of them first saves
  it twice as the game goes, roles and then fouls, ``--think`` seconds apart, as on a phone) and
  submits it; the chief judge confirms each submitted protocol as it comes (``GET``, ``POST
  …/confirm/``);
- spectators (``--clients`` threads; with no pause between requests, or as ``--phones`` phones
  refreshing every ``--poll`` seconds) refresh what a crowd of phones does: the standings
  fragment that htmx polls and the standings page, the round's seating and players' pages, each
  sent with the ETag of its last answer (``If-None-Match``) as a browser would.

The phase ends when the chief has confirmed every table. Then it checks that every protocol is
confirmed, that the round's games read back from the database equal the truth, and that the
standings API answers exactly what ``scoring`` computes from the truth file; it fails otherwise.
Judges' and spectators' figures are printed apart; a conflict (409) counts as an error, as there
should be none (each table has one judge).
"""

from __future__ import annotations

import argparse
import dataclasses
import http.client
import json
import queue
import random
import threading
import time
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

from harness import HEADERS, PHONE, TABLE_HEADER, Client, Recorder, load_average, table_row

SLUG = "bench-day"
SEED = 23


def add_arguments(parser: argparse.ArgumentParser) -> None:
    day = parser.add_argument_group("tournament day")
    day.add_argument("--day-window", type=float, default=30.0, help="seconds over which the round's games end")
    day.add_argument("--think", type=float, default=1.0, help="seconds between a judge's saves of one protocol")
    day.add_argument("--drafts", type=float, default=0.5, help="share of judges who save the protocol twice first")
    day.add_argument("--day-timeout", type=float, default=180.0, help="give up (and fail) after this many seconds")
    day.add_argument("--phones", type=int, default=0,
                     help="spectators' phones, each refreshing every --poll seconds (0: the clients never pause)")
    day.add_argument("--poll", type=float, default=20.0, help="seconds between a phone's refreshes (htmx polls)")
    day.add_argument("--cold", action="store_true",
                     help="start the day on servers nobody has read from (no page of the tournament kept yet)")
    day.add_argument("--json", type=Path, default=None, help="also write the day's figures to this file")


@dataclasses.dataclass(frozen=True)
class TableJob:
    pk: int  # the API's table id
    game: Any  # scoring.model.Game: the truth
    token: str  # its judge's API key


@dataclasses.dataclass(frozen=True)
class Day:
    truth: Any  # scoring.model.Tournament, the last round played
    stage: str
    round: int
    jobs: list[TableJob]
    chief: tuple[str, str]  # username, password
    spectator_urls: dict[str, list[str]]
    tournament_id: int


# --- before the server starts: the tournament, its judges and their tokens (in this process) -------


def prepare(args: argparse.Namespace) -> Day:
    from exchange.files import import_text
    from scoring import fileio
    from scoring.generate import generate

    started = time.perf_counter()
    truth = generate("fiim", players=args.players, rounds=args.rounds, seed=SEED)
    stage = truth.stages[0]
    last = stage.rounds[-1]
    data = fileio.dump(with_last_round_unplayed(truth))
    data["tournament"] = {"name": f"Tournament day ({args.players} players)", "standings_hidden": False}
    tournament = import_text(json.dumps(data), slug=SLUG)
    jobs, chief = seat_judges(tournament, stage.id, last)
    print(f"loaded {args.players} players x {args.rounds} rounds into {args.database} as {SLUG!r}, round "
          f"{last.number} seated and published, {len(jobs)} judges with tokens, in "
          f"{time.perf_counter() - started:.1f} s")
    return Day(truth, stage.id, last.number, jobs, chief, spectator_urls(truth, stage.id, last.number),
               tournament.pk)


def with_last_round_unplayed(truth: Any) -> Any:
    """The truth with its last round's games seated only: no result, the cards not dealt."""
    from scoring import model as m

    stage = truth.stages[0]
    last = stage.rounds[-1]
    seated = tuple(m.Game(table=g.table, winner=None, seats=tuple(m.Seat(s.seat, s.player, m.Role.CIVILIAN)
                                                                   for s in g.seats)) for g in last.games)
    rounds = (*stage.rounds[:-1], dataclasses.replace(last, games=seated))
    return dataclasses.replace(truth, stages=(dataclasses.replace(stage, rounds=rounds),))


def seat_judges(tournament: Any, stage_id: str, last: Any) -> tuple[list[TableJob], tuple[str, str]]:
    """One judge per table of the last round (with an API token), and the chief judge. The import
    stores every game of the file as a confirmed protocol; the last round's are removed, so the
    round is as the app leaves a published round before any judge opens a protocol."""
    import secrets

    from django.contrib.auth import get_user_model
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from games.models import Game
    from judges.services.staff import add_judge, assign
    from tournaments.models import Round

    user_model = get_user_model()
    round_row = Round.objects.select_related("stage").get(
        stage__tournament=tournament, stage__ext_id=stage_id, number=last.number)
    with transaction.atomic():
        Game.objects.filter(table__round=round_row).delete()
        password = secrets.token_urlsafe(12)
        chief = user_model.objects.create_user("chief-judge", password=password)
        add_judge(tournament, chief, chief=True)
        tables = dict(round_row.tables.values_list("number", "pk"))
        jobs = []
        for game in sorted(last.games, key=lambda g: g.table):
            user = user_model(username=f"judge-{game.table:03d}")
            user.set_unusable_password()  # judges sign in before the round; their tokens are made here
            user.save()
            assign(add_judge(tournament, user), round_row.stage, round_row, game.table)
            jobs.append(TableJob(tables[game.table], game, Token.objects.create(user=user).key))
    return jobs, ("chief-judge", password)


def spectator_urls(truth: Any, stage: str, round_number: int) -> dict[str, list[str]]:
    rng = random.Random(7)
    ids = [p.id for p in truth.players]
    standings = f"/p/{SLUG}/standings/{stage}/"
    return {
        "standings poll": [standings],  # with HX-Request: the fragment htmx polls every 20 s
        "standings page": [standings],
        "seating": [f"/p/{SLUG}/seating/{stage}/{round_number}/"],
        "player": [f"/p/{SLUG}/players/{pid}/" for pid in rng.sample(ids, min(200, len(ids)))],
    }


# --- the clients ----------------------------------------------------------------------------------

# nginx's $upstream_cache_status: answered from a copy (HIT, STALE, UPDATING, REVALIDATED) or after the app (MISS,
# EXPIRED, BYPASS)
CACHE_ORDER = ("HIT", "STALE", "UPDATING", "REVALIDATED", "EXPIRED", "MISS", "BYPASS")
KIND_ORDER = ("judge GET", "judge PUT", "judge submit", "chief GET", "chief confirm",
              "standings poll", "standings page", "seating", "player")


def number(value: Fraction) -> str:
    return str(Decimal(value.numerator) / Decimal(value.denominator))


def protocol_body(game: Any, version: int, step: str) -> dict[str, Any]:
    """The protocol as the judge has it at ``step``: "roles" (cards dealt), "fouls" (mid-game) or
    "final" (the whole truth: result, fouls, best move, extra points...)."""
    final = step == "final"
    seats = []
    for s in game.seats:
        seat: dict[str, Any] = {"seat": s.seat, "role": s.role.value}
        if step != "roles":
            seat.update(fouls=s.fouls, removed=s.removed)
        if final:
            seat.update(side=s.side.value if s.side else "", extra=number(s.extra), best=s.best,
                        days_survived=s.days_survived,
                        subjective=None if s.subjective is None else number(s.subjective))
        seats.append(seat)
    body: dict[str, Any] = {"version": version, "seats": seats}
    if final:
        body.update(winner=game.winner.value, first_killed=game.first_killed, best_move=list(game.best_move),
                    circles=[{"best": list(c.best), "worst": list(c.worst)} for c in game.circles],
                    mafia_missed_three_nights=game.mafia_missed_three_nights)
    return body


def judge(port: int, job: TableJob, start_at: float, drafts: bool, think: float, recorder: Recorder,
          submitted: queue.Queue[int]) -> None:
    time.sleep(max(0.0, start_at - time.perf_counter()))
    client = Client(port, recorder, job.token)
    url = f"/api/tournaments/{SLUG}/protocols/{job.pk}/"
    protocol = client.json("judge GET", "GET", url)
    if protocol is None:
        return
    if [s["player"] for s in protocol["seats"]] != [s.player for s in job.game.seats]:
        recorder.error("judge GET", f"table {job.game.table}: the seats are not the seating's")
        return
    version = protocol["version"]
    for step in (("roles", "fouls") if drafts else ()):
        saved = client.json("judge PUT", "PUT", url, protocol_body(job.game, version, step))
        if saved is None:
            return
        version = saved["version"]
        time.sleep(think)
    saved = client.json("judge PUT", "PUT", url, protocol_body(job.game, version, "final"))
    if saved is None:
        return
    done = client.json("judge submit", "POST", url + "submit/", {"version": saved["version"]})
    if done is not None:
        submitted.put(job.pk)


def chief(port: int, token: str, tables: int, recorder: Recorder, submitted: queue.Queue[int],
          deadline: float) -> int:
    """Confirms each submitted protocol as it comes; the number confirmed."""
    client = Client(port, recorder, token)
    confirmed = 0
    for _ in range(tables):
        try:
            pk = submitted.get(timeout=max(0.0, deadline - time.perf_counter()))
        except queue.Empty:
            break
        if time.perf_counter() > deadline:
            break
        url = f"/api/tournaments/{SLUG}/protocols/{pk}/"
        protocol = client.json("chief GET", "GET", url)
        if protocol is not None and client.json("chief confirm", "POST", url + "confirm/",
                                                {"version": protocol["version"]}) is not None:
            confirmed += 1
    return confirmed


class Freshness:
    """How far behind the newest result the spectators' answers are. A watcher reads the tournament's results
    version every 50 ms and notes when each one appeared; each answer's version is read from its ETag
    (``"t<id>-<version>.<moment>-…"``, ``public.conditional.etag_for``; a 304 keeps the one sent). An answer's age:
    0 when it shows the newest version at the moment it was asked for, else how long before that moment the first newer
    version appeared. The public pages are up to a few seconds behind by design while results pour in
    (one model build at a time, ``public.model_cache``; the proxy's copy): this says how many."""

    def __init__(self, tournament_id: int) -> None:
        self.tournament_id = tournament_id
        self.appeared: list[tuple[int, float]] = []  # (version, when first seen), in order
        self.ages: dict[str, list[float]] = {}
        self.lock = threading.Lock()

    def watch(self, stop: threading.Event) -> None:
        from django.db import connection

        from public.models import ResultsVersion

        try:
            while not stop.is_set():
                version = ResultsVersion.objects.filter(tournament_id=self.tournament_id).values_list(
                    "version", flat=True).first() or 0
                if not self.appeared or version > self.appeared[-1][0]:
                    self.appeared.append((version, time.perf_counter()))
                stop.wait(0.05)
        finally:
            connection.close()

    def answer(self, kind: str, etag: str | None, asked_at: float) -> None:
        if not etag:
            return
        try:
            version = int(etag.strip('W/"').split("-")[1].split(".")[0])
        except (IndexError, ValueError):
            return
        with self.lock:
            newer = next((when for v, when in self.appeared if v > version), None)
            self.ages.setdefault(kind, []).append(0.0 if newer is None or newer >= asked_at else asked_at - newer)

    def figures(self) -> dict[str, dict[str, float]]:
        with self.lock:
            every = {**self.ages, "all": [age for ages in self.ages.values() for age in ages]}
        out = {}
        for kind, ages in every.items():
            ordered = sorted(ages)
            if ordered:
                out[kind] = {"answers": len(ordered), "current": sum(a == 0 for a in ordered) / len(ordered),
                             "p50": ordered[len(ordered) // 2], "p95": ordered[int(len(ordered) * 0.95)],
                             "max": ordered[-1]}
        return out


def spectator(port: int, index: int, urls: dict[str, list[str]], recorder: Recorder, stop: threading.Event,
              interval: float, freshness: Freshness | None = None, by_cache: Recorder | None = None) -> None:
    """A crowd of phones in one connection: each answer's ETag is sent back on the next request of
    that page, as a browser revalidates; the htmx poll also sends ``HX-Request``. A request every
    ``interval`` seconds (0: each as soon as the last is answered). ``by_cache``: each answer's time again, by
    the proxy's cache status (``X-Cache``), to tell which answers waited for the app."""
    rng = random.Random(index)
    client = Client(port, recorder)
    etags: dict[tuple[str, str], str] = {}
    kinds = ["standings poll"] * 5 + ["standings page"] + ["seating"] * 2 + ["player"] * 2
    due = time.perf_counter() + rng.uniform(0, interval)
    while not stop.is_set():
        if interval:
            stop.wait(max(0.0, due - time.perf_counter()))
            due += interval
        kind = rng.choice(kinds)
        url = rng.choice(urls[kind])
        headers = {**PHONE, **({"HX-Request": "true"} if kind == "standings poll" else {})}
        if (kind, url) in etags:
            headers["If-None-Match"] = etags[(kind, url)]
        asked_at = time.perf_counter()
        status, _content, response = client.call(kind, "GET", url, headers=headers, ok=(200, 304))
        if by_cache is not None and status in (200, 304):
            by_cache.ok(response.getheader("X-Cache") or "(none)", time.perf_counter() - asked_at, status)
        if status == 200 and response.getheader("ETag"):
            etags[(kind, url)] = response.getheader("ETag")
        if freshness is not None and status in (200, 304):
            freshness.answer(kind, etags.get((kind, url)), asked_at)


# --- the run and its check ------------------------------------------------------------------------


def warm(port: int, urls: dict[str, list[str]], clients: int = 4) -> tuple[int, float]:
    """Every page the spectators will read, read once first, as the phones did during the rounds before: a
    tournament day's last round starts with its pages kept, not on servers nobody has read from (``--cold``).
    How many pages and how long it took."""
    pages = [(kind, url) for kind, some in urls.items() for url in some]
    recorder = Recorder(KIND_ORDER)
    started = time.perf_counter()

    def read(share: list[tuple[str, str]]) -> None:
        client = Client(port, recorder)
        for kind, url in share:
            client.call(kind, "GET", url, headers={**PHONE, **({"HX-Request": "true"} if kind == "standings poll"
                                                                else {})})

    readers = [threading.Thread(target=read, args=(pages[i::clients],)) for i in range(clients)]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join()
    if any(recorder.errors.values()):
        raise SystemExit(f"warming the pages failed: {dict(recorder.errors)}")
    return len(pages), time.perf_counter() - started


def run(day: Day, args: argparse.Namespace) -> bool:
    """Runs the phase, prints its figures and the check; whether everything held."""
    from public.models import ResultsVersion

    if not args.cold:
        pages, took = warm(args.port, day.spectator_urls)
        print(f"warmed: the {pages} pages the spectators read, each read once in {took:.1f} s before the day "
              f"(as during the rounds before; --cold skips it)")
    chief_token = token_of(args.staff_port, *day.chief)
    version_before = ResultsVersion.objects.get(tournament__slug=SLUG).version
    judges, spectators, by_cache = Recorder(KIND_ORDER), Recorder(KIND_ORDER), Recorder(CACHE_ORDER)
    submitted: queue.Queue[int] = queue.Queue()
    stop = threading.Event()
    rng = random.Random(SEED)
    started = time.perf_counter()
    deadline = started + args.day_timeout
    interval = args.clients * args.poll / args.phones if args.phones else 0.0
    freshness = Freshness(day.tournament_id)
    watching = [threading.Thread(target=spectator, daemon=True,
                                 args=(args.port, i, day.spectator_urls, spectators, stop, interval, freshness,
                                       by_cache))
                for i in range(args.clients)]
    watching.append(threading.Thread(target=freshness.watch, args=(stop,), daemon=True))
    playing = [threading.Thread(target=judge, daemon=True, args=(
        args.staff_port, job, started + rng.uniform(0, args.day_window), rng.random() < args.drafts, args.think,
        judges, submitted)) for job in day.jobs]
    for thread in watching + playing:
        thread.start()
    confirmed = chief(args.staff_port, chief_token, len(day.jobs), judges, submitted, deadline)
    elapsed = time.perf_counter() - started
    stop.set()
    for thread in watching:  # daemons: one stuck in a request past the deadline is left behind
        thread.join(timeout=max(0.0, deadline - time.perf_counter()))
    bumps = ResultsVersion.objects.get(tournament__slug=SLUG).version - version_before

    judge_figures, spectator_figures = judges.figures(elapsed), spectators.figures(elapsed)
    print(f"tournament day: {len(day.jobs)} tables end over {args.day_window:.0f} s ({args.drafts:.0%} of judges "
          f"save twice first, {args.think:.1f} s apart), the chief confirms; {crowd(args)}; "
          f"load average {load_average()}")
    print(f"round closed in {elapsed:.1f} s: {confirmed} of {len(day.jobs)} protocols confirmed, "
          f"{judges.conflicts} conflicts (409), the results version bumped {bumps} times")
    print(TABLE_HEADER)
    for kind, figures in [*judge_figures.items()]:
        print(table_row("judges" if kind == "all" else kind, figures))
    for kind, figures in spectator_figures.items():
        print(table_row("spectators" if kind == "all" else kind, figures))
    print(f"spectators' answers: {spectators.statuses.get(200, 0)} full (200), "
          f"{spectators.statuses.get(304, 0)} not modified (304)")
    cache_figures = by_cache.figures(elapsed)
    if set(cache_figures) - {"all", "(none)"}:  # behind the proxy: which answers waited for the app
        print("spectators by the proxy's cache status (X-Cache): " + "; ".join(
            f"{kind} {f['requests']} ({f['requests'] / cache_figures['all']['requests']:.0%}), p50 {f['p50']:.1f} ms, "
            f"p95 {f['p95']:.1f} ms" for kind, f in cache_figures.items() if kind != "all"))
    ages = freshness.figures()
    print("spectators' answers behind the newest result: " + "; ".join(
        f"{'all' if kind == 'all' else kind} {a['current']:.0%} current, p50 {a['p50']:.1f} s, p95 {a['p95']:.1f} s, "
        f"max {a['max']:.1f} s" for kind, a in sorted(ages.items(), key=lambda kv: kv[0] != "all")))
    problems = check(day, args.port) if confirmed == len(day.jobs) else [
        f"only {confirmed} of {len(day.jobs)} protocols were confirmed before the time-out"]
    errors = judge_figures["all"]["errors"] + spectator_figures["all"]["errors"]
    if problems:
        print("CHECK FAILED:\n  " + "\n  ".join(problems))
    else:
        print(f"check: all {len(day.jobs)} protocols confirmed; the round's games read back equal the truth; "
              f"the standings API equals scoring's standings of the truth file: matched")
    if args.json is not None:
        args.json.write_text(json.dumps({
            "setup": {"public_workers": args.workers, "staff_workers": args.staff_workers,
                      "public_nice": args.public_nice if args.staff_workers else 0, "warmed": not args.cold},
            "freshness": ages, "tables": len(day.jobs), "confirmed": confirmed, "seconds": elapsed,
            "conflicts": judges.conflicts,
            "bumps": bumps, "judges": judge_figures, "spectators": spectator_figures, "errors": errors,
            "statuses": dict(spectators.statuses), "by_cache": cache_figures, "checked": not problems,
            "problems": problems,
        }, indent=1))
    return not problems and errors == 0


def crowd(args: argparse.Namespace) -> str:
    if args.phones:
        return (f"spectators: {args.phones} phones refreshing every {args.poll:.0f} s "
                f"({args.phones / args.poll:.0f} requests/s offered by {args.clients} clients)")
    return f"{args.clients} spectator clients, each request as soon as the last is answered"


def token_of(port: int, username: str, password: str) -> str:
    """The chief judge signs in through the API, as a judge's app would."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    conn.request("POST", "/api/token/", body=json.dumps({"username": username, "password": password}),
                 headers={**HEADERS, "Content-Type": "application/json"})
    response = conn.getresponse()
    content = response.read()
    if response.status != 200:
        raise SystemExit(f"POST /api/token/ answered {response.status}: {content[:200]!r}")
    return str(json.loads(content)["token"])


CONVERGE_SECONDS = 10.0  # public answers follow results within the proxy's 2 s and a model build


def public_standings(port: int, stage: str, expected: dict[str, Any]) -> tuple[dict[str, Any], float]:
    """The standings API as a reader gets it, asked again until it equals ``expected`` (public answers may be a
    few seconds behind the last result: one request builds each version while the others serve the last one),
    for at most ``CONVERGE_SECONDS``; the answer and how long it took."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    while True:
        conn.request("GET", f"/api/tournaments/{SLUG}/standings/?stage={stage}", headers=HEADERS)
        response = conn.getresponse()
        body = response.read()
        answered: dict[str, Any] = json.loads(body) if response.status == 200 else {"status": response.status}
        waited = time.perf_counter() - started
        if answered == expected or waited > CONVERGE_SECONDS:
            return answered, waited
        time.sleep(0.25)


def check(day: Day, port: int) -> list[str]:
    """What differs from the truth: protocol states, the round's games, the standings API."""
    from exchange.reading import to_model
    from games.models import Game, GameState
    from scoring.standings import compute_standings, standings_json
    from tournaments.models import Tournament

    problems = []
    tournament = Tournament.objects.get(slug=SLUG)
    states = Game.objects.filter(table__round__stage__tournament=tournament, table__round__number=day.round,
                                 table__round__stage__ext_id=day.stage).values_list("table__number", "state")
    not_confirmed = sorted(n for n, state in states if state != GameState.CONFIRMED)
    if len(states) != len(day.jobs) or not_confirmed:
        problems.append(f"{len(states)} protocols, not confirmed: tables {not_confirmed}")
    truth_round = day.truth.stage(day.stage).rounds[-1]
    saved_round = next(r for r in to_model(tournament).stage(day.stage).rounds if r.number == day.round)
    saved = {g.table: g for g in saved_round.games}
    problems += [f"table {g.table}: saved {saved.get(g.table)} is not the truth {g}"
                 for g in truth_round.games if saved.get(g.table) != g]
    expected = json.loads(json.dumps(standings_json(compute_standings(day.truth, day.stage))))
    answered, waited = public_standings(port, day.stage, expected)
    print(f"the standings API showed the last result {waited:.1f} s after the last confirmation")
    if answered != expected:
        wrong = [row["player"] for row, want in zip(answered.get("standings", []), expected["standings"], strict=False)
                 if row != want]
        problems.append(f"the standings API differs from scoring's on the truth (first rows: {wrong[:5]})")
    return problems
