"""Signals the tournaments app sends for the layers above it (which may listen; it imports none of them)."""

from __future__ import annotations

from django.dispatch import Signal

# Sent once the merge of players is committed (services/merging.py): ``kept`` is the player kept, ``merged_ids``
# the ids of the players merged into it and deleted. The rating recomputes its figures from it.
players_merged = Signal()
