"""inclusionAI's Ling and Ring models (the "Bailing" MoE architecture of vLLM and SGLang).

Their chat templates write the calls as Qwen3's does, in the hermes form
(``<tool_call>\\n{"name": NAME, "arguments": {...}}\\n</tool_call>``, a line break before each
but a first one after no content), so the dialect is ``hermes``'s: ``bailing`` is a variant of
it (:class:`BailingDialect`, parsing and rendering as ``hermes`` does) that carries the models'
conversation formats (:mod:`tooletta_dialect_bailing.chat`), which are Ling's own:
``<role>SYSTEM</role>``, ``<role>HUMAN</role>``, ``<role>ASSISTANT</role>`` and
``<role>OBSERVATION</role>`` headers, ``<|role_end|>`` after each turn, and a
``detailed thinking off`` line closing the opening system turn. Ring-2.6-1T's template
writes GLM-like calls instead: ``bailing_kv`` is a variant of ``glm45`` (:class:`BailingKvDialect`)
carrying its format. The model rows are in :mod:`tooletta_dialect_bailing.models`.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tooletta_dialect_glm import Glm45Dialect
from tooletta_dialect_hermes import HermesDialect

from tooletta import ToolCall
from tooletta.plugin import ChatFormat, hookimpl, variant_info
from tooletta_dialect_bailing.chat import (
    Ling26Chat,
    Ring1TChat,
    Ring25Chat,
    Ring26Chat,
    RingLinear2Chat,
    RingLinear128kChat,
)
from tooletta_dialect_bailing.models import MODELS

__all__ = ["BailingDialect", "BailingKvDialect", "register_dialects"]


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


class BailingKvDialect(Glm45Dialect):
    """Ring-2.6-1T's calls: ``glm45``'s tags (parsed as ``glm45`` parses them), written as
    its template writes them: ``<tool_call>NAME\\n`` then, per argument,
    ``<arg_key>K</arg_key>\\n<arg_value>V</arg_value>`` with nothing between two, then
    ``\\n</tool_call>``; a line break between two calls and after content."""

    info = variant_info(
        Glm45Dialect.info,
        "bailing_kv",
        description="inclusionAI Ring-2.6 spelling of glm45 (the same tags; variant)",
        source="inclusionAI/Ring-2.6-1T chat_template.jinja",
        priority=Glm45Dialect.info.priority - 1,  # glm45 first where both write the calls
    )
    content_separator = "\n"
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Ring26Chat(),)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Ring-2.6-1T's spelling, the calls joined by line breaks."""
        return "\n".join(
            "<tool_call>"
            + c.name
            + "\n"
            + "".join(
                "<arg_key>"
                + self.key(k)
                + "</arg_key>\n<arg_value>"
                + self.value(v)
                + "</arg_value>"
                for k, v in c.arguments.items()
            )
            + "\n</tool_call>"
            for c in self.checked(calls)
        )


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the ``bailing`` and ``bailing_kv`` dialects and their model rows."""
    for declared in (BailingDialect(), BailingKvDialect(), *MODELS):
        register(declared)
