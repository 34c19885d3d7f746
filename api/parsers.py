"""The API's JSON parser: DRF's, with a body nested too deeply for Python's decoder answered as a parse
error (400) instead of a RecursionError (500), and a body past Django's ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (2.5 MB, the
bound of every form) refused before it is read: DRF reads the stream itself, so Django's own check never ran and a
25 MB body was parsed whole, even on the anonymous ``/api/token/``."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import parsers
from rest_framework.exceptions import ParseError


class JSONParser(parsers.JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        request = (parser_context or {}).get("request")
        most = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if request is not None and most is not None:
            try:
                length = int(request.META.get("CONTENT_LENGTH") or 0)
            except ValueError:
                length = 0
            if length > most:
                raise ParseError(_("The body is %(size)s bytes; the API reads at most %(most)s.")
                                 % {"size": length, "most": most})
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_("JSON parse error - the body is nested too deeply.")) from None
