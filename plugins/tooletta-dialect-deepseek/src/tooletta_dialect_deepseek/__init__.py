"""DeepSeek tool-call dialects for tooletta.

* ``deepseek_v3`` (V3, V3-0324, R1, R1-0528): ``<｜tool▁calls▁begin｜>`` sections whose calls
  are ``function<｜tool▁sep｜>NAME`` plus a ```` ```json ```` fence;
* ``deepseek_v31`` (V3.1, V3.1-Terminus, V3.2-Exp): the same tokens, ``NAME<｜tool▁sep｜>{json}``;
* ``deepseek_v32`` (V3.2): DSML in ``<｜DSML｜function_calls>``;
* ``deepseek_v4`` (V4, V4.1): DSML in ``<｜DSML｜tool_calls>`` (V4.1: ``<｜DSML｜ calls>``).

See :mod:`tooletta_dialect_deepseek.classic` and :mod:`tooletta_dialect_deepseek.dsml` for
the formats and their sources.
"""

from __future__ import annotations

from typing import Any

from tooletta import hookimpl
from tooletta_dialect_deepseek.models import MODELS

from .classic import DeepSeekV3Dialect, DeepSeekV31Dialect
from .dsml import DeepSeekV4Dialect, DeepSeekV32Dialect

__all__ = [
    "DeepSeekV3Dialect",
    "DeepSeekV4Dialect",
    "DeepSeekV31Dialect",
    "DeepSeekV32Dialect",
    "register_dialects",
]


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the four DeepSeek dialects."""
    register(DeepSeekV3Dialect())
    register(DeepSeekV31Dialect())
    register(DeepSeekV32Dialect())
    register(DeepSeekV4Dialect())
    for row in MODELS:
        register(row)
