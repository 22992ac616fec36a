"""Read a conversation in any supported shape into neutral messages.

The public home of ``tooletta.shapes.read``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.read import *  # noqa: F403 (this module is their public home)
from ..shapes.read import __all__ as __all__
