"""The base of every error meant for a user, and the errors of the seating services.

``UserError`` is a user's error, never a bug: a broken rule, a forbidden transition, bad input.
Its message is shown as it is (already translated) on the form or page that names the place.
Every app's user errors derive from it (``RegistrationError``, ``ProtocolError``, ``StageError``,
``VisibilityError`` …); anything else reaching a view is a bug.
"""

from __future__ import annotations


class UserError(Exception):
    """A user's error, never a bug: its message is shown as it is, translated."""


class SeatingError(UserError):
    """A seating action the current state forbids, or a seating the rules cannot make."""


class PenaltyError(SeatingError):
    """A penalty the round's state or its players forbid."""
