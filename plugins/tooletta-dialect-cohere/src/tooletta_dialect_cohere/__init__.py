"""Cohere tool calls: Command R7B / Command A action blocks, and Command R's ``Action:`` list.

Command R7B and Command A (vLLM's ``cohere_command3`` / ``cohere_command4``, SGLang's
``cohere_command4``) write one action block holding a JSON array of calls::

    <|START_THINKING|>I will look it up.<|END_THINKING|><|START_ACTION|>[
        {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Paris"}}
    ]<|END_ACTION|><|END_OF_TURN_TOKEN|>

``<|START_THINKING|>`` ... ``<|END_THINKING|>`` is reasoning (the tool plan),
``<|START_RESPONSE|>`` ... ``<|END_RESPONSE|>`` (cmd3) and ``<|START_TEXT|>`` ... ``<|END_TEXT|>``
(cmd4) are content, text without markers is content. ``tool_call_id`` is kept as the call id.

Command R / R+ (no peer parser) write ``Action: ```json`` and a JSON list of
``{"tool_name", "parameters"}`` closed by a fence, as Cohere's tool-use prompt asks; it is parsed
(no ids), and rendered by the ``command_r_plus`` variant.

Conversations (``render_conversation``): Command R7B's template is :mod:`.chat_r7b`
(``command_r7b``, on this dialect), North Mini Code's :mod:`.chat_north`
(``north_mini_code``, on this dialect), Command R+'s :mod:`.chat_r_plus` (on the variant).

Rendering reproduces the R7B template (``CohereForAI-c4ai-command-r7b-12-2024-tool_use.jinja``):
``<|START_THINKING|><|END_THINKING|>`` (the empty plan), then the action block with items
joined by ``,\\n`` and indented four spaces, arguments through ``tojson``; ids are kept, and a
call without one gets its index (``"0"``, ``"1"``, ...) as the template numbers them. A reply
without calls is ``<|START_RESPONSE|>content<|END_RESPONSE|>``. Deviation: the template has no
place for user-visible text next to calls (it writes the assistant text as the plan, which
reads back as reasoning); content is written as plain text before the plan, which Cohere's
peers read as content.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    ChatFormat,
    Grammar,
    Read,
    Reader,
    Trimmer,
    erase,
    fast_json_array,
    json_call_array,
    reasoning_region,
)
from tooletta.plugin import quote_json_string as json_string
from tooletta_dialect_cohere.models import MODELS

from .chat_north import NorthChat
from .chat_r7b import CommandR7BChat
from .tokens import (
    ACTION,
    ACTION_END,
    COMMAND_R_OPENS,
    END_OF_TURN,
    FENCE,
    RESPONSE,
    RESPONSE_END,
    TEXT,
    TEXT_END,
    THINKING,
    THINKING_END,
)

__all__ = ["CohereDialect", "register_dialects"]

_TOKENS = (ACTION, ACTION_END, THINKING, THINKING_END, RESPONSE, RESPONSE_END, TEXT, TEXT_END)
_CONTENT_TOKENS = (*_TOKENS, END_OF_TURN)
"""The tokens content may not hold (besides the grammar's markers)."""


_ACTION_KEYS: dict[str, Any] = {
    "name_keys": ("tool_name", "name"),
    "args_keys": ("parameters", "arguments"),
    "id_keys": ("tool_call_id", "id"),
}
_COMMAND_R_KEYS: dict[str, Any] = {"name_keys": ("tool_name",), "args_keys": ("parameters",)}


def read_action(r: Reader) -> Read[None]:
    """A JSON array of ``{"tool_call_id", "tool_name", "parameters"}``, then ``<|END_ACTION|>``
    (or the end of the text)."""
    yield from json_call_array(r, **_ACTION_KEYS)
    yield from r.close_or_end(ACTION_END)


def read_command_r(r: Reader) -> Read[None]:
    """Command R: a JSON list of ``{"tool_name", "parameters"}`` closed by a fence."""
    yield from json_call_array(r, **_COMMAND_R_KEYS)
    yield from r.close_or_end(FENCE)


def _content_block(end: str) -> Callable[[Reader], Read[None]]:
    def read(r: Reader) -> Read[None]:
        out = Trimmer(r.content, "space")
        yield from r.until((end,), out.feed, eof=True)
        out.close()

    read.__doc__ = f"Content up to {end!r} (whitespace just inside the tags dropped)."
    return read


class CohereDialect(ScannerDialect):
    """``<|START_ACTION|>[{"tool_call_id", "tool_name", "parameters"}, ...]<|END_ACTION|>``."""

    info = DialectInfo(
        name="cohere",
        aliases=("cohere_command3", "cohere_command4", "command_r", "command_a"),
        priority=90,
        markers=(ACTION, THINKING, RESPONSE, TEXT, *COMMAND_R_OPENS),
        description="Cohere: <|START_ACTION|>[{tool_call_id, tool_name, parameters}]<|END_ACTION|>",
        source=(
            "ggml-org/llama.cpp models/templates/CohereForAI-c4ai-command-r7b-12-2024-tool_use"
            ".jinja; vllm-project/vllm cohere_command_tool_parser.py (cohere_melody); "
            "sgl-project/sglang python/sglang/srt/function_call/cohere_command4_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(
                ACTION,
                read_action,
                close=ACTION_END,
                fast=fast_json_array(ACTION_END, **_ACTION_KEYS),
            ),
            *(
                Block(
                    o, read_command_r, close=FENCE, fast=fast_json_array(FENCE, **_COMMAND_R_KEYS)
                )
                for o in COMMAND_R_OPENS
            ),
            reasoning_region(THINKING, THINKING_END),
            Block(RESPONSE, _content_block(RESPONSE_END), close=RESPONSE_END, markup=False),
            Block(TEXT, _content_block(TEXT_END), close=TEXT_END, markup=False),
            erase(END_OF_TURN),
        )
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (CommandR7BChat(), NorthChat())
    _COMMAND_R = re.compile(r'Action:\s*```json\s*\[\s*(?:\{\s*"tool_name"|\])')

    def detect(self, text: str) -> bool:
        """Cohere's special tokens, or Command R's ``Action: ```json`` list of ``tool_name``s."""
        if any(t in text for t in (ACTION, THINKING, RESPONSE, TEXT)):
            return True
        return self._COMMAND_R.search(text) is not None

    def check_content(self, content: str) -> None:
        """Refuse content holding any Cohere special token or a Command R action opener
        (looked for only in content holding ``<|`` or ``Action:``: every one holds one)."""
        if "<|" not in content and "Action:" not in content:
            return
        super().check_content(content)
        for token in _CONTENT_TOKENS:
            if token in content:
                raise self.error(f"content contains the token {token!r}")

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The R7B template's assistant turn (see the module docstring)."""
        self.check_content(content)
        if not calls:
            return f"{RESPONSE}{content}{RESPONSE_END}" if content else ""
        return content + self.render_calls(list(calls))

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The empty plan, then the action block."""
        items = []
        for i, c in enumerate(calls):
            items.append(
                '    {"tool_call_id": '
                + json_string(c.id if c.id is not None else str(i))
                + ', "tool_name": '
                + json_string(c.name)
                + ', "parameters": '
                + to_json(c.arguments)
                + "}"
            )
        return _ACTIONS_OPEN + ",\n".join(items) + _ACTIONS_CLOSE


_ACTIONS_OPEN = THINKING + THINKING_END + ACTION + "[\n"
_ACTIONS_CLOSE = "\n]" + ACTION_END


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the cohere dialect and its Command R+ variant."""
    from .command_r_plus import CommandRPlusDialect

    for declared in (CohereDialect(), CommandRPlusDialect(), *MODELS):
        register(declared)
