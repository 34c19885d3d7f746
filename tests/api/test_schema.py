"""API tests generated from the OpenAPI schema (schemathesis), in-process over WSGI.

Every operation of ``/api/schema/`` gets a bounded number of generated requests, authenticated as
the chief judge; half of them address the real tournament and table so that generated protocol
bodies reach the services' validation. No answer may be a server error, and every answer must
match the schema (status codes and bodies); schema-invalid requests must be rejected.
"""

from __future__ import annotations

import zlib
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.specs.openapi.checks import positive_data_acceptance

from tests.helpers import table

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(round_: Any, people: Any) -> dict[str, Any]:
    token, _ = Token.objects.get_or_create(user=people["chief"])
    return {"slug": round_.stage.tournament.slug, "table": table(round_, 1).pk, "token": token.key,
            "stage": round_.stage.ext_id}


@pytest.fixture
def api_schema(world: Any) -> Any:
    """The schema of the app itself. As Django's test client does, requests do not close the
    database connection (it holds the test's transaction)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    from mafia_tournament.wsgi import application

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@settings(max_examples=20, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture,
                                 HealthCheck.filter_too_much])
def test_no_server_error_and_answers_match_the_schema(case: Any, world: Any) -> None:
    if case.path_parameters and zlib.crc32(repr((case.body, case.path_parameters)).encode()) % 2 == 0:
        for name in ("slug", "table", "stage"):
            if name in case.path_parameters:
                case.path_parameters[name] = world[name]
    # A schema-valid body may still break a rule of the game (400, checked by scoring) or name
    # an unknown user: acceptance of every schema-valid body is not a property of this API.
    case.call_and_validate(headers={"Authorization": f"Token {world['token']}"},
                           excluded_checks=[positive_data_acceptance])
