"""This release of the code, as a digest of what it computes and prints with: the project's Python, its templates,
its translations and its pinned requirements.

The shared cache keeps what a release computed (a tournament's model, its standings, its documents) under keys that
name this digest, so a deploy that changes a computation, a document's template or a word never serves what the
release before computed: without it the old standings and PDFs stayed until the results changed again or their
keys expired (an hour, a day), which after the last round is never. Two releases side by side during a deploy each
read and keep their own.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The site's own folders: every Python package at the top (the apps, ``mafia_tournament``), its templates and its
# translations. A list of what counts, not of what does not: a ``backups/`` folder the backup loop fills beside the
# code (README "Backups"), a virtualenv or a report is never part of the release.
NOT_THE_SITE = frozenset({"tests", "bench"})
FOLDERS = ("templates", "locale")
SUFFIXES = frozenset({".py", ".html", ".po", ".json", ".txt"})


def site_folders(root: Path) -> list[Path]:
    packages = [top for top in root.iterdir() if top.is_dir() and (top / "__init__.py").is_file()
                and top.name not in NOT_THE_SITE]
    return sorted([*packages, *(root / name for name in FOLDERS if (root / name).is_dir())])


def digest_of(root: Path) -> str:
    """The digest of the site's sources under ``root``: each file's path and bytes, in a fixed order."""
    digest = hashlib.sha1()
    files = [root / "requirements.txt"]
    for folder in site_folders(root):
        files += sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES and "__pycache__" not in p.parts)
    for path in files:
        try:
            content = path.read_bytes()
        except OSError:  # gone meanwhile, or not ours to read: not the site's code
            continue
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + content + b"\0")
    return digest.hexdigest()[:12]


# Read when the process starts (the settings import this module), never later: a worker that read the files on first
# use after a deploy had replaced them would keep what its old code computed under the new release's keys. About
# 50 ms a process.
RELEASE = digest_of(ROOT)


def release() -> str:
    """This process's release (``RELEASE``)."""
    return RELEASE
