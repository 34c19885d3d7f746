"""A drf-spectacular postprocessing hook: the 404 every addressed resource can answer is
documented on each operation with path parameters (an unknown tournament, stage or table)."""

from __future__ import annotations

from typing import Any


def document_not_found(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    for item in result.get("paths", {}).values():
        for operation in item.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if any(p.get("in") == "path" for p in operation.get("parameters", ())):
                operation["responses"].setdefault("404", {"description": "no such tournament, stage or table"})
    return result
