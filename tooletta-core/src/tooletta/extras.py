"""How to install what an optional feature needs, said the same way everywhere.

Core depends on pluggy, msgspec and click only; the features that need more (rendering a Jinja
chat template, tokenizing from a ``tokenizer.json``, writing Parquet) name the extra of
``tooletta-core`` that brings it, for pip and for uv (an environment made by uv has no pip).
"""

from __future__ import annotations

__all__ = ["EXTRAS", "install_hint"]

EXTRAS: dict[str, str] = {"jinja": "jinja2", "training": "tokenizers", "parquet": "pyarrow"}
"""Each extra of ``tooletta-core`` and the package it installs."""


def install_hint(feature: str, extra: str) -> str:
    """The message for ``feature`` when the package of ``extra`` is missing: what it needs and
    how to install it, with pip or with uv."""
    package = EXTRAS[extra]
    spec = f"tooletta-core[{extra}]"
    return f"{feature} needs {package}: pip install '{spec}' (with uv: uv add '{spec}')"
