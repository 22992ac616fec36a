"""inclusionAI's Ling and Ring models (the "Bailing" MoE architecture of vLLM and SGLang).

Their chat templates write the calls as Qwen3's does, in the hermes form
(``<tool_call>\\n{"name": NAME, "arguments": {...}}\\n</tool_call>``, a line break before each
but a first one after no content), so the dialect is ``hermes``'s: ``bailing`` is a variant of
it (:class:`BailingDialect`, parsing and rendering as ``hermes`` does) that carries the models'
conversation formats (:mod:`tooletta_dialect_bailing.chat`), which are Ling's own:
``<role>SYSTEM</role>``, ``<role>HUMAN</role>``, ``<role>ASSISTANT</role>`` and
``<role>OBSERVATION</role>`` headers, ``<|role_end|>`` after each turn, and a
``detailed thinking off`` line closing the opening system turn. The model rows are in
:mod:`tooletta_dialect_bailing.models`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tooletta_dialect_hermes import HermesDialect

from tooletta.plugin import ChatFormat, hookimpl, variant_info
from tooletta_dialect_bailing.chat import (
    Ling26Chat,
    Ring1TChat,
    Ring25Chat,
    RingLinear2Chat,
    RingLinear128kChat,
)
from tooletta_dialect_bailing.models import MODELS

__all__ = ["BailingDialect", "register_dialects"]


class BailingDialect(HermesDialect):
    """Ling's and Ring's calls: ``hermes``'s, with the Ling conversation formats."""

    info = variant_info(
        HermesDialect.info,
        "bailing",
        aliases=("ling", "bailing_moe"),
        description="inclusionAI Ling/Ring spelling of hermes (the same calls; variant)",
        source="inclusionAI/Ling-2.6-flash chat_template.jinja",
        priority=HermesDialect.info.priority - 1,  # hermes first where both write the calls
    )
    # hermes leaves its chat_formats unannotated, so mypy takes its ten formats' tuple type
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (
        Ling26Chat(),
        Ring1TChat(),
        RingLinear2Chat(),
        RingLinear128kChat(),
        Ring25Chat(),
    )  # type: ignore[assignment]


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the ``bailing`` dialect and its model rows."""
    for declared in (BailingDialect(), *MODELS):
        register(declared)
