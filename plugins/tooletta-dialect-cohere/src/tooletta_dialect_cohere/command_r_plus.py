"""Command R+ (``c4ai-command-r-plus``): the ``Action:`` list its tool-use template writes.

The template (llama.cpp ``models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja``)
writes an assistant turn with calls as (the last line ending with ``\\n``)::

    CONTENT
    Action:
    ```json
    [
        {
            "tool_name": NAME,
            "parameters": ARGS
        }...
    ]```

with the arguments as ``tojson(indent=4)`` indented by eight more spaces after their first
line (``{}`` when there are none), the items joined by ``,\\n`` and no end-of-turn token. The
name is written as it is, not JSON-quoted. There are no call ids. A reply without calls is the
trimmed content. The base ``cohere`` dialect already reads this form.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tooletta import ToolCall
from tooletta.plugin import variant_info

from . import CohereDialect
from .chat_r_plus import CommandRPlusChat

__all__ = ["CommandRPlusDialect"]

_UNQUOTABLE = ('"', "\\")


class CommandRPlusDialect(CohereDialect):
    """Command R+: ``Action:\\n```json`` and an indented JSON list of ``tool_name`` and
    ``parameters`` objects, closed by ``]```\\n``."""

    info = variant_info(
        CohereDialect.info,
        "command_r_plus",
        aliases=("cohere_command_r_plus",),
        description="Cohere Command R+: Action:\\n```json list of {tool_name, parameters}",
        source="ggml-org/llama.cpp models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja",
    )
    chat_formats = (CommandRPlusChat(),)

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The trimmed content, then (with calls) the ``Action:`` list."""
        self.check_content(content)
        if not calls:
            return content.strip()
        return content.strip() + self.render_calls(list(calls))

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``\\nAction:\\n```json\\n[`` ... ``\\n]```\\n`` as the template writes it."""
        items = []
        for c in calls:
            if not c.name or any(ch in c.name for ch in _UNQUOTABLE) or not c.name.isprintable():
                raise self.error(f"cannot write the tool name {c.name!r} unquoted")
            args = "{}"
            if c.arguments:
                text = json.dumps(c.arguments, ensure_ascii=False, indent=4)
                args = text.replace("\n", "\n" + " " * 8)
            items.append(
                f'    {{\n        "tool_name": "{c.name}",\n        "parameters": {args}\n    }}'
            )
        return "\nAction:\n```json\n[\n" + ",\n".join(items) + "\n]```\n"
