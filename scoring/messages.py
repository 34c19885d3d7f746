"""Every user-facing problem text of ``scoring``, as English templates with named fields.

The CLI prints them formatted; the web application translates the template (its catalogue lists
``ALL``; a test checks it is complete) and formats the same fields, translating the fields that
are themselves messages and the role and side ids.
"""

from __future__ import annotations

# The tournament file
SECOND_STAGE = "a second stage with this id"
SECOND_ROUND = "a second round with this number in the stage"
UNKNOWN_TEAM = "team {team} is not in the file's teams"
UNKNOWN_IN_LIST = "{list}: player {player} is not in the file's players"
LISTED_TWICE = "{list}: {id} is listed {count} times"
UNKNOWN_PLAYER = "player {player} is not in the file's players"
TWICE_IN_ROUND = "player {player} appears twice in the round ({first} and {second})"
PLACE_SEAT = "table {table} seat {seat}"
PLACE_BYE = "a bye"
PLACE_ABSENT = "absent"
TABLE_NUMBER_TWICE = "{count} games with this table number"
PENALTY_UNKNOWN_PLAYER = "penalty: player {player} is not in the file's players"
BYE_LIMIT = "player {player} gets bye number {count}; {ruleset} allows at most {limit} per tournament"

# What JSON lets through but no tournament file can hold (read before anything else)
FILE_TOO_LARGE = "the file is larger than {megabytes} MB, the most a tournament file may be"
TOO_DEEP = "not a tournament file: its JSON is nested too deeply"
IN_FIELD = "{field}: {problem}"
NOT_A_NUMBER = "{value} is not a number a tournament file can hold (JSON has no NaN or Infinity)"
NUMBER_OUT_OF_RANGE = "the number {value} is out of range"
NUMBER_TOO_LONG = "a number of {digits} digits; at most {most} are read"
TEXT_SURROGATE = "the text holds an unpaired surrogate {code}, which is not a character"
KEY_SURROGATE = "a key holds an unpaired surrogate {code}, which is not a character"
KEY_REPEATED = 'key "{key}" appears {count} times in the object'
BLANK_NAME = "a name of spaces only"

# A game
SEAT_COUNT = "{count} seats at the table; {ruleset} plays at tables of {size}"
SEAT_TWICE = "seat {seat} is given {count} times"
SEAT_OUTSIDE_TABLE = "seat {seat} does not exist at a table of {size}"
PLAYER_AT_TABLE_TWICE = "player {player} sits at the table {count} times"
ROLE_COUNT = "{count} {roles} at the table; {ruleset} expects {expected}"
ROLE_COUNT_WITH_EXTRA_CHARACTERS = (
    "{count} {roles} at the table; {ruleset} expects {expected} (civilians and extra characters together)")
EXTRA_CHARACTER_TWICE = "{count} {roles} at the table; {ruleset} allows at most 1"
WINNER_NOT_AT_TABLE = "winner {side}: nobody at the table plays that side"
MISSED_NIGHTS_WINNER = "the mafia missed three nights, so the city won: winner must be red"
PROTEST_SEAT = "protest: seat {seat} is not at the table"
ROLE_SIDE = "a {role} plays {side}, not {given}"
EXTRA_CHARACTER_SIDE = "a {role} plays red or black, not maniac"
NO_SUBJECTIVE = "{ruleset} has no subjective marks (subjective must be 0)"
SUBJECTIVE_RANGE = "subjective mark {value} is outside {min}..{max}"
DAYS_REQUIRED = "days_survived is required in a tomsk game with a result"
SUBJECTIVE_REQUIRED = "subjective (SP, from {min} to {max}) is required in a tomsk game with a result"
FIRST_KILLED_NOT_AT_TABLE = "first_killed: seat {seat} is not at the table"
LOG_SEAT_NOT_AT_TABLE = "log: seat {seat} is not at the table"
NO_WARNINGS = "{ruleset} has no verbal warnings apart from remarks (warnings must be 0)"
AWARD_REASON = "awarded: {reason} is not a reason {ruleset} awards a win for"
AWARD_NO_WINNER = "awarded: a game whose win is awarded needs its winner"
AWARD_SEAT_NOT_AT_TABLE = "awarded: seat {seat} is not at the table"
AWARD_SEATS_NEEDED = "awarded: name the seats that caused it"
AWARD_ONE_SEAT = "awarded: name the one removed player who spoke"
AWARD_NO_SEATS = "awarded: the judge's decision names no seat"
AWARD_NOT_REMOVED = "awarded: the player was not removed from the table"
AWARD_SIDES = "awarded: the seats named play different sides"
AWARD_WINNER = "awarded: the win goes to the other side, not to {side}"
BEST_MOVE_WITHOUT_KILL = "best_move is given but nobody was killed in the first night"
BEST_MOVE_OWN_SEAT = "best_move: the first-killed player cannot name their own seat"
BEST_MOVE_NOT_AT_TABLE = "best_move: seat {seat} is not at the table"
NO_CIRCLE_MARKS = "circle {circle}: {ruleset} has no per-circle marks"
CIRCLE_TOO_MANY_BEST = "circle {circle}: {count} players named best; {ruleset} allows at most {most}"
CIRCLE_TOO_MANY_WORST = "circle {circle}: {count} players named worst; {ruleset} allows at most {most}"
CIRCLE_BEST_NOT_AT_TABLE = "circle {circle}: best seat {seat} is not at the table"
CIRCLE_WORST_NOT_AT_TABLE = "circle {circle}: worst seat {seat} is not at the table"
CIRCLE_BOTH = "circle {circle}: named both best and worst"
NO_EXTRA_POINTS = "{ruleset} has no extra points (extra must be 0)"
EXTRA_TOO_MANY_PLAYERS = "{count} players got extra points; {ruleset} allows at most {most}"
EXTRA_TOTAL = "extra points total {total}; {ruleset} allows at most {most} in a game"
EXTRA_NOT_ALLOWED = "extra {value} is not allowed under {ruleset}"
EXTRA_WINNER = "a winning player can get {allowed} extra points under {ruleset}"
EXTRA_LOSER = "a losing player can get {allowed} extra points under {ruleset}"

# Ruleset parameters (``params``): each is shown after the parameter's name
PARAM_UNKNOWN = "unknown parameter"
PARAM_NOT_APPLICABLE = "does not apply to {ruleset}"
PARAM_TABLE_SIZE = "must be from 1 to 12"
PARAM_SP_ORDER = "must not be above sp_max"
PARAM_ABOVE_ZERO = "must be above 0"
PARAM_NOT_NEGATIVE = "must not be below 0"
PARAM_RANK_BY = 'expected "points" or "average", got {value}'
PARAM_NUMBER = "expected a number or a decimal string, got {value}"
PARAM_WHOLE = "expected a whole number of 0 or more, got {value}"
PARAM_SIDE = "unknown side {side}; sides are red, black, maniac"
PARAM_RANGE_KEYS = 'a range needs exactly "min", "max" and "step"'
PARAM_RANGE_STEP = "the step of a range must be above 0"
PARAM_RANGE_ORDER = "the min of a range must not be above its max"
PARAM_VALUES = "expected a list of numbers or a {{min, max, step}} range, got {value}"
PARAM_BY_COUNT = 'expected an object such as {{"2": 0.25, "3": 0.5}}, got {value}'
PARAM_BLACKS_NAMED = "the number of blacks named must be 0 to 3, got {key}"
PARAM_CHAIN = 'expected a list of metric ids such as ["wins", "best"], got {value}'
PARAM_LOTS_LAST = '"lots" can only come last: lots always break what the chain leaves'
PARAM_METRIC = "unknown metric {metric}; metrics are {known}"
PARAM_METRIC_TWICE = "metric {metric} is listed twice"
PARAM_BY_ROLE = 'expected an object such as {{"don": {{"win": 0.5, "loss": -0.5}}}}, got {value}'
PARAM_ROLE = "unknown role {key}; roles are {known}"
PARAM_ROLE_POINTS = 'the points of {role} are an object with "win" and/or "loss", got {value}'

# Allowed values (fields of the extra-point messages)
VALUES_ONE = "{value}"
VALUES_LIST = "{values} or {last}"
VALUES_RANGE = "from {min} to {max} in steps of {step}"

ALL: tuple[str, ...] = tuple(value for name, value in sorted(globals().items())
                             if name.isupper() and isinstance(value, str))
