"""The protocol as the write API reads and writes it: the game's facts and each seat's.

Parsing only; the rules are checked on the whole protocol by ``games.services.protocol`` (the
same ``scoring`` validation as the web form), which saves all of it or nothing.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, TypedDict

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Game, GameSeat, Left, Role, Side
from games.reasons import OTHER, UNSTATED
from games.services.facts import ProtocolFacts


class Limits(TypedDict):
    max_digits: int
    decimal_places: int
    min_value: int
    max_value: int


NUMBER: Limits = {"max_digits": 8, "decimal_places": 2, "min_value": -1000, "max_value": 1000}


class SeatInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(min_value=1, max_value=12)
    role = serializers.ChoiceField(choices=Role.choices)
    side = serializers.ChoiceField(choices=Side.choices, required=False, allow_blank=True, default="",
                                   help_text="only for extra characters of zvezdy")
    fouls = serializers.IntegerField(min_value=0, max_value=4, default=0)
    removed = serializers.BooleanField(default=False)
    left = serializers.ChoiceField(choices=Left.choices, required=False, allow_blank=True, default="",
                                   help_text="how the player left the table")
    left_number = serializers.IntegerField(min_value=1, max_value=12, required=False, allow_null=True,
                                           default=None, help_text="on day (voted, removed) or night (killed) N")
    extra = serializers.DecimalField(**NUMBER, default=0)  # type: ignore[arg-type]  # DRF takes any default
    best = serializers.BooleanField(default=False)
    days_survived = serializers.IntegerField(min_value=1, max_value=12, required=False, allow_null=True,
                                             default=None)
    subjective = serializers.DecimalField(**NUMBER, required=False, allow_null=True, default=None)
    warnings = serializers.IntegerField(
        min_value=0, max_value=9, required=False, allow_null=True, default=None,
        help_text="verbal warnings apart from the remarks (kostroma, zvezdy); not given: as recorded")


class AwardedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    reason = serializers.CharField(max_length=40, help_text="the regulation's reason: monsters, disputed (fiim), "
                                                              "removed_spoke (zvezdy)")
    seats = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=12), max_length=12,
                                  default=list, help_text="the seats that caused it (none for a judge's decision)")


class CircleSerializer(serializers.Serializer):  # type: ignore[type-arg]
    best = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=12), max_length=12,
                                 default=list)
    worst = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=12), max_length=12,
                                  default=list)


class ProtocolInSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """Every seat of the table once; what is not given keeps its default (no foul, not removed...)."""

    version = serializers.IntegerField(min_value=1, help_text="the version this change is based on")
    winner = serializers.ChoiceField(choices=Side.choices, required=False, allow_blank=True, default="")
    first_killed = serializers.IntegerField(min_value=1, max_value=12, required=False, allow_null=True,
                                            default=None)
    best_move = serializers.ListField(child=serializers.IntegerField(min_value=1, max_value=12), max_length=3,
                                      default=list)
    circles = CircleSerializer(many=True, required=False, default=list)
    mafia_missed_three_nights = serializers.BooleanField(default=False)
    notes = serializers.CharField(required=False, allow_blank=True, default="", max_length=2000)
    awarded = AwardedSerializer(required=False, allow_null=True,
                                help_text="the win awarded to the other side; null: played out; not given: as "
                                          "recorded")
    seats = SeatInSerializer(many=True)

    def validate_seats(self, seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
        numbers = [s["seat"] for s in seats]
        expected = self.context.get("seat_numbers")
        if expected is not None and sorted(numbers) != list(expected):
            raise serializers.ValidationError(
                _("Give every seat of the table once: seats %(seats)s.") % {"seats": ", ".join(map(str, expected))})
        return seats

    def apply(self, facts: ProtocolFacts) -> None:
        """Writes the validated values into ``facts`` (the service validates the result)."""
        data = self.validated_data
        facts.winner = data["winner"]
        facts.first_killed = data["first_killed"]
        facts.best_move = list(data["best_move"])
        facts.circles = [{"best": list(c["best"]), "worst": list(c["worst"])} for c in data["circles"]]
        facts.mafia_missed_three_nights = data["mafia_missed_three_nights"]
        facts.notes = data["notes"]
        if "awarded" in data:  # not given: the award as recorded (a client that knows no awards loses none)
            awarded = data["awarded"]
            facts.awarded = ({} if awarded is None else
                             {"reason": awarded["reason"], **({"seats": list(awarded["seats"])} if awarded["seats"]
                                                              else {})})
        given = {s["seat"]: s for s in data["seats"]}
        for seat in facts.seats:
            s = given[seat.number]
            seat.role, seat.side = s["role"], s["side"]
            kept = seat.foul_reasons[: s["fouls"]]
            seat.foul_reasons = kept + [UNSTATED] * (s["fouls"] - len(kept))
            if not s["removed"]:
                seat.removal_reason = ""
            elif not seat.removal_reason and s["fouls"] < 4:
                seat.removal_reason = OTHER
            seat.left = s["left"]
            seat.left_number = s["left_number"] if s["left"] else None
            seat.extra = Fraction(s["extra"])
            seat.best = s["best"]
            seat.days_survived = s["days_survived"]
            seat.subjective = None if s["subjective"] is None else Fraction(s["subjective"])
            if s["warnings"] is not None:  # a count, as the file keeps it: the reasons kept, the rest unstated
                kept_warnings = seat.warning_reasons[: s["warnings"]]
                seat.warning_reasons = kept_warnings + [UNSTATED] * (s["warnings"] - len(kept_warnings))
        if any(seat.left for seat in facts.seats):  # the judge's day counter follows the departures
            facts.phase = max(facts.phase, *(2 * (s.left_number or 1) - 1 for s in facts.seats if s.left))


class ActionSerializer(serializers.Serializer):  # type: ignore[type-arg]
    version = serializers.IntegerField(min_value=1, help_text="the version the action is based on")


class ReopenSerializer(ActionSerializer):
    reason = serializers.CharField(max_length=2000,
                                   help_text="why the confirmed protocol is reopened (kept in its history)")


class SeatOutSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(source="seat.number")
    player = serializers.CharField(source="seat.participant.ext_id")
    name = serializers.CharField(source="seat.participant.player.full_name")
    number = serializers.IntegerField(source="seat.participant.number", allow_null=True)
    warnings = serializers.SerializerMethodField(help_text="verbal warnings apart from the remarks")

    class Meta:
        model = GameSeat
        fields = ["seat", "player", "name", "number", "role", "side", "fouls", "removed", "left", "left_number",
                  "extra", "best", "days_survived", "subjective", "warnings"]

    def get_warnings(self, seat: GameSeat) -> int:
        return len(seat.warning_reasons or ())


class ProtocolOutSerializer(serializers.ModelSerializer):  # type: ignore[type-arg]
    table = serializers.IntegerField(source="table.number")
    round = serializers.IntegerField(source="table.round.number")
    stage = serializers.CharField(source="table.round.stage.ext_id")
    seats = SeatOutSerializer(many=True)
    changed_by = serializers.CharField(source="changed_by.username", allow_null=True, default=None)
    awarded = serializers.SerializerMethodField(help_text="the win awarded to the other side; null: played out")

    class Meta:
        model = Game
        fields = ["id", "stage", "round", "table", "state", "version", "winner", "first_killed", "best_move",
                  "circles", "mafia_missed_three_nights", "awarded", "notes", "changed_at", "changed_by", "seats"]

    @extend_schema_field(AwardedSerializer(allow_null=True))
    def get_awarded(self, game: Game) -> dict[str, Any] | None:
        return {"reason": game.awarded["reason"], "seats": list(game.awarded.get("seats", ()))} if game.awarded \
            else None


class ProblemSerializer(serializers.Serializer):  # type: ignore[type-arg]
    seat = serializers.IntegerField(allow_null=True)
    message = serializers.CharField()


class RejectedSerializer(serializers.Serializer):  # type: ignore[type-arg]
    """400: the rules the protocol breaks (``problems``, by seat) or the fields not understood."""

    detail = serializers.CharField()
    problems = ProblemSerializer(many=True)
    # DRF's metaclass takes declared fields out of the class: Serializer.fields stays as it is
    fields = serializers.DictField(required=False, help_text="field → its errors")  # type: ignore[assignment]


class ConflictSerializer(serializers.Serializer):  # type: ignore[type-arg]
    detail = serializers.CharField()
    version = serializers.IntegerField(allow_null=True)
    state = serializers.CharField()
