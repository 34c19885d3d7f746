"""Polemica's codes and keys: roles, results, positions, stage types, what a game object holds, the
fixed values export writes (from the client's model/game/*.kt).
"""

from __future__ import annotations

import re

from ...model import Role, Side

SOURCE = ("github.com/Vyasma-Mafia/polemica-library @ 23aa7c1128fce6eb3e83ac555bb5f3e30501b991: "
          "src/main/kotlin/com/github/mafia/vyasma/polemica/library/model/game/*.kt, utils/GameUtils.kt")

# Role.kt: DON(0), MAFIA(1), PEACE(2), SHERIFF(3).
ROLE_OF_CODE: dict[int, Role] = {0: Role.DON, 1: Role.MAFIA, 2: Role.CIVILIAN, 3: Role.SHERIFF}
CODE_OF_ROLE: dict[Role, int] = {role: code for code, role in ROLE_OF_CODE.items()}
BLACK_CODES = frozenset({0, 1})  # RoleUtils.kt: don and mafia are black
DON_CHECK, SHERIFF_CHECK = 0, 3  # PolemicaCheck.role: whose check it is
# PolemicaGameResult.kt: RED_WIN(0), BLACK_WIN(1).
WINNER_OF_CODE: dict[int, Side] = {0: Side.RED, 1: Side.BLACK}
CODE_OF_WINNER: dict[Side, int] = {side: code for code, side in WINNER_OF_CODE.items()}
POSITIONS = range(1, 11)  # Position.kt: ONE(1) … TEN(10)

# Stage.kt's StageType values; a stage names a day, and these belong to the night that follows it (the night's
# shots and checks, and the move to the next day); "shooted" is the killed player's morning speech, by day.
STAGE_TYPES = frozenset({"dealing", "briefing", "comIntro", "speech", "voting", "voted", "shooting", "shooted",
                         "reSpeech", "lift", "checks", "toVoting", "toLift", "liftResult", "toDay", "toNight",
                         "donCheck", "comCheck", "guess", "comKill", "gameOver"})
NIGHT_STAGES = frozenset({"shooting", "checks", "donCheck", "comCheck", "toDay"})
ZERO_VOTING = frozenset({"respeech", "liftOnly", "none"})
ZERO_VOTING_WRITTEN = "liftOnly"  # on day 1 only a lift of the tied votes anyone out (GameUtils.getFinalVotes)

# PolemicaGame's and PolemicaPlayer's fields (both @JsonIgnoreProperties(ignoreUnknown = true)): those we read,
# those the DTO defines that our model does not hold.
GAME_READ = frozenset({"players", "checks", "shots", "votes", "bonuses", "result", "num", "table", "phase", "stage",
                       "zeroVoting", "referee"})
PLAYER_READ = frozenset({"position", "username", "role", "fouls", "guess", "player", "disqual", "techs"})
# Their presence marks a Polemica game (the DTO's non-null fields and the game's records).
GAME_MARKERS = frozenset({"master", "started", "scoringType", "version", "shots", "votes", "checks", "result",
                          "zeroVoting", "comKiller"})
# Classes without ignoreUnknown: Jackson refuses any other key in them.
VOTE_KEYS = frozenset({"day", "num", "voter", "candidate"})
SHOT_KEYS = frozenset({"night", "shooter", "victim"})
BONUS_KEYS = frozenset({"position", "text", "scores", "basic"})
GUESS_KEYS = frozenset({"civs", "mafs", "vice"})

# What export writes where our model has no value (the DTO's non-null fields), as the library's sample games do.
MASTER = 0
SCORING_TYPE = 1
VERSION = 4
NO_DATE = "1970-01-01"
UNDATED_TYPE, UNDATED_DAY = "dealing", 0  # a foul's or a removal's moment our model does not know
EXTRA_TEXT = "extra points"

USER_ID = re.compile(r"^polemica-([0-9]{1,18})$")
