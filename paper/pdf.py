"""HTML → PDF with WeasyPrint (pango from Debian; DejaVu fonts for Cyrillic). The printed pages
carry their own CSS and load nothing from outside, so the PDF is the print-ready page itself.

With ``PDF_NICENESS`` above 0 (the production profile: 19) WeasyPrint runs in a child process at that
lower CPU priority (``pdf_worker``), so a long build does not slow every other request down; 0 runs it in
this process (development and tests: no process to start)."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string


def render_pdf(request: HttpRequest | None, template: str, context: dict[str, Any]) -> bytes:
    return html_to_pdf(render_to_string(template, {**context, "pdf": True}, request=request))


def html_to_pdf(html: str) -> bytes:
    niceness = int(getattr(settings, "PDF_NICENESS", 0))
    if niceness <= 0:
        from weasyprint import HTML  # imported on use: pango loads once, only where PDFs are made

        return bytes(HTML(string=html).write_pdf())
    done = subprocess.run([sys.executable, "-m", "paper.pdf_worker", str(niceness)], input=html.encode("utf-8"),
                          capture_output=True, timeout=deadline_seconds(), cwd=settings.BASE_DIR, check=False)
    if done.returncode != 0 or not done.stdout.startswith(b"%PDF"):
        raise RuntimeError(f"the PDF child process failed ({done.returncode}): {done.stderr[-2000:]!r}")
    return done.stdout


def deadline_seconds() -> float:
    """How long a PDF's child process may take before it is stopped (``DOCUMENT_BUILD_SECONDS``): below the web
    workers' timeout (gunicorn's ``--timeout``, README) and the documents' build slot's lease."""
    return float(getattr(settings, "DOCUMENT_BUILD_SECONDS", 100))


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
