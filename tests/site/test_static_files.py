"""What ``collectstatic`` collects (``base/static_files.py``): every static file a template of the project names, and
none of Bootstrap's builds that no page loads. A page naming a file left out would fail in production (the manifest
storage refuses a name it does not know), so each name is checked against what the finders give ``collectstatic``."""

from __future__ import annotations

import re
from pathlib import Path

from django.apps import apps
from django.conf import settings
from django.contrib.staticfiles import finders

NAMED = re.compile(r"""\{%\s*static\s+['"]([^'"]+)['"]""")


def collected() -> set[str]:
    """The paths ``collectstatic`` copies, as its finders list them with the app's ignore patterns."""
    ignore = apps.get_app_config("staticfiles").ignore_patterns  # as collectstatic passes them
    return {path for finder in finders.get_finders() for path, _storage in finder.list(ignore)}


def named_in_templates() -> dict[str, str]:
    """Each static path a project template names, with one template that names it."""
    root = Path(settings.BASE_DIR)
    named: dict[str, str] = {}
    for template in root.glob("**/templates/**/*.html"):
        if ".venv" in template.parts or "node_modules" in template.parts:
            continue
        for path in NAMED.findall(template.read_text(encoding="utf-8")):
            named.setdefault(path, str(template.relative_to(root)))
    return named


def test_every_static_file_a_template_names_is_listed_for_collectstatic() -> None:
    named = named_in_templates()
    assert "bootstrap/css/bootstrap.min.css" in named and len(named) >= 10
    listed = collected()
    missing = {path: template for path, template in named.items() if path not in listed}
    assert not missing


def test_bootstraps_unused_builds_are_left_out() -> None:
    paths = collected()
    kept = {path for path in paths if path.startswith("bootstrap/")}
    # the stylesheet the pages load, and the source map its last line names (the manifest storage follows it)
    assert kept == {"bootstrap/css/bootstrap.min.css", "bootstrap/css/bootstrap.min.css.map"}
    assert "admin/js/core.js" in paths and "js/site.js" in paths  # the other apps' and the project's all there
