"""The database schema as plain data, to compare a migrated database with the one the tests build from the models.

The tests create their database without migrations (``--no-migrations`` in pyproject.toml: 5 s instead of 40 s a
worker), so ``tests/test_migrations.py`` proves the two agree: it migrates an empty database in a child process
(``python -m tests.schema_dump``, ``DATABASE_URL`` pointing at it) and compares what this module prints with the
test database's. Constraints and indexes are compared by what they do, not by name: a field renamed by a migration
keeps the index name it was created with, and the name changes nothing.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def schema(connection: Any) -> dict[str, Any]:
    """Every table of the app's models: its columns (type, null) and its constraints (columns, kind)."""
    from django.apps import apps

    tables = sorted({model._meta.db_table for model in apps.get_models(include_auto_created=True)
                     if model._meta.managed and not model._meta.proxy})
    out: dict[str, Any] = {}
    with connection.cursor() as cursor:
        existing = set(connection.introspection.table_names(cursor))
        for table in tables:
            if table not in existing:
                out[table] = None
                continue
            columns = {c.name: [str(connection.introspection.get_field_type(c.type_code, c)), bool(c.null_ok)]
                       for c in connection.introspection.get_table_description(cursor, table)}
            constraints = sorted(
                json.dumps([sorted(c["columns"] or []), bool(c["primary_key"]), bool(c["unique"]),
                            c["foreign_key"] and list(c["foreign_key"]), bool(c["check"]), bool(c["index"])])
                for c in connection.introspection.get_constraints(cursor, table).values()
            )
            out[table] = {"columns": columns, "constraints": constraints}
    return out


if __name__ == "__main__":  # python -m tests.schema_dump: the schema of DATABASE_URL's database, as JSON
    import django

    django.setup()
    from django.db import connection

    json.dump(schema(connection), sys.stdout, sort_keys=True)
