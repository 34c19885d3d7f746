from __future__ import annotations

from django.apps import AppConfig


class ExchangeConfig(AppConfig):
    """The exchange between the database and ``scoring``'s model: reading the rows into the model, writing a
    model as rows (the import), the tournament file and backups (docs/architecture.md)."""

    name = "exchange"
