"""How tool results find their calls; :class:`~tooletta.Message` (the core IR's chat message)
is re-exported here under its historical name ``tooletta.interop.Message``.

The public home of ``tooletta.shapes.message``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.message import *  # noqa: F403 (this module is their public home)
from ..shapes.message import __all__ as __all__
