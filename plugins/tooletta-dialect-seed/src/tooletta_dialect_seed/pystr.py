"""Seed-OSS as its own template writes it: objects and arrays as Python ``str()``.

The Seed-OSS template (llama.cpp ``models/templates/ByteDance-Seed-OSS.jinja``) writes every
non-string argument with ``| string``, so ``{"k": true}`` comes out as ``{'k': True}``. The base
``seed_oss`` dialect writes objects and arrays as JSON, which reads back under any schema; this
variant writes exactly the template's text, for training data that must match what the model
saw. Parsing reads it back when the tool schema types the parameter (an ``object`` or
``array`` parameter reads Python literals); without a schema such a value stays a string.
"""

from __future__ import annotations

from typing import Any

from tooletta import ToolCall
from tooletta.plugin import variant_info

from . import SeedOssDialect
from .chat import SeedOssChat

__all__ = ["SeedOssPyStrDialect"]


def _as_template(value: Any) -> Any:
    """``value | string`` for an object or array (Python's ``str()``); scalars as they are
    (the base already writes them as ``str()`` does)."""
    return str(value) if isinstance(value, (dict, list)) else value


class SeedOssPyStrDialect(SeedOssDialect):
    """Seed-OSS with objects and arrays written as Python ``str()``, as its template does."""

    info = variant_info(
        SeedOssDialect.info,
        "seed_oss_pystr",
        description="Seed-OSS as its template writes it: non-string values as Python str()",
        source="ggml-org/llama.cpp models/templates/ByteDance-Seed-OSS.jinja",
    )

    chat_formats = (SeedOssChat(),)
    max_depth = 99
    """Python literals are read back by the bounded literal reader (as ``sarashina``'s)."""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The base layout, objects and arrays written as Python ``str()``."""
        written = [
            ToolCall(c.name, {k: _as_template(v) for k, v in c.arguments.items()}, c.id)
            if any(isinstance(v, (dict, list)) for v in c.arguments.values())
            else c  # nothing written as str(): the call as it is
            for c in calls
        ]
        return super().render_calls(written)
