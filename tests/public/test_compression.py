"""A reader's shareable answer compressed once by the app (``public/compression.py``), in the encoding the reader
takes, as nginx's cache keeps it (``deploy/nginx/``): the same page in every encoding, for every regulation; a weak
ETag that still revalidates; nothing personal and no refusal compressed by the app; and the encoding
chosen exactly as nginx's ``$mafia_encoding`` map chooses it, since nginx keys the copies by it."""

from __future__ import annotations

import gzip
import re
from pathlib import Path
from typing import Any

import brotli
import pytest
from django.test import Client

from public.compression import encoding_for

pytestmark = pytest.mark.django_db

POOLS = Path(__file__).resolve().parents[2] / "deploy" / "nginx" / "pools.conf"
EXAMPLES = ["tomsk-example.json", "kostroma-example.json", "fiim-example.json", "zvezdy-example.json"]
HEADERS = ["gzip, deflate, br", "br", "BR;q=1.0", "gzip", "x-gzip", "deflate", "identity", "", "gzip;q=0.5, br",
           "brotli", "zstd, gzip", "*", "br;q=0, gzip", "gzip;q=0", "br;q=0.0,gzip", "br ; q = 0 , gzip;q=1",
           "br;q=0.01", "\xe9br, gzip", "gzip, br;q=0"]
REFUSED = {"br;q=0, gzip": "gzip", "gzip;q=0": "", "br;q=0.0,gzip": "gzip", "gzip, br;q=0": "gzip", "br;q=0.01": "br"}


def decoded(response: Any) -> str:
    body = response.content
    encoding = response.get("Content-Encoding")
    return (brotli.decompress(body) if encoding == "br" else gzip.decompress(body) if encoding == "gzip"
            else body).decode()


def nginx_map() -> list[tuple[re.Pattern[str], str]]:
    """``$mafia_encoding``'s regular expressions, in order, as nginx reads them (``~*``: case-insensitive)."""
    block = re.search(r"map \$http_accept_encoding \$mafia_encoding \{(.*?)\}", POOLS.read_text(), re.S)
    assert block is not None
    rules = re.findall(r'"~\*(.+?)"\s+(\w+);', block.group(1))
    assert len(rules) == 2
    return [(re.compile(pattern, re.IGNORECASE | re.ASCII), value) for pattern, value in rules]  # PCRE: ASCII


@pytest.mark.parametrize("accept", HEADERS)
def test_the_app_chooses_the_encoding_as_nginx_keys_the_copy(accept: str) -> None:
    by_nginx = next((value for pattern, value in nginx_map() if pattern.search(accept)), "")
    assert encoding_for(accept) == by_nginx
    if accept in REFUSED:  # an encoding refused with q=0 is never chosen
        assert by_nginx == REFUSED[accept]


@pytest.mark.parametrize("example", EXAMPLES)
def test_a_readers_page_reads_the_same_in_every_encoding(client: Client, import_file: Any, example: str) -> None:
    slug = example.removesuffix(".json")
    import_file(example, slug, standings_hidden=False)
    url = f"/p/{slug}/standings/"
    plain = client.get(url, HTTP_ACCEPT_LANGUAGE="ru")
    assert plain.status_code == 200 and "Content-Encoding" not in plain and "Accept-Encoding" in plain["Vary"]
    for encoding in ("br", "gzip"):
        answer = client.get(url, HTTP_ACCEPT_LANGUAGE="ru", HTTP_ACCEPT_ENCODING=f"{encoding}, deflate")
        assert answer["Content-Encoding"] == encoding and int(answer["Content-Length"]) == len(answer.content)
        assert len(answer.content) < len(plain.content) / 3
        assert decoded(answer) == plain.content.decode()
        assert answer["ETag"] == "W/" + plain["ETag"]
        assert "Accept-Encoding" in answer["Vary"] and answer["Cache-Control"] == plain["Cache-Control"]
        again = client.get(url, HTTP_ACCEPT_LANGUAGE="ru", HTTP_ACCEPT_ENCODING=encoding,
                           HTTP_IF_NONE_MATCH=answer["ETag"])
        assert again.status_code == 304 and not again.content  # the proxy's revalidation of its copy


def test_the_public_api_is_compressed_too(client: Client, import_file: Any) -> None:
    import_file("fiim-example.json", "api-cup", standings_hidden=False)
    plain = client.get("/api/tournaments/api-cup/standings/")
    answer = client.get("/api/tournaments/api-cup/standings/", HTTP_ACCEPT_ENCODING="gzip")
    assert plain.status_code == 200 and answer["Content-Encoding"] == "gzip"
    assert decoded(answer) == plain.content.decode()


def test_personal_answers_and_refusals_are_left_to_the_proxy(client: Client, import_file: Any, organizer: Any) -> None:
    tournament = import_file("fiim-example.json", "mine", standings_hidden=False)
    client.force_login(organizer)
    for url in (f"/t/{tournament.slug}/participants/", "/p/mine/standings/"):  # signed in: private answers
        answer = client.get(url, HTTP_ACCEPT_ENCODING="br")
        assert answer.status_code == 200 and "Content-Encoding" not in answer
        assert "public" not in answer.get("Cache-Control", "")
    client.logout()
    missing = client.get("/p/nobody-here/standings/", HTTP_ACCEPT_ENCODING="br")
    assert missing.status_code == 404 and "Content-Encoding" not in missing
