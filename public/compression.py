"""An anonymous reader's shareable answer compressed once, by the app, as nginx's cache then keeps it.

nginx compresses what it answers (``deploy/nginx/locations.conf``), but it compresses a copy from its cache again for
every reader: Brotli over the 1,000-player standings (197 KiB) is about 2 ms of a core, for each of the hundreds of
readers a second (bench/README.md, "Readers' answers compressed once"). So the app compresses the answers it marks
``public`` (``public.conditional.for_the_proxy``) itself, in the encoding the reader takes, and nginx keeps each
encoding as its own copy (its cache key holds ``$mafia_encoding``, ``deploy/nginx/pools.conf``) and sends it as it
is. Everything else (a signed-in user's page, a refusal, a PDF) is left to nginx. Without nginx (``make run``)
the readers get the same compressed answers from the app.

Behind nginx the app is sent nginx's own choice as ``Accept-Encoding`` (``$mafia_encoding``, the encoding the copy is
keyed by), so the two never disagree; ``encoding_for`` chooses as that map does, for the app asked directly.
"""

from __future__ import annotations

import gzip
import re
from collections.abc import Callable

import brotli
from django.http import HttpRequest, HttpResponseBase
from django.utils.cache import patch_vary_headers

BROTLI_QUALITY = 5  # as nginx's brotli_comp_level (brotli.conf); 11 would take a tenth of a second on the standings
GZIP_LEVEL = 5  # as nginx's gzip_comp_level
MIN_LENGTH = 1024  # as nginx's gzip_min_length: below it compressing saves little
TEXT_TYPES = ("text/", "application/json", "application/javascript", "application/xml", "image/svg+xml")

# As deploy/nginx/pools.conf's map: named, and not refused with q=0; ASCII only, as nginx's regular expressions are
_NOT_REFUSED = r"(?!\s*;\s*q\s*=\s*0(?:\.0*)?\s*(?:,|$))"
_BR = re.compile(r"\bbr\b" + _NOT_REFUSED, re.IGNORECASE | re.ASCII)
_GZIP = re.compile(r"\bgzip\b" + _NOT_REFUSED, re.IGNORECASE | re.ASCII)


def encoding_for(accept_encoding: str) -> str:
    """``br``, ``gzip`` or ``""`` (as it is) for a request's ``Accept-Encoding``: Brotli when named and not refused
    (``q=0``), else gzip so, else as it is (other quality values are not compared, as the map does not)."""
    if _BR.search(accept_encoding):
        return "br"
    if _GZIP.search(accept_encoding):
        return "gzip"
    return ""


def compressible(response: HttpResponseBase) -> bool:
    """A 200 with a text body worth compressing, not compressed yet (the middleware asks only of shareable ones)."""
    return (response.status_code == 200 and not response.streaming and "Content-Encoding" not in response
            and response.get("Content-Type", "").startswith(TEXT_TYPES)
            and len(response.content) >= MIN_LENGTH)  # type: ignore[attr-defined]  # not streaming: has content


def compressed(content: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return bytes(brotli.compress(content, quality=BROTLI_QUALITY))
    return gzip.compress(content, compresslevel=GZIP_LEVEL, mtime=0)


class CompressSharedAnswers:
    """Compresses the answers ``for_the_proxy`` marks ``public`` in the reader's encoding (``encoding_for``); says
    ``Vary: Accept-Encoding`` on every such answer and makes a compressed answer's ETag weak (its bytes are another
    representation of the same version; a revalidation's ``If-None-Match`` still matches it: Django compares ETags
    weakly there)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if "public" not in response.get("Cache-Control", ""):
            return response
        patch_vary_headers(response, ("Accept-Encoding",))
        encoding = encoding_for(request.headers.get("Accept-Encoding", ""))
        if not encoding or not compressible(response):
            return response
        body = compressed(response.content, encoding)  # type: ignore[attr-defined]
        if len(body) >= len(response.content):  # type: ignore[attr-defined]
            return response  # nothing gained: sent as it is
        response.content = body  # type: ignore[attr-defined]
        response["Content-Length"] = str(len(body))
        response["Content-Encoding"] = encoding
        etag = response.get("ETag")
        if etag and etag.startswith('"'):
            response["ETag"] = "W/" + etag
        return response
