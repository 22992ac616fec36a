"""Id policies per target, applied to a whole conversation so results follow their calls.

The public home of ``tooletta.shapes.ids``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.ids import *  # noqa: F403 (this module is their public home)
from ..shapes.ids import __all__ as __all__
