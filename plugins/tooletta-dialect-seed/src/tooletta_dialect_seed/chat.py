"""The Seed-OSS conversation format (the model's own chat template).

Pinned from ``ByteDance-Seed/Seed-OSS-36B-Instruct``'s ``chat_template.jinja`` (llama.cpp
``models/templates/ByteDance-Seed-OSS.jinja``). Every turn is ``<seed:bos>ROLE\\n`` + body +
``<seed:eos>``, with no text between turns:

* the opening system turn holds the system message (or, with tools and no system message,
  the fixed ``You are Doubao...`` prompt), then each function tool as a Python-style
  ``def NAME(ARG: TYPE,...):`` with a docstring listing ``Args:`` (``[必填]`` required,
  ``[选填]`` optional) and ``Returns:``, then the fixed tool-call instructions;
* with the ``thinking_budget`` switch (default ``-1``: nothing), a second system turn states
  the budget, and a budget of 0 also closes an empty think block in the generation prompt;
* an assistant turn writes ``<seed:think>REASONING</seed:think>`` (trimmed, kept in every
  turn), then ``\\n`` + the trimmed content, then the calls as the ``seed_oss_pystr`` dialect
  writes them (a blank line after the content);
* tool results are ``tool`` turns of their own, without call ids.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from tooletta import Message, RenderError, to_json
from tooletta.plugin import (
    AfterSystem,
    ChatFormat,
    Conversation,
    Neutral,
    Prompt,
    Reasoning,
    Turn,
    by_content,
    defaults,
    each_role,
    text_of,
)

__all__ = ["DOUBAO_SYSTEM", "TOOL_CALL_INSTRUCTIONS", "SeedOssChat", "seed_tools"]

BOS = "<seed:bos>"
EOS = "<seed:eos>"
THINK_OPEN = "<seed:think>"
THINK_CLOSE = "</seed:think>"
BUDGET_OPEN = "<seed:cot_budget_reflect>"
BUDGET_CLOSE = "</seed:cot_budget_reflect>"

DOUBAO_SYSTEM = (
    "You are Doubao, a helpful AI assistant. You may call one or more functions to assist with "
    "the user query."
)
"""The system prompt the template writes when there are tools and no system message."""
TOOL_CALL_INSTRUCTIONS = (
    "工具调用请遵循如下格式:\n<seed:tool_call>\n<function=example_function_name>\n"
    "<parameter=example_parameter_1>value_1</parameter>\n"
    "<parameter=example_parameter_2>This is the value for the second parameter\n"
    "that can span\nmultiple lines</parameter>\n</function>\n</seed:tool_call>\n"
)
"""The tool-call instructions ending the system turn when there are tools (template text)."""
JSON_TOOLS_HEAD = (
    "Tool List:\nYou are authorized to use the following tools (described in JSON Schema "
    "format). Before performing any task, you must decide how to call them based on the "
    "descriptions and parameters of these tools."
)
"""What precedes the JSON tool list with the ``use_json_tooldef`` switch (template text)."""
ZERO_BUDGET = (
    "You are an intelligent assistant that can answer questions in one step without the need "
    "for reasoning and thinking, that is, your thinking budget is 0. Next, please skip the "
    "thinking process and directly start answering the user's questions."
)
"""The budget turn's text for ``thinking_budget=0`` (template text)."""
_BUDGET = (
    "You are an intelligent assistant with reflective ability. In the process of thinking and "
    "reasoning, you need to strictly follow the thinking budget, which is {0}. That is, you "
    "need to complete your thinking within {0} tokens and start answering the user's "
    "questions. You will reflect on your thinking process every {1} tokens, stating how many "
    "tokens have been used and how many are left."
)
_BUDGET_RE = re.compile(re.escape(_BUDGET).replace(r"\{0\}", "(.*?)").replace(r"\{1\}", "(.*?)"))
ZERO_BUDGET_THINK = (
    f"{THINK_OPEN}\n{BUDGET_OPEN}The current thinking budget is 0, so I will directly start "
    f"answering the question.{BUDGET_CLOSE}\n{THINK_CLOSE}"
)
"""What the generation prompt writes after the assistant header with ``thinking_budget=0``."""
_REFLECTIONS = ((0, 0), (512, 128), (1024, 256), (2048, 512), (4096, 512), (8192, 1024))
"""The template's ``budget_reflections_v05`` gears below the last (16384 -> 1024)."""


def _py_type(spec: Any) -> str:
    """The template's ``py_type`` of a parameter schema's ``type``."""
    kind = spec.get("type") if isinstance(spec, Mapping) else None
    if kind == "string":
        return "str"
    if kind in ("number", "integer"):
        return "int"
    return {"boolean": "bool", "array": "list"}.get(kind, "Any") if isinstance(kind, str) else "Any"


def _note(spec: Any) -> str:
    """``" " ~ (spec.description or "")``."""
    found = spec.get("description") if isinstance(spec, Mapping) else None
    return " " + (str(found) if found else "")


def _section(function: Mapping[str, Any]) -> str:
    """One function tool as the template writes it (``def NAME(...):`` and its docstring)."""
    params = function.get("parameters") or {}
    props: Mapping[str, Any] = params.get("properties") or {}
    required = params.get("required") or ()
    signature = ",".join(f"{k}: {_py_type(v)}" for k, v in props.items())
    text = f'\n\nFunction:\ndef {function.get("name", "")}({signature}):\n    """\n    '
    text += str(function.get("description") or "").strip() + "\n\n"
    if props:
        text += "    Args:" + "".join(
            f"\n    - {k} ({_py_type(v)}) {'[必填]' if k in required else '[选填]'}:{_note(v)}"
            for k, v in props.items()
        )
    text += "\n"
    returns = function.get("returns")
    returned = returns.get("properties") if isinstance(returns, Mapping) else None
    if returned:
        text += "    Returns:" + "".join(
            f"\n    - {k} ({_py_type(v)}):{_note(v)}" for k, v in returned.items()
        )
    return text + '\n    """'


def seed_tools(tools: Sequence[Mapping[str, Any]], json_tooldef: bool = False) -> str:
    """The tool declarations the template writes after the system prompt: each function tool
    as a Python-style signature and docstring (``json_tooldef``: the whole list as JSON after
    the ``Tool List:`` text), then the tool-call instructions. Empty without tools."""
    if not tools:
        return ""
    if json_tooldef:
        listed = "\n" + JSON_TOOLS_HEAD + "\n" + to_json(list(tools))
    else:
        listed = _sections(tools)
    return listed + "\n" + TOOL_CALL_INSTRUCTIONS


@by_content
def _sections(tools: Sequence[Mapping[str, Any]]) -> str:
    """Each function tool's declaration, remembered by the tools' content (a dataset
    declares the same tools in every row)."""
    return "".join(
        _section(t["function"])
        for t in tools
        if t.get("type") == "function" and isinstance(t.get("function"), Mapping)
    )


def _interval(budget: Any) -> Any:
    """The reflection interval the template picks for ``budget`` (its first gear >= it)."""
    return next((v for k, v in _REFLECTIONS if budget <= k), 1024)


def _budget_turn(ctx: Conversation) -> str:
    """The thinking-budget system turn the ``thinking_budget`` switch writes after the opening
    system turn (nothing for the default ``-1``); a budget that is no number is refused."""
    budget = ctx.options.get("thinking_budget", -1)
    if not isinstance(budget, (int, float)):
        raise RenderError(f"thinking_budget must be a number, not {budget!r}")
    if budget == 0:
        text = ZERO_BUDGET
    elif budget == -1:
        return ""
    else:
        text = _BUDGET.format(budget, _interval(budget))
    return f"{BOS}system\n{text}\n{EOS}"


def _turn(role: str) -> Turn:
    return Turn(f"{BOS}{role}\n", EOS)


class SeedOssChat(ChatFormat):
    """Seed-OSS's template: ``<seed:bos>ROLE\\n`` ... ``<seed:eos>`` turns, Python-style tool
    declarations in the system turn, reasoning kept in every turn."""

    name = "seed_oss_36b"
    unwritten_options = defaults(system_message=Neutral())
    """``system_message`` given as a template variable is written as the system prompt (the
    template reads the name before setting it); refused when given."""
    source = "ByteDance-Seed/Seed-OSS-36B-Instruct chat_template.jinja"
    turns = each_role(_turn)
    end_of_turn = EOS
    special_tokens = (
        BOS,
        EOS,
        THINK_OPEN,
        THINK_CLOSE,
        "<seed:tool_call>",
        "</seed:tool_call>",
    )
    """The tokenizer's start and end tokens and the think and tool-call tags (vLLM's
    ``seed_oss`` parsers look the tags up as single tokens); the budget tags are left out,
    unchecked."""
    reasoning = Reasoning(THINK_OPEN, THINK_CLOSE, strip=None, keep="all", strip_first=True)
    keeps_ids = False
    options = defaults(thinking_budget=-1, use_json_tooldef=False)
    trim = frozenset(("assistant",))
    """The assistant's content is trimmed (:meth:`turn_body`)."""
    prompt = Prompt(off=ZERO_BUDGET_THINK, switch="thinking_budget", off_values=(0,))
    """The assistant header, and the closed budget-0 think block with ``thinking_budget=0``."""
    prompt_options = ()
    """None: the budget-0 prompt ending a text is read by :meth:`skip_before_turn`."""
    preamble = AfterSystem(_budget_turn, ())
    """The thinking-budget system turn, after the opening system turn (the ``thinking_budget``
    switch writes a system turn of the template's own there); read by
    :meth:`skip_before_turn`, which knows the turn by its whole body."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message (or, with tools, the Doubao prompt), then the declarations.
        Oddity: the declarations' form depends on ``use_json_tooldef``."""
        if system is None:
            if not ctx.tools:
                return None
            system = DOUBAO_SYSTEM
        return system + seed_tools(ctx.tools, bool(ctx.options.get("use_json_tooldef")))

    def parse_system(self, body: str) -> str | None:
        """The system message without the declarations; ``None`` for the Doubao prompt (with
        tools) and for a budget turn (the first turn when there is neither).

        Oddity: the reader of :meth:`system_text`'s two declaration forms and of the budget
        turn."""
        if self._budget_body(body):
            return None
        head, tools = body, body.endswith("\n" + TOOL_CALL_INSTRUCTIONS)
        if tools:
            head = body[: -len(TOOL_CALL_INSTRUCTIONS) - 1]
            cuts = [head.find(m) for m in ("\n\nFunction:\ndef ", "\n" + JSON_TOOLS_HEAD + "\n")]
            found = [c for c in cuts if c >= 0]
            head = head[: min(found)] if found else head
        return None if tools and head == DOUBAO_SYSTEM else head

    @staticmethod
    def _budget_body(body: str) -> bool:
        return body in (ZERO_BUDGET + "\n",) or (
            body.endswith("\n") and _BUDGET_RE.fullmatch(body[:-1]) is not None
        )

    def skip_before_turn(self, text: str, pos: int) -> int:
        """Past a thinking-budget turn, or past a ``thinking_budget=0`` generation prompt
        that ends the text.

        Oddity: the reader of the :attr:`preamble`'s budget turn, a system turn told from a
        system message only by its whole body (no fixed head and end a
        :class:`~tooletta.chat.Preamble`'s blocks could name), and of the budget-0 prompt,
        which no option set names."""
        prompt = self.turns["assistant"].header + ZERO_BUDGET_THINK
        if text.startswith(prompt, pos) and len(text) - pos == len(prompt):
            return len(text)
        header = f"{BOS}system\n"
        if not text.startswith(header, pos):
            return pos
        end = text.find(EOS, pos)
        if end >= 0 and self._budget_body(text[pos + len(header) : end]):
            return end + len(EOS)
        return pos

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The think block, then (after ``\\n``) the trimmed content and the calls. Oddity:
        the ``\\n`` is written only when both the block and the rest are there."""
        block = self.reasoning_text(message.reasoning, kept, last)
        rest = self.calls_text(ctx.dialect, message.tool_calls, text_of(message.content).strip())
        return block + ("\n" + rest if block and rest else rest)
