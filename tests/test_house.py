"""The house rules of docs/architecture.md that no linter checks: small modules, and comments that say the fact
itself rather than cite what the repository does not contain (a tracker's numbers, the numbers of the copies of the
regulations the team keeps)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {".git", ".venv", "node_modules", "locale", "__pycache__"}  # not ours, or generated
NOT_PRODUCT = {"tests", "bench"}
MOST_LINES = 400

TEXT_SUFFIXES = {".py", ".md", ".html", ".js", ".css", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".conf",
                 ".sh"}
CITATION = re.compile(
    r"\bissues?\s+#?\d+"  # a tracker's issue by its number
    r"|\bseeds?\s+0\d\d\b"  # a regulation by the number of the team's copy
    r"|\b(?:tomsk|kostroma|fiim|zvezdy)\s+0\d\d\b",
    re.IGNORECASE)


def files(suffixes: set[str]) -> Iterator[Path]:
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(part in SKIPPED or part.startswith(".") for part in parts):
            continue
        if path.is_file() and (path.suffix in suffixes or path.name == "Makefile"):
            yield path


def test_no_product_module_is_over_400_lines() -> None:
    sizes = {}
    for path in files({".py"}):
        name = path.relative_to(ROOT).as_posix()
        if name.split("/")[0] not in NOT_PRODUCT and "migrations" not in path.parts:  # migrations: generated
            sizes[name] = len(path.read_text(encoding="utf-8").splitlines())
    too_long = {name: lines for name, lines in sizes.items() if lines > MOST_LINES}
    assert not too_long, f"split by what each part does (docs/architecture.md): {too_long}"


def test_no_text_cites_what_the_repository_does_not_contain() -> None:
    found = []
    for path in files(TEXT_SUFFIXES):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CITATION.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "say the fact itself, or cite the repository's docs/:\n" + "\n".join(found)


def test_the_citation_check_finds_citations() -> None:
    assert CITATION.search("a page waited 87 s (" + "issue" + " 13)")
    assert CITATION.search("Russian original, " + "seed" + " 003")
    assert CITATION.search("fiim" + " 003, ranking 2")
    assert not CITATION.search("seeds 1 and 2 gave the same table 1; 0,666667 points")
