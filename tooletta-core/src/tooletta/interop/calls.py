"""One tool call in each ecosystem's shape, both ways.

The public home of ``tooletta.shapes.calls``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.calls import *  # noqa: F403 (this module is their public home)
from ..shapes.calls import __all__ as __all__
