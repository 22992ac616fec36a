"""The limit for rendering a conversation in Python: minimal hand-written renderers.

Each function below writes exactly what one model's chat template writes for the sample
conversations of ``bench/conversations.py`` (checked against ``tooletta.render_conversation``
by ``bench/test_chat_limits.py``), and nothing more: straight string building specialised to
one template, the tool declarations remembered by the identity of the tools list, no lookup,
no hooks, no checks (no content refusal, no argument validation, no history rules beyond the
template's own). It answers the question the issue's target raises for the small templates:
how much faster than the Jinja template can *any* Python renderer be on these conversations?

    uv run --no-sync python bench/chat_limits.py     # jinja ÷ limit and native ÷ limit
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tooletta import Message

ROOT = Path(__file__).resolve().parent.parent
_dumps = json.JSONEncoder(ensure_ascii=False).encode

# -- Llama 3.1 / 3.3 (meta-llama tokenizer_config.json chat_template) ----------------------

_LLAMA_SYSTEM = (
    "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n"
    "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"
)
_LLAMA_TOOLS_SYSTEM = (
    "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nEnvironment: ipython\n"
    "Cutting Knowledge Date: December 2023\nToday Date: 26 Jul 2024\n\n"
)
_LLAMA_USER_TOOLS = (
    "<|start_header_id|>user<|end_header_id|>\n\nGiven the following functions, please "
    "respond with a JSON for a function call with its proper arguments that best answers the "
    'given prompt.\n\nRespond in the format {"name": function name, "parameters": dictionary '
    "of argument name and its value}.Do not use variables.\n\n"
)
_llama_tools: dict[int, tuple[Any, str]] = {}


def limit_llama31(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
    """Llama 3.1's template: tools in the first user message, one call per turn, results
    through ``tojson``."""
    parts = [_LLAMA_TOOLS_SYSTEM if tools else _LLAMA_SYSTEM]
    append = parts.append
    start = 0
    if messages and messages[0].role == "system":
        append(str(messages[0].content).strip())
        start = 1
    append("<|eot_id|>")
    if tools:
        cached = _llama_tools.get(id(tools))
        if cached is None or cached[0] is not tools:
            text = "".join(json.dumps(t, indent=4, ensure_ascii=False) + "\n\n" for t in tools)
            cached = (tools, _LLAMA_USER_TOOLS + text)
            _llama_tools[id(tools)] = cached
        append(cached[1] + str(messages[start].content).strip() + "<|eot_id|>")
        start += 1
    for m in messages[start:]:
        role = m.role
        if role == "tool":
            append(
                "<|start_header_id|>ipython<|end_header_id|>\n\n" + _dumps(m.content) + "<|eot_id|>"
            )
        elif m.tool_calls:
            c = m.tool_calls[0]
            append(
                f'<|start_header_id|>assistant<|end_header_id|>\n\n{{"name": "{c.name}", '
                f'"parameters": {_dumps(c.arguments)}}}<|eot_id|>'
            )
        else:
            append(
                f"<|start_header_id|>{role}<|end_header_id|>\n\n{str(m.content).strip()}<|eot_id|>"
            )
    return "".join(parts)


# -- Hermes 2 Pro (NousResearch tool_use template) ------------------------------------------

_HERMES_HEAD = (
    "<|begin_of_text|><|im_start|>system\nYou are a function calling AI model. You are "
    "provided with function signatures within <tools></tools> XML tags. You may call one or "
    "more functions to assist with the user query. Don't make assumptions about what values "
    "to plug into functions. Here are the available tools: <tools> "
)
_HERMES_TAIL = (
    " </tools>Use the following pydantic model json schema for each tool call you will make: "
    '{"properties": {"name": {"title": "Name", "type": "string"}, "arguments": {"title": '
    '"Arguments", "type": "object"}}, "required": ["name", "arguments"], "title": '
    '"FunctionCall", "type": "object"}}\nFor each function call return a json object with '
    "function name and arguments within <tool_call></tool_call> XML tags as follows:\n"
    '<tool_call>\n{"name": <function-name>, "arguments": <args-dict>}\n</tool_call><|im_end|>\n'
)
_PY_TYPES = {"string": "str", "number": "float", "integer": "int", "boolean": "bool"}
_hermes_tools: dict[int, tuple[Any, str]] = {}


def _hermes_tool(tool: Mapping[str, Any]) -> str:
    f = tool.get("function", tool)
    props = f["parameters"]["properties"]
    sig = ", ".join(f"{k}: {_PY_TYPES.get(v.get('type'), 'Any')}" for k, v in props.items())
    args = "".join(
        ("    Args:\n" if i == 0 else "")
        + f"        {k}({_PY_TYPES.get(v.get('type'), 'Any')}): {v.get('description', '').strip()}"
        for i, (k, v) in enumerate(props.items())
    )
    description = f"{f['name']}({sig}) - {f['description']}\n\n{args}"
    parameters = _dumps(f["parameters"]) if props else "{}"
    return (
        f'{{"type": "function", "function": {{"name": "{f["name"]}", "description": '
        f'"{description}", "parameters": {parameters}}}'
    )


def limit_hermes2pro(messages: Sequence[Message], tools: Sequence[Mapping[str, Any]]) -> str:
    """Hermes 2 Pro's tool_use template (calls without content beside them); its default
    template (ChatML) without tools."""
    cached = _hermes_tools.get(id(tools))
    if not tools:  # transformers picks the models' default template: plain ChatML
        cached = (tools, "<|begin_of_text|>")
    elif cached is None or cached[0] is not tools:
        cached = (tools, _HERMES_HEAD + "\n".join(map(_hermes_tool, tools)) + _HERMES_TAIL)
        _hermes_tools[id(tools)] = cached
    parts = [cached[1]]
    append = parts.append
    last = len(messages) - 1
    for i, m in enumerate(messages):
        role = m.role
        if role == "tool":
            if i and messages[i - 1].role != "tool":
                append("<|im_start|>tool\n")
            append(f"<tool_response>\n{m.content}\n</tool_response>")
            if i == last:
                append("<|im_end|>")
            else:
                append("\n")
                if messages[i + 1].role != "tool":
                    append("<|im_end|>")
        elif role == "assistant" and m.tool_calls:
            append("<|im_start|>assistant")
            for c in m.tool_calls:
                append(
                    f'\n<tool_call>\n{{"name": "{c.name}", "arguments": '
                    f"{_dumps(c.arguments)}}}\n</tool_call>"
                )
            append("<|im_end|>\n")
        else:
            append(f"<|im_start|>{role}\n{m.content}<|im_end|>\n")
    return "".join(parts)


LIMITS: dict[str, tuple[str, Callable[[Sequence[Message], Sequence[Mapping[str, Any]]], str]]] = {
    "llama31": ("meta-llama/Llama-3.1-8B-Instruct", limit_llama31),
    "hermes2pro": ("NousResearch/Hermes-2-Pro-Llama-3-8B", limit_hermes2pro),
}
"""Format name -> (model id, minimal renderer)."""


def main() -> None:
    """Print jinja / native / limit per conversation for each format with a limit."""
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conversations import bench_cases, best_of

    import tooletta
    from tooletta.chat.jinja import render_jinja

    print("| format | jinja µs | native µs | limit µs | jinja ÷ limit | native ÷ limit |")
    print("|---|---|---|---|---|---|")
    for name, (model, limit) in LIMITS.items():
        cls, cases, options = bench_cases(name)
        template = cls.template.read_text(encoding="utf-8")

        def native(cases: Any = cases, model: str = model, options: Any = options) -> None:
            for messages, tools in cases:
                tooletta.render_conversation(messages, model=model, tools=tools, **options)

        def jinja(
            cases: Any = cases, cls: Any = cls, template: str = template, options: Any = options
        ) -> None:
            for messages, tools in cases:
                render_jinja(template, messages, tools=tools, tokens=cls.tokens, **options)

        def minimal(cases: Any = cases, limit: Any = limit) -> None:
            for messages, tools in cases:
                limit(messages, tools)

        per = 1e6 / len(cases)
        times = {}
        for label, fn in (("jinja", jinja), ("native", native), ("limit", minimal)):
            fn()
            times[label] = best_of(fn, 200) * per
        print(
            f"| {name} | {times['jinja']:.1f} | {times['native']:.1f} | {times['limit']:.1f} "
            f"| {times['jinja'] / times['limit']:.1f} | {times['native'] / times['limit']:.1f} |"
        )


if __name__ == "__main__":
    main()
