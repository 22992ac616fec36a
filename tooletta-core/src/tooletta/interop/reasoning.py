"""Where each shape keeps reasoning, and what writers do with reasoning they cannot sign.

The public home of ``tooletta.shapes.reasoning``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.reasoning import *  # noqa: F403 (this module is their public home)
from ..shapes.reasoning import __all__ as __all__
