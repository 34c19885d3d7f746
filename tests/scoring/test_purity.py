"""``scoring`` is pure Python: importing all of it loads no Django (docs/architecture.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scoring"


def test_no_module_of_scoring_imports_django() -> None:
    pattern = re.compile(r"^\s*(import|from)\s+django\b", re.MULTILINE)
    offenders = [path.name for path in PACKAGE.rglob("*.py") if pattern.search(path.read_text())]
    assert offenders == []


def test_importing_every_module_loads_no_django() -> None:
    modules = sorted({".".join(p.relative_to(PACKAGE.parent).with_suffix("").parts)
                      for p in PACKAGE.rglob("*.py") if p.name != "__main__.py"})
    code = ("import importlib, sys\n"
            f"for name in {modules!r}:\n    importlib.import_module(name.removesuffix('.__init__'))\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'django'))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                            cwd=PACKAGE.parent)
    assert result.stdout.strip() == "[]"
