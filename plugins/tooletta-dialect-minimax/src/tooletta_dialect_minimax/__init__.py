"""MiniMax tool-call dialects: ``minimax_m1`` (JSON lines), ``minimax_m2`` (XML invokes) and
``minimax_m3`` (sentinel-prefixed elements).

* ``minimax_m1`` (alias ``minimax``, vLLM's name): ``<tool_calls>`` holding one JSON call
  object per line (MiniMax-M1, MiniMax-Text-01).
* ``minimax_m2``: ``<minimax:tool_call>`` wrapping ``<invoke name="F">`` elements with
  ``<parameter name="K">V</parameter>`` children (MiniMax-M2, M2.1, M2.5).
* ``minimax_m3``: every tag prefixed by ``]<]minimax[>[``, arguments as elements named after
  their keys (MiniMax-M3).

See each module's docstring for the sources that pin the format.
"""

from __future__ import annotations

from typing import Any

from tooletta import hookimpl
from tooletta_dialect_minimax.models import MODELS

from .m1 import MinimaxM1Dialect
from .m2 import MinimaxM2Dialect
from .m3 import MinimaxM3Dialect

__all__ = ["MinimaxM1Dialect", "MinimaxM2Dialect", "MinimaxM3Dialect", "register_dialects"]


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the three MiniMax dialects."""
    for declared in (MinimaxM1Dialect(), MinimaxM2Dialect(), MinimaxM3Dialect(), *MODELS):
        register(declared)
