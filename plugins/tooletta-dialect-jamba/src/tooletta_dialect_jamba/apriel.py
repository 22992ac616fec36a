"""ServiceNow Apriel's spelling of the ``<tool_calls>`` list, as a variant dialect.

The base ``jamba`` dialect renders the Hunyuan-A13B form, the content directly before
``<tool_calls>``. The Apriel templates (1.5 and 1.6) write ``'\\n<tool_calls>['``: a line
break before the list, also when there is no content, and each call's ``"id"`` after its
arguments when it has one (they leave ids out of the conversation's last turn, which the
conversation formats of :mod:`.chat` do). ``apriel`` parses like ``jamba`` (one parser reads
both) and is picked by its ``models`` patterns or by name, never by detection.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from tooletta import ToolCall
from tooletta.plugin import ChatFormat, plain_render_without_calls, variant_info

from . import JambaDialect
from .chat import Apriel15Chat, Apriel16Chat, Apriel16HubChat

__all__ = ["AprielDialect"]


class AprielDialect(JambaDialect):
    """``\\n<tool_calls>[{json}, ...]</tool_calls>`` after the content (Apriel 1.5 / 1.6)."""

    info = variant_info(
        JambaDialect.info,
        "apriel",
        aliases=("apriel_1_5",),
        priority=90,
        description="Apriel 1.5/1.6: a line break, then <tool_calls>[{json}, ...]</tool_calls>",
        source="ggml-org/llama.cpp models/templates/unsloth-Apriel-1.5.jinja,"
        " Apriel-1.6-15b-Thinker-fixed.jinja",
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (
        Apriel15Chat(),
        Apriel16Chat(),
        Apriel16HubChat(),
    )

    @plain_render_without_calls  # no calls: check_content, then the content
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The content, then (with calls) a line break and the ``<tool_calls>`` list."""
        self.check_content(content)
        return content + ("\n" + self.render_calls(list(calls)) if calls else "")
