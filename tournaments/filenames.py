"""Every file name the app writes (backups) or offers for download (exports, results, printed sheets) is
built here, from safe characters only: ASCII letters, digits, ``-`` and ``_``, and one extension.

A tournament's address, a stage's id or a round number may then hold anything (a slug stored before slugs
were checked, ``../escaped``, a newline, a quote): the name stays inside its directory and inside its
``Content-Disposition`` header."""

from __future__ import annotations

import re

UNSAFE = re.compile(r"[^A-Za-z0-9_-]+")
MAX_STEM = 150  # well under the 255 bytes of a file name, with room for a backup's time stamp


def safe_part(text: str) -> str:
    """``text`` with every run of other characters turned into one ``-`` (none at either end)."""
    return UNSAFE.sub("-", text).strip("-")


def safe_filename(*parts: str) -> str:
    """The parts joined with ``-``; the last part's extension (``results.xlsx``) is kept.
    ``safe_filename("../escaped", "20250315-140000.json") == "escaped-20250315-140000.json"``."""
    *first, last = parts or ("",)
    stem, dot, extension = last.rpartition(".")
    if not dot:
        stem, extension = last, ""
    extension = safe_part(extension)[:16]
    pieces = [piece for piece in (safe_part(p) for p in (*first, stem)) if piece]
    name = "-".join(pieces)[:MAX_STEM].strip("-") or "file"
    return f"{name}.{extension}" if extension else name


def attachment(*parts: str) -> str:
    """A ``Content-Disposition`` header offering the download under ``safe_filename(*parts)``."""
    return f'attachment; filename="{safe_filename(*parts)}"'
