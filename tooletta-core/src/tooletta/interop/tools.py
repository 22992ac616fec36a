"""Tool definitions in each ecosystem's shape.

The public home of ``tooletta.shapes.tools``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.tools import *  # noqa: F403 (this module is their public home)
from ..shapes.tools import __all__ as __all__
