"""OpenAI Responses API items: messages, ``reasoning``, ``function_call`` and
``function_call_output``.

The public home of ``tooletta.shapes.responses``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.responses import *  # noqa: F403 (this module is their public home)
from ..shapes.responses import __all__ as __all__
