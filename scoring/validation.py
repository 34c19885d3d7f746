"""The rules a tournament must keep beyond the schema (docs/rules/), every problem reported.

Each message names where it is (stage, round, table, seat) and what the ruleset expects, so
the same text serves the CLI, the import screen and the judge's protocol form.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from . import messages as M
from .errors import Location, Message, Problem, message
from .model import EXTRA_CHARACTERS, ROLE_SIDE, ZERO, AwardedWin, AwardRule, Game, Round, Side, Stage, Tournament
from .numbers import format_number
from .rulesets import Ruleset, get_ruleset


def ruleset_for(tournament: Tournament) -> tuple[Ruleset, list[Problem]]:
    """The tournament's ruleset with its parameter overrides applied, and any problems in them."""
    cls = get_ruleset(tournament.ruleset)
    raw = {name: json.loads(text) for name, text in tournament.params or ()}
    params, errors = cls.parse_params(raw)
    problems = [Problem(Location(field=f"params.{error.name}"), error.problem) for error in errors]
    return cls(params), problems


def validate(tournament: Tournament) -> list[Problem]:
    """Every rule the tournament breaks, in file order; empty when it is valid."""
    ruleset, problems = ruleset_for(tournament)
    problems += _player_problems(tournament)
    known = {player.id for player in tournament.players}
    byes_so_far: Counter[str] = Counter()
    stage_ids: set[str] = set()
    for stage in tournament.stages:
        where = Location(stage=stage.id)
        if stage.id in stage_ids:
            problems.append(Problem(where, message(M.SECOND_STAGE)))
        stage_ids.add(stage.id)
        problems += _unknown(where, "players", stage.players or (), known)
        problems += _unknown(where, "lots", stage.lots or (), known)
        problems += _duplicates(where, "players", stage.players or ())
        problems += _duplicates(where, "lots", stage.lots or ())
        round_numbers: set[int] = set()
        for round_ in stage.rounds:
            at_round = where.at(round=round_.number)
            if round_.number in round_numbers:
                problems.append(Problem(at_round, message(M.SECOND_ROUND)))
            round_numbers.add(round_.number)
            problems += _round_problems(ruleset, at_round, round_, known)
            problems += _bye_limit(ruleset, at_round, round_, byes_so_far)
            for game in round_.games:
                problems += game_problems(ruleset, game, at_round.at(table=game.table), known)
    return problems


def _player_problems(tournament: Tournament) -> list[Problem]:
    problems = _duplicates(Location(field="players"), "player ids", [p.id for p in tournament.players])
    team_ids = [team.id for team in tournament.teams or ()]
    problems += _duplicates(Location(field="teams"), "team ids", team_ids)
    for player in tournament.players:
        if player.team is not None and player.team not in team_ids:
            problems.append(Problem(Location(field=f"player {player.id}"), message(M.UNKNOWN_TEAM, team=player.team)))
    return problems


def _unknown(where: Location, what: str, ids: Iterable[str], known: set[str]) -> list[Problem]:
    return [Problem(where, message(M.UNKNOWN_IN_LIST, list=what, player=pid)) for pid in ids if pid not in known]


def _duplicates(where: Location, what: str, ids: Iterable[str]) -> list[Problem]:
    counts = Counter(ids)
    return [Problem(where, message(M.LISTED_TWICE, list=what, id=pid, count=n)) for pid, n in counts.items() if n > 1]


def _round_problems(ruleset: Ruleset, where: Location, round_: Round, known: set[str]) -> list[Problem]:
    problems: list[Problem] = []
    # Where each player is so far: (table, seat), or the message of a bye or an absence; a seat's message and
    # place are written only for a problem (most rounds have none, and a round has hundreds of seats).
    places: dict[str, tuple[int, int] | Message] = {}

    def described(spot: tuple[int, int] | Message) -> Message:
        return message(M.PLACE_SEAT, table=spot[0], seat=spot[1]) if isinstance(spot, tuple) else spot

    def place(player: str, spot: tuple[int, int] | Message, at: Location) -> None:
        if player not in known:
            problems.append(Problem(at, message(M.UNKNOWN_PLAYER, player=player)))
        if player in places:
            problems.append(Problem(at, message(M.TWICE_IN_ROUND, player=player, first=described(places[player]),
                                                second=described(spot))))
        else:
            places[player] = spot

    tables = Counter(game.table for game in round_.games)
    for table, count in tables.items():
        if count > 1:
            problems.append(Problem(where.at(table=table), message(M.TABLE_NUMBER_TWICE, count=count)))
    for game in round_.games:
        table = game.table
        for seat in game.seats:
            player = seat.player
            if player in known and player not in places:  # the usual seat: nothing to say
                places[player] = (table, seat.seat)
            else:
                place(player, (table, seat.seat), where.at(table=table, seat=seat.seat))
    for player in round_.byes:
        place(player, message(M.PLACE_BYE), where)
    for player in round_.absent:
        place(player, message(M.PLACE_ABSENT), where)
    for penalty in round_.penalties:
        if penalty.player not in known:
            problems.append(Problem(where, message(M.PENALTY_UNKNOWN_PLAYER, player=penalty.player)))
    return problems


def _bye_limit(ruleset: Ruleset, where: Location, round_: Round, byes_so_far: Counter[str]) -> list[Problem]:
    problems = []
    limit = ruleset.params.max_byes
    for player in round_.byes:
        byes_so_far[player] += 1
        if limit is not None and byes_so_far[player] > limit:
            problems.append(Problem(where, message(M.BYE_LIMIT, player=player, count=byes_so_far[player],
                                                   ruleset=ruleset.id, limit=limit)))
    return problems


def game_problems(ruleset: Ruleset, game: Game, where: Location, known: set[str] | None = None) -> list[Problem]:
    """Every rule one game breaks; also what the judge's protocol form checks before saving."""
    problems = [Problem(where, text) for text in _table_problems(ruleset, game)]
    numbers = {seat.seat for seat in game.seats}
    if game.winner is not None and game.winner not in {seat.effective_side for seat in game.seats}:
        problems.append(Problem(where, message(M.WINNER_NOT_AT_TABLE, side=game.winner.value)))
    if game.mafia_missed_three_nights and game.winner is not Side.RED:
        problems.append(Problem(where, message(M.MISSED_NIGHTS_WINNER)))
    problems += _first_kill_problems(game, where, numbers)
    for protest in game.protests:
        if protest.seat not in numbers:
            problems.append(Problem(where, message(M.PROTEST_SEAT, seat=protest.seat)))
    problems += _circle_problems(ruleset, game, where, numbers)
    problems += _extra_problems(ruleset, game, where)
    if game.awarded is not None:
        problems += _award_problems(ruleset, game, game.awarded, where, numbers)
    for seat in game.seats:
        # The seat's place is written only for a problem (the usual seat has none).
        if seat.side is not None:
            role_side = ROLE_SIDE.get(seat.role)
            if role_side is not None and seat.side is not role_side:
                problems.append(Problem(where.at(seat=seat.seat), message(
                    M.ROLE_SIDE, role=seat.role.value, side=role_side.value, given=seat.side.value)))
            if seat.role in EXTRA_CHARACTERS and seat.side is Side.MANIAC:
                problems.append(Problem(where.at(seat=seat.seat), message(M.EXTRA_CHARACTER_SIDE,
                                                                          role=seat.role.value)))
        if seat.subjective is not None and seat.subjective != 0:
            at = where.at(seat=seat.seat)
            lo, hi = ruleset.params.sp_min, ruleset.params.sp_max
            if lo == hi == 0:
                problems.append(Problem(at, message(M.NO_SUBJECTIVE, ruleset=ruleset.id)))
            elif not lo <= seat.subjective <= hi:
                problems.append(Problem(at, message(M.SUBJECTIVE_RANGE, value=format_number(seat.subjective),
                                                    min=format_number(lo), max=format_number(hi))))
        if seat.warnings and not ruleset.verbal_warnings:
            problems.append(Problem(where.at(seat=seat.seat), message(M.NO_WARNINGS, ruleset=ruleset.id)))
        extra = ruleset.extra_seat_problems(game, seat)
        if extra:
            at = where.at(seat=seat.seat)
            problems += [Problem(at, text) for text in extra]
    return problems


def _table_problems(ruleset: Ruleset, game: Game) -> list[Message]:
    size = ruleset.params.table_size
    problems = []
    seats = game.seats
    if len(seats) != size:
        problems.append(message(M.SEAT_COUNT, count=len(seats), ruleset=ruleset.id, size=size))
    numbers = [seat.seat for seat in seats]
    if len(set(numbers)) != len(numbers) or (numbers and max(numbers) > size):  # else nothing to count
        counts = Counter(numbers)
        for number, count in sorted(counts.items()):
            if count > 1:
                problems.append(message(M.SEAT_TWICE, seat=number, count=count))
            if number > size:
                problems.append(message(M.SEAT_OUTSIDE_TABLE, seat=number, size=size))
    if len({seat.player for seat in seats}) != len(seats):
        players = Counter(seat.player for seat in seats)
        for player, count in players.items():
            if count > 1:
                problems.append(message(M.PLAYER_AT_TABLE_TWICE, player=player, count=count))
    if game.has_result:
        # A game without a result may be a seating whose cards are not dealt yet [ours]: its
        # seats and players are checked, its roles only once it has a result.
        problems += ruleset.composition_problems(game.seats)
    return problems


def _first_kill_problems(game: Game, where: Location, numbers: set[int]) -> list[Problem]:
    problems = []
    if game.first_killed is not None and game.first_killed not in numbers:
        problems.append(Problem(where, message(M.FIRST_KILLED_NOT_AT_TABLE, seat=game.first_killed)))
    problems += [Problem(where, message(M.LOG_SEAT_NOT_AT_TABLE, seat=seat))
                 for event in game.log for seat in (event.seat, event.by) if seat is not None and seat not in numbers]
    if game.best_move:
        if game.first_killed is None:
            problems.append(Problem(where, message(M.BEST_MOVE_WITHOUT_KILL)))
        elif game.first_killed in game.best_move:
            problems.append(Problem(where.at(seat=game.first_killed), message(M.BEST_MOVE_OWN_SEAT)))
        for number in game.best_move:
            if number not in numbers:
                problems.append(Problem(where, message(M.BEST_MOVE_NOT_AT_TABLE, seat=number)))
    return problems


def _circle_problems(ruleset: Ruleset, game: Game, where: Location, numbers: set[int]) -> list[Problem]:
    problems = []
    most = ruleset.params.circle_max_marks
    for index, circle in enumerate(game.circles, start=1):
        if most == 0 and (circle.best or circle.worst):
            problems.append(Problem(where, message(M.NO_CIRCLE_MARKS, circle=index, ruleset=ruleset.id)))
            continue
        for seats, too_many, missing in ((circle.best, M.CIRCLE_TOO_MANY_BEST, M.CIRCLE_BEST_NOT_AT_TABLE),
                                         (circle.worst, M.CIRCLE_TOO_MANY_WORST, M.CIRCLE_WORST_NOT_AT_TABLE)):
            if len(seats) > most:
                problems.append(Problem(where, message(too_many, circle=index, count=len(seats),
                                                       ruleset=ruleset.id, most=most)))
            for number in seats:
                if number not in numbers:
                    problems.append(Problem(where, message(missing, circle=index, seat=number)))
        for number in sorted(set(circle.best) & set(circle.worst)):
            problems.append(Problem(where.at(seat=number), message(M.CIRCLE_BOTH, circle=index)))
    return problems


def _award_problems(ruleset: Ruleset, game: Game, awarded: AwardedWin, where: Location,
                    numbers: set[int]) -> list[Problem]:
    """A win awarded as the regulation says (``Ruleset.win_awards``): its reason, the seats it names, and the winner
    it gives (the side opposite the seats named)."""
    rule = ruleset.win_awards.get(awarded.reason)
    if rule is None:
        return [Problem(where, message(M.AWARD_REASON, reason=awarded.reason, ruleset=ruleset.id))]
    problems = [Problem(where, message(M.AWARD_SEAT_NOT_AT_TABLE, seat=n)) for n in awarded.seats if n not in numbers]
    if game.winner is None:
        problems.append(Problem(where, message(M.AWARD_NO_WINNER)))
    if rule is AwardRule.JUDGE:
        if awarded.seats:
            problems.append(Problem(where, message(M.AWARD_NO_SEATS)))
        return problems
    if not awarded.seats:
        problems.append(Problem(where, message(M.AWARD_SEATS_NEEDED)))
    if rule is AwardRule.AGAINST_REMOVED and len(awarded.seats) > 1:
        problems.append(Problem(where, message(M.AWARD_ONE_SEAT)))
    seats = [seat for seat in game.seats if seat.seat in awarded.seats]
    if rule is AwardRule.AGAINST_REMOVED:
        problems += [Problem(where.at(seat=seat.seat), message(M.AWARD_NOT_REMOVED))
                     for seat in seats if not ruleset.is_removed(seat)]
    sides = {seat.effective_side for seat in seats}
    if len(sides) > 1:
        problems.append(Problem(where, message(M.AWARD_SIDES)))
    elif sides and game.winner in sides:
        problems.append(Problem(where, message(M.AWARD_WINNER, side=game.winner.value if game.winner else "")))
    return problems


def _extra_problems(ruleset: Ruleset, game: Game, where: Location) -> list[Problem]:
    p = ruleset.params
    given = [seat for seat in game.seats if seat.extra is not ZERO and seat.extra != 0]
    if not given:
        return []
    if p.extra_max_players == 0:
        return [Problem(where.at(seat=seat.seat), message(M.NO_EXTRA_POINTS, ruleset=ruleset.id)) for seat in given]
    problems = []
    if len(given) > p.extra_max_players:
        problems.append(Problem(where, message(M.EXTRA_TOO_MANY_PLAYERS, count=len(given), ruleset=ruleset.id,
                                               most=p.extra_max_players)))
    total = sum((seat.extra for seat in given), start=given[0].extra * 0)
    if p.extra_total_max is not None and total > p.extra_total_max:
        problems.append(Problem(where, message(M.EXTRA_TOTAL, total=format_number(total), ruleset=ruleset.id,
                                               most=format_number(p.extra_total_max))))
    for seat in given:
        at = where.at(seat=seat.seat)
        if game.winner is None:
            if seat.extra not in p.extra_values_winner and seat.extra not in p.extra_values_loser:
                problems.append(Problem(at, message(M.EXTRA_NOT_ALLOWED, value=format_number(seat.extra),
                                                    ruleset=ruleset.id)))
        elif game.won(seat) and seat.extra not in p.extra_values_winner:
            problems.append(Problem(at, message(M.EXTRA_WINNER, allowed=p.extra_values_winner.describe(),
                                                ruleset=ruleset.id)))
        elif not game.won(seat) and seat.extra not in p.extra_values_loser:
            problems.append(Problem(at, message(M.EXTRA_LOSER, allowed=p.extra_values_loser.describe(),
                                                ruleset=ruleset.id)))
    return problems


def stage_problems(tournament: Tournament, stage: Stage) -> list[Problem]:
    """The problems of one stage only (for the web's per-round checks)."""
    return [problem for problem in validate(tournament) if problem.location.stage == stage.id]
