"""The platforms' formats (docs/formats.md): one registered module per platform, like the rulesets.

Adding a platform is one new module here, imported below, plus its tests and its line in docs/formats.md.
"""

from __future__ import annotations

from . import gomafia, imafia, mafiaratings, mwt, polemica  # each registers its platform
from .base import PLATFORMS, Exported, FormatError, Imported, Platform, get_platform, register

__all__ = ["PLATFORMS", "Exported", "FormatError", "Imported", "Platform", "get_platform", "gomafia", "imafia",
           "mafiaratings", "mwt", "polemica", "register"]
