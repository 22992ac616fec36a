"""Conversation format of GLM-5.2 (its chat template, ``zai-org/GLM-5.2`` ``chat_template.jinja``).

GLM-5.2 keeps GLM-4.7's turns (``[gMASK]<sop>``, ``<|system|>``/``<|user|>``/``<|assistant|>``
headers with no end-of-turn token, results after one ``<|observation|>`` as
``<tool_response>`` blocks, the compact ``<tool_call>`` form) and changes four things:

* with thinking on (the default) the text opens with a template-written system turn,
  ``<|system|>Reasoning Effort: Max`` (``High`` when ``reasoning_effort="high"``, the only
  other level it reads), before the tool declarations;
* each tool is declared as its bare function object (``tool["function"]``), written key by key
  (``"KEY": tojson(VALUE)``, joined by ``, ``) without its ``defer_loading`` and ``strict``
  keys; a tool with a true ``defer_loading`` is not declared;
* a past answer opens with ``<think></think>`` (GLM-4.7: ``</think>``); a turn that keeps its
  reasoning writes it as given, unstripped, between ``<think>`` and ``</think>``;
* with thinking off the generation prompt is ``<|assistant|><think></think>``.

``clear_thinking=False`` keeps every turn's reasoning (the template's switch; by default only
the turns after the last user message keep theirs).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from tooletta import RenderError
from tooletta.plugin import (
    Neutral,
    ToolsTurn,
    TruthyPrompt,
    by_content,
    defaults,
)

from .chat import CLEARED_REASONING, _GlmCompact

__all__ = [
    "EFFORT_HEAD",
    "TOOLS_HEAD",
    "Glm52Chat",
    "declaration",
    "declared_tools",
    "effort_level",
]

EFFORT_HEAD = "Reasoning Effort: "
"""What the GLM-5.2 template's opening system turn says before the effort level."""
TOOLS_HEAD = (
    "\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n"
)
"""How GLM-5.x's declarations turn starts after ``<|system|>`` (template text)."""
_TOOLS_START = "<|system|>" + TOOLS_HEAD
_HIDDEN_KEYS = frozenset({"defer_loading", "strict"})
_EFFORT_TURNS = frozenset({EFFORT_HEAD + "Max", EFFORT_HEAD + "High"})


def _thinking(options: Mapping[str, Any]) -> bool:
    """The template's ``enable_thinking`` (on unless given and false)."""
    return bool(options.get("enable_thinking", True))


def _effort(options: Mapping[str, Any]) -> str:
    """The effort turn's text (thinking on), ``""`` with thinking off."""
    return EFFORT_HEAD + effort_level(options) if _thinking(options) else ""


def effort_level(options: Mapping[str, Any]) -> str:
    """The level the template writes: ``High`` for ``reasoning_effort="high"``, else ``Max``."""
    return "High" if options.get("reasoning_effort") == "high" else "Max"


def declaration(tool: Mapping[str, Any]) -> str | None:
    """One tool as the template declares it (``tool_to_json`` of its function object), or
    ``None`` for a tool it leaves out (``defer_loading``)."""
    function = tool.get("function", tool) if isinstance(tool, Mapping) else tool
    if not isinstance(function, Mapping):
        raise RenderError(f"glm52: a tool definition must be an object, not {function!r}")
    if function.get("defer_loading"):
        return None
    try:
        parts = [
            f'"{key}": {json.dumps(value, ensure_ascii=False)}'
            for key, value in function.items()
            if key not in _HIDDEN_KEYS
        ]
    except (TypeError, ValueError) as exc:
        raise RenderError(f"glm52: a tool definition is not JSON: {exc}") from None
    return "{" + ", ".join(parts) + "}"


@by_content
def declared_tools(tools: list[Any]) -> str:
    """Every declared tool on its own line, remembered by the tools' content."""
    lines = (declaration(t) for t in tools)
    return "".join(line + "\n" for line in lines if line is not None)


class Glm52Chat(_GlmCompact):
    """GLM-5.2's chat template (``enable_thinking`` on, ``reasoning_effort`` ``max`` and
    ``clear_thinking`` on by default)."""

    name = "glm52"
    unwritten_options = defaults(reasoning_content=Neutral())
    """``reasoning_content`` given as a template variable leaks into the assistant turns the
    template writes (it reads the name before setting it per message); refused."""
    source = "zai-org/GLM-5.2 chat_template.jinja (revision b4734de4)"
    options = defaults(enable_thinking=True, reasoning_effort="max", clear_thinking=True)
    prompt = TruthyPrompt(on="<think>", off="<think></think>")
    """``<|assistant|><think>``, or ``<|assistant|><think></think>`` with thinking off (read
    back as no message): the template reads the switch by its truth (``not
    enable_thinking``)."""
    reasoning = CLEARED_REASONING
    """Read back stripped; written as given (:meth:`reasoning_text`). The history rule is
    switched by an option: after the last user message, or every turn with
    ``clear_thinking=False`` (any false value)."""
    no_think = "<think></think>"
    system_block = ToolsTurn(
        lambda tools: TOOLS_HEAD + declared_tools(list(tools)) + _GlmCompact.tools_tail,
        head=TOOLS_HEAD,
        lead=_effort,
        lead_joiner="<|system|>",
        leads=tuple(sorted(_EFFORT_TURNS)),
    )
    """The opening system turn(s) the template writes itself: the reasoning effort (with
    thinking on), then the tool declarations in a turn of their own (system messages are
    turns of theirs); the effort turn alone, or the declarations, read back as no message."""

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Oddity: past the declarations turn that follows the effort turn (the first turn is read
        as the opening system turn; this one would read as a system message)."""
        if not text.startswith(_TOOLS_START, pos):
            return pos
        end = text.find(self.tools_tail, pos + len(_TOOLS_START))
        return pos if end < 0 else end + len(self.tools_tail)

    def reasoning_text(self, reasoning: str, kept: bool, last: bool) -> str:
        """Oddity: the reasoning as given (unstripped) between ``<think>`` and ``</think>``, or
        an empty block."""
        return "<think>" + reasoning + "</think>" if kept and reasoning else self.no_think
