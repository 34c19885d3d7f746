"""The documents the code cites live in the repository: every ``docs/...`` path cited exists, and
nothing outside the tests cites the team's workbench beside the repository (its rules, contract,
design and notes files, by the names in ``WORKBENCH``)."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Where citations may be: code, templates, the README and docs themselves, build and config files.
SUFFIXES = {".py", ".html", ".txt", ".md", ".json", ".toml", ".cfg", ".ini", ".js", ".css", ".po", ".sh", ".yml",
            ".yaml"}
NAMES = {"Makefile"}
SKIP_DIRS = {".git", ".venv", "node_modules", "__pycache__", "artifacts", "htmlcov", "staticfiles"}
CITED = re.compile(r"(?<![\w./-])docs/[A-Za-z0-9_./-]*[A-Za-z0-9_/-]")
WORKBENCH = re.compile(r"RULES\.md|CONTRACT\.md|DESIGN\.md|notes/")


def repository_files() -> list[Path]:
    """The repository's text files: git's list when there is one, else a walk that skips build output."""
    try:
        listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, text=True, check=True).stdout.splitlines()
        paths = [ROOT / name for name in listed]
    except (OSError, subprocess.CalledProcessError):
        paths = [p for p in ROOT.rglob("*") if not SKIP_DIRS & set(p.relative_to(ROOT).parts)]
    return sorted(p for p in paths if p.is_file() and (p.suffix in SUFFIXES or p.name in NAMES))


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")


def citations() -> dict[str, list[str]]:
    """Each cited ``docs/...`` path (a file or a folder) → where it is cited."""
    found: dict[str, list[str]] = {}
    for path in repository_files():
        where = path.relative_to(ROOT).as_posix()
        for number, line in enumerate(read(path).splitlines(), start=1):
            for match in CITED.finditer(line):
                cited = match.group().rstrip(".")
                if cited.endswith(".md") or cited.endswith("/"):
                    found.setdefault(cited, []).append(f"{where}:{number}")
    return found


def test_docs_exist_with_their_index() -> None:
    assert (ROOT / "docs" / "README.md").is_file()
    for name in ("architecture", "seating", "tournament-file", "command-line"):
        assert (ROOT / "docs" / f"{name}.md").is_file(), name
    for name in ("game", "tournament", "tomsk", "kostroma", "fiim", "zvezdy", "seating-methods", "parameters"):
        assert (ROOT / "docs" / "rules" / f"{name}.md").is_file(), name


def test_the_code_cites_docs() -> None:
    cited = citations()
    assert "docs/rules/seating-methods.md" in cited and "docs/architecture.md" in cited


def test_every_cited_docs_path_exists() -> None:
    missing = {cited: where[:3] for cited, where in citations().items() if not (ROOT / cited).exists()}
    assert not missing, f"cited but not in the repository: {missing}"


def test_relative_links_between_documents_resolve() -> None:
    missing = []
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for target in re.findall(r"\]\(([^)#\s]+)", read(page)):
            if "://" not in target and not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT).as_posix()} → {target}")
    assert not missing


def test_nothing_outside_the_tests_cites_the_workbench() -> None:
    offending = []
    for path in repository_files():
        where = path.relative_to(ROOT).as_posix()
        if where.startswith("tests/"):
            continue
        for number, line in enumerate(read(path).splitlines(), start=1):
            if WORKBENCH.search(line):
                offending.append(f"{where}:{number}: {line.strip()[:100]}")
    assert not offending, "cite docs/ instead:\n" + "\n".join(offending)
