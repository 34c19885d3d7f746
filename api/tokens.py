"""``POST /api/token/``: a staff member's API key for their username and password (DRF's token
authentication; one key per user, kept until an administrator deletes it).

Throttled as the login pages are (``base/auth.py``): a locked-out request answers 429 with
``Retry-After`` and ``{"detail": "...", "retry_after": seconds}``, never the 400 of a wrong password, so a
judge's phone can say how long to wait.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.models import Token
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings

from base.auth import lockout_message, lockout_state


class TokenView(ObtainAuthToken):
    # the API's parsers (DRF's ObtainAuthToken names its own, whose JSON parser let a body nested too deeply
    # raise RecursionError, a 500): form, multipart, and JSON refusing such a body with a 400
    parser_classes = api_settings.DEFAULT_PARSER_CLASSES  # type: ignore[assignment]  # classes: api_settings imports them

    @extend_schema(responses={
        200: inline_serializer("Token", {"token": serializers.CharField()}),
        400: OpenApiResponse(description="wrong username or password"),
        429: OpenApiResponse(
            inline_serializer("LockedOut", {"detail": serializers.CharField(),
                                            "retry_after": serializers.IntegerField()}),
            description="too many failed logins: wait retry_after seconds (also the Retry-After header)"),
    }, summary="Get the API token of a user")
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        serializer = self.get_serializer(data=request.data)
        valid = serializer.is_valid()
        # Axes marks the request it was given (this DRF request, not the Django one its middleware sees)
        if getattr(request, "axes_locked_out", False):
            return self.locked_out(request)
        if not valid:
            raise ValidationError(serializer.errors)
        token, _created = Token.objects.get_or_create(user=serializer.validated_data["user"])
        return Response({"token": token.key})

    def locked_out(self, request: Request) -> Response:
        data = request.data if isinstance(request.data, dict) else {}
        credentials = getattr(request, "axes_credentials", None) or {"username": data.get("username")}
        seconds, _by_address = lockout_state(request, credentials)
        return Response({"detail": lockout_message(seconds), "retry_after": seconds}, status=429,
                        headers={"Retry-After": str(seconds)})
