"""Errors of the seating services; the message is for the organizer."""

from __future__ import annotations


class SeatingError(Exception):
    """A seating action the current state forbids, or a seating the rules cannot make."""


class PenaltyError(SeatingError):
    """A penalty the round's state or its players forbid."""
