"""``POST /api/token/``: a staff member's API key for their username and password (DRF's token
authentication; one key per user, kept until an administrator deletes it)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.authtoken.views import ObtainAuthToken
from rest_framework.request import Request
from rest_framework.response import Response


class TokenView(ObtainAuthToken):
    @extend_schema(responses={
        200: inline_serializer("Token", {"token": serializers.CharField()}),
        400: OpenApiResponse(description="wrong username or password"),
    }, summary="Get the API token of a user")
    def post(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().post(request, *args, **kwargs)
