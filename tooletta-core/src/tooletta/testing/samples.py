"""The kit's sample conversations and tool definitions (kept in :mod:`tooletta.chat.samples`,
below the kit, because learning a template checks itself on them too; this module is where
plugin tests import them from)."""

from __future__ import annotations

from ..chat.samples import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    list_content_conversations,
    random_conversations,
    sample_conversations,
)

__all__ = [
    "PROBE_TOOLS",
    "SAMPLE_TOOLS",
    "list_content_conversations",
    "random_conversations",
    "sample_conversations",
]
