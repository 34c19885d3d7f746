"""The API's JSON parser: DRF's, with a body nested too deeply for Python's decoder answered as a parse
error (400) instead of a RecursionError (500)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the body is nested too deeply.")) from None
