"""Kimi (Moonshot AI) tool-call dialects for tooletta.

* ``kimi_k2`` (Kimi K2, K2-Thinking, K2.5, K2.6, K2.7-Code, Kimi-Linear):
  ``<|tool_calls_section_begin|>`` sections of ``functions.NAME:IDX`` calls with JSON
  arguments; ids kept;
* ``kimi_k3`` (Kimi K3): XTML ``<|open|>call ...<|sep|>`` elements with typed arguments;
* ``kimi`` (tooletta 0.1.0's legacy ``## Calling: NAME`` + JSON form, kept for compatibility).

See :mod:`tooletta_dialect_kimi.k2`, :mod:`tooletta_dialect_kimi.k3` and
:mod:`tooletta_dialect_kimi.legacy` for the formats and their sources.
"""

from __future__ import annotations

from typing import Any

from tooletta import hookimpl
from tooletta_dialect_kimi.models import MODELS

from .k2 import KimiK2Dialect
from .k3 import KimiK3Dialect
from .legacy import KimiLegacyDialect

__all__ = ["KimiK2Dialect", "KimiK3Dialect", "KimiLegacyDialect", "register_dialects"]


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the three Kimi dialects."""
    for declared in (KimiK2Dialect(), KimiK3Dialect(), KimiLegacyDialect(), *MODELS):
        register(declared)
