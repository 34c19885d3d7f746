"""The imports between the apps form the layers of docs/architecture.md, with no cycle: import-linter checks the
contracts of pyproject.toml ([tool.importlinter]) on the whole tree, so a new upward import fails here and names
the line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHECK = ("import sys; from importlinter.cli import lint_imports; "
         "sys.exit(lint_imports(no_cache=True, no_logo=True))")


def test_the_apps_import_only_the_layers_below_them() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    run = subprocess.run([sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"{len(contracts)} kept, 0 broken" in run.stdout


def test_every_app_is_in_a_layer() -> None:
    """A new app (a folder with apps.py) must be given its place in the layers."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]
    layered = {name.strip().split(".")[0] for layer in config["contracts"][0]["layers"]
               for name in layer.replace(":", "|").split("|")}
    apps = {path.parent.name for path in ROOT.glob("*/apps.py")}
    assert apps <= layered, sorted(apps - layered)
    assert set(config["root_packages"]) == layered
