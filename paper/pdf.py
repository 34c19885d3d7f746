"""HTML → PDF with WeasyPrint (pango from Debian; DejaVu fonts for Cyrillic). The printed pages
carry their own CSS and load nothing from outside, so the PDF is the print-ready page itself."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def render_pdf(request: HttpRequest | None, template: str, context: dict[str, Any]) -> bytes:
    from weasyprint import HTML  # imported on use: pango loads once, only where PDFs are made

    html = render_to_string(template, {**context, "pdf": True}, request=request)
    return bytes(HTML(string=html).write_pdf())


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
