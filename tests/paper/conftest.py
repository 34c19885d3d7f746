from __future__ import annotations

import io
from typing import Any

import pytest


@pytest.fixture(autouse=True)
def english(client: Any) -> None:
    client.cookies["django_language"] = "en"


def pdf_pages(data: bytes) -> list[str]:
    """The text of each page of a PDF."""
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def pdf_body(response: Any) -> bytes:
    assert response.status_code == 200, response.status_code
    assert response["Content-Type"] == "application/pdf"
    return b"".join(response.streaming_content) if response.streaming else response.content
