"""The platforms' formats (docs/formats.md): one registered module per platform, like the rulesets.

Adding a platform is one new module here, imported below, plus its tests and its line in docs/formats.md.
"""

from __future__ import annotations

from .base import PLATFORMS, Exported, FormatError, Imported, Platform, get_platform, register

__all__ = ["PLATFORMS", "Exported", "FormatError", "Imported", "Platform", "get_platform", "register"]

# platform modules:
from . import polemica  # noqa: F401
from . import gomafia  # noqa: E402,F401
from . import mafiaratings  # noqa: F401
from . import imafia  # noqa: F401
from . import mwt  # noqa: F401
