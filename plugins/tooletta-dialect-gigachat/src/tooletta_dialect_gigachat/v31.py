"""GigaChat 3.1: the call inline after the content, ``<|function_call|>{json}``.

GigaChat 3.1's template (llama.cpp ``models/templates/GigaChat3.1-10B-A1.8B.jinja``, macro
``render_role_message``) writes an assistant turn as ``CONTENT<|function_call|>`` +
``{"name": "NAME", "arguments": ARGS}`` + ``<|message_sep|>\\n\\n``, the arguments as
``tojson(ensure_ascii=False)`` and the name as it is (not JSON-quoted). The template writes only
the first call; we write one ``<|function_call|>{json}`` per call, which the base ``gigachat3``
dialect reads back (it parses both GigaChat 3 forms).
"""

from __future__ import annotations

from typing import Any

from tooletta import ToolCall, to_json
from tooletta.plugin import plain_render, variant_info

from . import FUNCTION_CALL_INLINE, GigaChat3Dialect
from .chat import GigaChat31Chat, GigaChat31HubChat

__all__ = ["GigaChat31Dialect"]


class GigaChat31Dialect(GigaChat3Dialect):
    """``CONTENT<|function_call|>{"name": "NAME", "arguments": {...}}`` (GigaChat 3.1)."""

    info = variant_info(
        GigaChat3Dialect.info,
        "gigachat31",
        aliases=("gigachat3_1",),
        description="GigaChat 3.1: CONTENT<|function_call|>{json}",
        source="ggml-org/llama.cpp models/templates/GigaChat3.1-10B-A1.8B.jinja",
    )

    chat_formats = (GigaChat31Chat(), GigaChat31HubChat())
    """llama.cpp's copy of GigaChat 3.1's template (the default) and the text the repository
    serves (:mod:`.chat`)."""

    @plain_render
    def render(self, calls: Any, content: str = "") -> str:
        """The content, then ``<|function_call|>{json}`` per call. Marked
        :func:`~tooletta.plugin.plain_render`: it writes what
        :meth:`tooletta.ScannerDialect.render` writes (the content checked, then the content,
        then :meth:`render_calls`, which is this with no content; no separator), so an answer
        without calls skips it."""
        self.check_content(content)
        return content + "".join(self._call(c) for c in calls)

    def _call(self, call: ToolCall) -> str:
        name = call.name
        if not name or '"' in name or "\\" in name or not name.isprintable():
            raise self.error(f"cannot write the tool name {name!r} unquoted")
        return f'{FUNCTION_CALL_INLINE}{{"name": "{name}", "arguments": {to_json(call.arguments)}}}'

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls, each ``<|function_call|>{json}``."""
        return self.render(calls)
