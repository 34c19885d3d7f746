"""``python -m scoring``: validate, standings, advance, explain, needs, seat, seating-report and convert
(docs/command-line.md).

Exit status: 0 success; 2 the input is wrong (one line per problem on stderr); 1 a bug.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TextIO

from .errors import InvalidTournament, ScoringError, UnknownStage
from .model import SeatingMethod, Tournament
from .numbers import format_number

if TYPE_CHECKING:
    from .standings import StandingRow, Standings

# Each command imports what it uses when it runs (bench/README.md, "The command line"): the seating engine only
# for ``seat`` and ``seating-report``, the standings for ``standings`` and ``advance``.

EXIT_OK, EXIT_BUG, EXIT_INPUT = 0, 1, 2


class SeatingRefused(ScoringError):
    """The seating engine refused the request (a ``seating.SeatingError``): the input is wrong, exit status 2."""


def read_tournament(path: str) -> Tournament:
    """Read and fully check the file (``-`` is standard input)."""
    from .fileio import loads, read_file

    try:
        text = read_file(path)  # at most MAX_FILE_BYTES: a larger file is refused by its size, a pipe past it
    except (OSError, UnicodeDecodeError) as error:
        raise InvalidTournament([]) from error
    return loads(text)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m scoring", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    validate = commands.add_parser("validate", help="check a tournament file; prints ok")
    validate.add_argument("file")
    validate.set_defaults(handler=run_validate)
    standings = commands.add_parser("standings", help="a stage's standings")
    standings.add_argument("file")
    standings.add_argument("--stage", default=None)
    standings.add_argument("--format", choices=("json", "text"), default="json")
    standings.set_defaults(handler=run_standings)
    advance = commands.add_parser("advance", help="who goes on to the next stage")
    advance.add_argument("file")
    advance.add_argument("--stage", required=True)
    advance.set_defaults(handler=run_advance)
    explain = commands.add_parser("explain", help="why a player stands where they stand")
    explain.add_argument("file")
    explain.add_argument("--stage", required=True)
    explain.add_argument("--player", required=True)
    explain.set_defaults(handler=run_explain)
    needs = commands.add_parser("needs", help="who has clinched, who is out, what the others need")
    needs.add_argument("file")
    needs.add_argument("--stage", required=True)
    needs.add_argument("--target", choices=("advance", "win"), default="advance")
    needs.add_argument("--rounds-left", type=_rounds_left, default=0)
    needs.set_defaults(handler=run_needs)
    seat = commands.add_parser("seat", help="plan the next round(s) of a stage")
    seat.add_argument("file")
    seat.add_argument("--stage", required=True)
    seat.add_argument("--method", required=True, choices=[m.value for m in SeatingMethod])
    seat.add_argument("--seed", type=int, default=0)
    seat.add_argument("--tables", type=int, default=None)
    seat.add_argument("--rounds", type=int, default=1)
    seat.set_defaults(handler=run_seat)
    report = commands.add_parser("seating-report", help="repeated meetings and seats so far")
    report.add_argument("file")
    report.add_argument("--stage", default=None)
    report.set_defaults(handler=run_seating_report)
    from .formats import PLATFORMS  # the platforms' names for --help: small pure modules

    names = sorted(PLATFORMS)
    convert = commands.add_parser(
        "convert", help="to or from a rating platform's document (docs/formats.md): " + ", ".join(names),
        description="--from FORMAT reads the platform's document FILE and writes our tournament file; --to FORMAT "
                    "reads our tournament file FILE and writes the platform's document. What the target cannot "
                    "hold is listed on standard error. Formats: " + ", ".join(names) + ".")
    convert.add_argument("file")
    direction = convert.add_mutually_exclusive_group(required=True)
    direction.add_argument("--from", dest="source", choices=names, metavar="FORMAT")
    direction.add_argument("--to", dest="target", choices=names, metavar="FORMAT")
    convert.add_argument("--out", default=None, help="write here instead of standard output")
    convert.add_argument("--ruleset", default=None, help="with --from: the regulation of the tournament read "
                                                         "(default: the platform's usual one)")
    convert.set_defaults(handler=None)
    return parser


def run(args: argparse.Namespace, stderr: TextIO | None = None) -> str:
    """The command's output; ``ScoringError`` when the input is wrong."""
    if args.command == "convert":
        return run_convert(args, stderr or sys.stderr)
    handler: Callable[[argparse.Namespace, Tournament], str] = args.handler
    return handler(args, read_tournament(args.file))


def run_validate(args: argparse.Namespace, tournament: Tournament) -> str:
    return "ok"


def run_standings(args: argparse.Namespace, tournament: Tournament) -> str:
    from .standings import compute_standings, standings_json

    standings = compute_standings(tournament, args.stage)
    if args.format == "text":
        return standings_text(standings)
    return json.dumps(standings_json(standings), ensure_ascii=False, indent=1)


def run_advance(args: argparse.Namespace, tournament: Tournament) -> str:
    from .standings import compute_standings

    standings = compute_standings(tournament, args.stage)
    return json.dumps({"stage": standings.stage, "advance": list(standings.advance)})


def run_explain(args: argparse.Namespace, tournament: Tournament) -> str:
    from .explain import explain

    return json.dumps(explain(tournament, args.stage, args.player), ensure_ascii=False, indent=1)


def run_needs(args: argparse.Namespace, tournament: Tournament) -> str:
    from .needs import needs

    return json.dumps(needs(tournament, args.stage, args.target, args.rounds_left), ensure_ascii=False, indent=1)


def _rounds_left(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a number of rounds: {text!r}")
    return value


def run_seat(args: argparse.Namespace, tournament: Tournament) -> str:
    from .round_planning import plan_rounds
    from .seating import SeatingError

    _check_stage(tournament, args.stage)
    progress = _progress_printer() if sys.stderr.isatty() else None
    try:
        block = plan_rounds(tournament, args.stage, SeatingMethod(args.method), seed=args.seed,
                            tables=args.tables, rounds=args.rounds, progress=progress)
    except SeatingError as error:
        raise SeatingRefused(str(error)) from error
    return json.dumps(block.to_json())


def run_seating_report(args: argparse.Namespace, tournament: Tournament) -> str:
    from .round_planning import seating_report
    from .seating import SeatingError

    _check_stage(tournament, args.stage)
    try:
        report = seating_report(tournament, args.stage)
    except SeatingError as error:
        raise SeatingRefused(str(error)) from error
    return json.dumps(report, indent=1)


def run_convert(args: argparse.Namespace, err: TextIO) -> str:
    """Our file from a platform's document (``--from``) or the platform's document from our file (``--to``);
    what the target cannot hold goes to ``err``, a line each. With ``--out`` the result is written there and
    nothing is printed."""
    from .fileio import loads, read_file
    from .filejson import dumps
    from .formats import FormatError, get_platform

    if args.source is not None:
        try:
            text = read_file(args.file)  # at most the tournament file's size limit
        except (OSError, UnicodeDecodeError) as error:
            raise FormatError([f"{args.file}: cannot read the file ({error})"]) from None
        imported = get_platform(args.source).read(text, ruleset=args.ruleset)
        output = dumps(imported.tournament)
        loads(output)  # what we write is a valid tournament file, or the problems are named (exit 2)
        notes = [f"dropped: {line}" for line in imported.dropped]
    else:
        exported = get_platform(args.target).export(read_tournament(args.file))
        output, notes = exported.document, [f"lost: {line}" for line in exported.lost]
    for line in notes:
        print(line, file=err)
    if args.out is None:
        return output
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write(output if output.endswith("\n") else output + "\n")
    return ""


def _check_stage(tournament: Tournament, stage: str | None) -> None:
    if stage is not None and stage not in {s.id for s in tournament.stages}:
        raise UnknownStage(stage)


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    out, err = stdout or sys.stdout, stderr or sys.stderr
    args = build_parser().parse_args(argv)
    try:
        output = run(args, err)
        if output or args.command != "convert":
            print(output, file=out)
    except InvalidTournament as error:
        if error.problems:
            for problem in error.problems:
                print(problem, file=err)
        else:
            cause = error.__cause__
            print(f"{args.file}: cannot read the file ({cause})", file=err)
        return EXIT_INPUT
    except ScoringError as error:
        print(error, file=err)
        return EXIT_INPUT
    return EXIT_OK


def _progress_printer() -> Callable[[float], None]:
    def show(fraction: float) -> None:
        print(f"\rseating: {fraction:4.0%}", end="", file=sys.stderr, flush=True)

    return show


def standings_text(standings: Standings) -> str:
    """A readable table: rank, player, points, games, wins, then the tie-break chain and eligibility
    (a disqualified player: no rank, ``disqualified: <reason>``)."""
    headers = ["#", "player", "name", "points", "games", "wins", *standings.chain, "eligible"]
    rows = []
    for row in standings.rows:
        tiebreaks = ["" if v is None else format_number(v) if not isinstance(v, int) else str(v)
                     for v in row.tiebreaks.values()]
        rows.append(["-" if row.rank is None else str(row.rank), row.player, row.name, format_number(row.points),
                     str(row.tally.games), str(row.tally.wins), *tiebreaks, _eligibility(row)])
    lines = [f"{standings.ruleset} · stage {standings.stage} ({standings.kind.value})", ""]
    lines += _table(headers, rows, right_aligned={0, 3, 4, 5, *range(6, 6 + len(standings.chain))})
    if standings.teams is not None:
        lines += ["", "teams:"]
        lines += _table(["#", "team", "name", "points"],
                        [[str(t.rank), t.team, t.name, format_number(t.points)] for t in standings.teams],
                        right_aligned={0, 3})
    if standings.team_cut is not None:
        lines += ["", f"teams advance ({standings.team_cut}): {', '.join(standings.team_advance) or '-'}"]
    if standings.champion_teams is not None:
        lines += ["", f"champion team: {', '.join(standings.champion_teams) or '-'}"]
    if standings.advance:
        lines += ["", f"advance ({len(standings.advance)}): {', '.join(standings.advance)}"]
    if standings.winners is not None:
        lines += ["", f"winners: {', '.join(standings.winners) or '-'}"]
    return "\n".join(lines)


def _eligibility(row: StandingRow) -> str:
    if row.disqualified is not None:
        return f"disqualified: {row.disqualified}" if row.disqualified else "disqualified"
    return "yes" if row.eligible else "no"


def _table(headers: list[str], rows: list[list[str]], right_aligned: set[int]) -> list[str]:
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) if i in right_aligned else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths, strict=True))).rstrip()

    return [line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)]
