"""Read-only representations; ids are the tournament file's ids (stages, players)."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.models import Round, Stage, Tournament


class TournamentSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    class Meta:
        model = Tournament
        fields = ["slug", "name", "ruleset", "city", "venue", "starts", "ends", "standings_hidden"]


class StageSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    id = serializers.CharField(source="ext_id")
    name = serializers.SerializerMethodField()

    class Meta:
        model = Stage
        fields = ["id", "name", "kind", "order", "planned_rounds", "closed"]

    def get_name(self, stage: Stage) -> str:
        return str(stage)


class RoundSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    stage = serializers.CharField(source="stage.ext_id")

    class Meta:
        model = Round
        fields = ["stage", "number", "seating", "published_at"]


class SeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    player = serializers.CharField()
    number = serializers.IntegerField(allow_null=True)
    name = serializers.CharField()


class TableSerializer(serializers.Serializer):  # type: ignore[type-arg]
    table = serializers.IntegerField()
    seats = SeatSerializer(many=True)


class SeatingSerializer(serializers.Serializer):  # type: ignore[type-arg]
    stage = serializers.CharField()
    round = serializers.IntegerField()
    tables = TableSerializer(many=True)
    byes = serializers.ListField(child=serializers.CharField())


class GameSeatSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField()
    player = serializers.CharField()
    role = serializers.CharField()
    side = serializers.CharField(allow_null=True)
    fouls = serializers.IntegerField()
    removed = serializers.BooleanField()
    best = serializers.BooleanField(allow_null=True, help_text="null while the standings are hidden")


class GameSerializer(serializers.Serializer):  # type: ignore[type-arg]
    stage = serializers.CharField()
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    winner = serializers.CharField(allow_null=True)
    first_killed = serializers.IntegerField(allow_null=True)
    best_move = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                      help_text="null while the standings are hidden")
    seats = GameSeatSerializer(many=True)
    protests = serializers.ListField(child=serializers.DictField())


def standings_schema() -> Any:
    """The OpenAPI description of the standings JSON (docs/command-line.md)."""
    from drf_spectacular.utils import inline_serializer

    row = inline_serializer("StandingRow", {
        "rank": serializers.IntegerField(allow_null=True, help_text="null for a disqualified player"),
        "player": serializers.CharField(), "name": serializers.CharField(),
        "points": serializers.FloatField(), "games": serializers.IntegerField(), "wins": serializers.IntegerField(),
        "average": serializers.FloatField(required=False, help_text='only under rank_by "average": points per game'),
        "eligible": serializers.BooleanField(),
        "tiebreaks": serializers.DictField(child=serializers.FloatField(allow_null=True),
                                           help_text="the chain's values by metric id, in chain order; null: none"),
        "short_of_games": serializers.BooleanField(required=False, help_text="only on the row of a player with "
                                                   "fewer games than min_games, ranked after the others"),
        "disqualified": serializers.BooleanField(required=False, help_text="only on a disqualified player's row"),
        "reason": serializers.CharField(required=False, help_text="why the player was disqualified"),
    })
    team = inline_serializer("TeamRow", {
        "rank": serializers.IntegerField(), "team": serializers.CharField(), "name": serializers.CharField(),
        "points": serializers.FloatField(),
    })
    return inline_serializer("Standings", {
        "ruleset": serializers.CharField(), "stage": serializers.CharField(), "standings": row.__class__(many=True),
        "teams": team.__class__(many=True, required=False),
        "winners": serializers.ListField(child=serializers.CharField(), required=False),
        # The team competition (tomsk): how many teams the stage sends on, which, and the champion team(s).
        "team_cut": serializers.IntegerField(required=False),
        "team_advance": serializers.ListField(child=serializers.CharField(), required=False),
        "champion_teams": serializers.ListField(child=serializers.CharField(), required=False),
    })


def awards_schema() -> Any:
    """The OpenAPI description of the awards JSON (docs/rules/awards.md)."""
    from drf_spectacular.utils import inline_serializer

    award = inline_serializer("Award", {
        "kind": serializers.CharField(allow_null=True), "title": serializers.CharField(),
        "players": serializers.ListField(child=serializers.CharField()),
        "names": serializers.ListField(child=serializers.CharField()),
        "by_hand": serializers.BooleanField(), "reason": serializers.CharField(), "tied": serializers.BooleanField(),
    })
    return inline_serializer("Awards", {
        "final": serializers.BooleanField(), "rounds_played": serializers.IntegerField(),
        "title": serializers.CharField(), "awards": award.__class__(many=True),
    })
