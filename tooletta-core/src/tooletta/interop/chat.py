"""Chat-style messages: OpenAI Chat Completions, Hugging Face / TRL and tinker-cookbook.

The public home of ``tooletta.shapes.chat``, which holds the code below the
conversation layer (:mod:`tooletta.chat` reads these shapes without importing interop)."""

from __future__ import annotations

from ..shapes.chat import *  # noqa: F403 (this module is their public home)
from ..shapes.chat import __all__ as __all__
