"""What a migration that moves models from one app to another (their tables kept through ``Meta.db_table``, only
Django's state moving) runs besides the state: the models' content types follow them, and with them the
permissions and anything else that points at a content type. Reversible: migrated back, they return."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import migrations


def content_types_moved(old_app: str, new_app: str, models: tuple[str, ...]) -> migrations.RunPython:
    """The ``RunPython`` that relabels ``models`` (lower-case model names) from ``old_app`` to ``new_app`` and back;
    a content type the target app already has (made by ``migrate`` meanwhile) is left as it is."""

    def relabel(source: str, target: str) -> Callable[[Any, Any], None]:
        def run(apps: Any, schema_editor: Any) -> None:
            types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
            for model in models:
                if not types.filter(app_label=target, model=model).exists():
                    types.filter(app_label=source, model=model).update(app_label=target)

        return run

    return migrations.RunPython(relabel(old_app, new_app), relabel(new_app, old_app))
