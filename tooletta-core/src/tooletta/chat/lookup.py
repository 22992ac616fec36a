"""Which chat format a model id or a dialect name stands for: kept importable for plugins
and tests; the lookups live in :mod:`tooletta.catalog`."""

from __future__ import annotations

from ..catalog import chat_formats_of, find_format, resolve_format

__all__ = ["chat_formats_of", "find_format", "resolve_format"]
