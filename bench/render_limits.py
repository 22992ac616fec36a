"""The limit for ``bench/learn.py``: a minimal hand-written renderer per template it times.

Each function writes what one chat template of :data:`learn.TEMPLATES` writes, read from the
template's text: a loop over the messages (``tooletta.ir.Message`` structs, read by
attribute), string concatenation and one join, JSON through one C encoder built once with the
template's ``tojson`` settings (``json.dumps``' separators; ``ensure_ascii`` as the template
asks). The tool declarations' text is remembered by the identity of the tools list (as
``bench/chat_limits.py`` does), so a render with the same list pays for it once.

Minimal on purpose: no format lookup, no hooks, no checks (no markup refusal, no argument
validation), the options ``bench/learn.py`` passes (none: no generation prompt, no
``enable_thinking``), an empty ``bos_token``, string content only. The template's branches
that read message *values* on that path are kept (``'</think>' in content`` and the like:
a renderer of the template must make them, and they cost a ``in`` test); branches for list
content, documents or options never given are left out. ``bench/test_bench.py`` checks each
function against the template (``render_jinja``) on every conversation it is timed on.

    uv run --no-sync python bench/learn.py -n 40     # the limit µs and ratios per template
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tooletta.ir import Message

Tools = Sequence[Mapping[str, Any]]
Renderer = Callable[[Sequence[Message], Tools], str]


def _encoder(ensure_ascii: bool) -> Callable[[Any], str]:
    """``json.dumps(value, ensure_ascii=ensure_ascii)`` (the templates' ``tojson``) through
    the C encoder built once (``json.dumps`` builds one per value)."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:  # no C accelerator: the same text, slower
        return json.JSONEncoder(ensure_ascii=ensure_ascii).encode
    quote = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
    encode = make(None, None, quote, None, ": ", ", ", False, False, True)

    def dumps(value: Any) -> str:
        return "".join(encode(value, 0))

    return dumps


_tojson = _encoder(False)
_tojson_ascii = _encoder(True)


def _remembered(
    cache: dict[int, tuple[Tools, str]], tools: Tools, write: Callable[[Tools], str]
) -> str:
    """The declarations' text ``write(tools)``, written once per tools list (by identity)."""
    hit = cache.get(id(tools))
    if hit is None or hit[0] is not tools:
        hit = (tools, write(tools))
        cache[id(tools)] = hit
    return hit[1]


def _text(content: Any) -> str:
    """The message's content as the bench's conversations hold it (a string; ``None``: '')."""
    return content if type(content) is str else ""


def _hermes_calls(calls: Sequence[Any], sep: str) -> str:
    """The ``<tool_call>`` blocks of the Hermes-style templates (Bielik, Qwen2.5, Qwen3,
    Granite 4.0, QwQ), one a line, the first after ``sep``."""
    return sep + "\n".join(
        '<tool_call>\n{"name": "'
        + c.name
        + '", "arguments": '
        + _tojson(c.arguments)
        + "}\n</tool_call>"
        for c in calls
    )


# -- Bielik-11B-v3.0-Instruct ----------------------------------------------------------------

_BIELIK_TOOLS_HEAD = (
    "\n\nMasz dostęp do następujących narzędzi. Definicje narzędzi znajdują się poniżej "
    "wewnątrz znaczników <|function_list|>:\n<|function_list|>\n["
)
_BIELIK_TOOLS_TAIL = (
    ']\n<|function_list|>\n\nAby wywołać narzędzie, użyj formatu <tool_call>{"name": '
    '"nazwa_narzędzia", "arguments": {"argument": "wartość"}}</tool_call>. Wyniki działania '
    "narzędzi zostaną przekazane z markerem <|function_output|>.\n"
)
_bielik_tools: dict[int, tuple[Tools, str]] = {}


def _bielik_declarations(tools: Tools) -> str:
    """Bielik's ``<|function_list|>`` block: a ``tojson`` list, one tool a line."""
    return _BIELIK_TOOLS_HEAD + ",\n".join(map(_tojson, tools)) + _BIELIK_TOOLS_TAIL


def limit_bielik(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/Bielik-11B-v3.0-Instruct.jinja``. Its loop runs over the
    messages after the system message but reads its neighbours by the loop's index in the whole
    list (one place off when there is a system message); written the same way here."""
    out: list[str] = []
    append = out.append
    start = 0
    system = ""
    if messages[0].role == "system":
        system = _text(messages[0].content)
        start = 1
    if system or tools:
        append("<|im_start|>system\n" + system)
        if tools:
            append(_remembered(_bielik_tools, tools, _bielik_declarations))
        append("<|im_end|>\n")
    last = len(messages) - start - 1
    for i in range(last + 1):
        m = messages[start + i]
        role = m.role
        if role == "user":
            append("<|im_start|>user\n" + _text(m.content) + "<|im_end|>\n")
        elif role == "assistant":
            content = _text(m.content)
            reasoning = m.reasoning
            if not reasoning and "<think>" in content and "</think>" in content:
                parts = content.split("</think>")
                reasoning = parts[0].split("<think>")[-1]
                content = "</think>".join(parts[1:])
            if reasoning:
                append("<|im_start|>assistant\n<think>\n" + reasoning.strip() + "\n</think>\n")
            else:
                append("<|im_start|>assistant\n")
            append(content.lstrip())
            if m.tool_calls:
                append(_hermes_calls(m.tool_calls, "\n"))
            append("<|im_end|>\n")
        elif role == "tool":
            if i == 0 or messages[i - 1].role != "tool":
                append("<|im_start|>user\n")
            append("<|function_output|>" + _text(m.content))
            if i == last or messages[i + 1].role != "tool":
                append("<|im_end|>\n")
    return "".join(out)


# -- Reka Edge -------------------------------------------------------------------------------

_REKA_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
_REKA_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'
)
_reka_tools: dict[int, tuple[Tools, str]] = {}


def _reka_declarations(tools: Tools) -> str:
    """Reka Edge's ``<tools>`` block, one ASCII ``tojson`` line per tool."""
    return _REKA_TOOLS_HEAD + "".join("\n" + _tojson_ascii(t) for t in tools) + _REKA_TOOLS_TAIL


def limit_reka_edge(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/Reka-Edge.jinja``. Without ``enable_thinking`` it writes no
    reasoning (so its last-query scan decides nothing); JSON with ``ensure_ascii=True``."""
    out: list[str] = []
    append = out.append
    start = 0
    system = ""
    if messages and messages[0].role in ("system", "developer"):
        system = _text(messages[0].content)
        start = 1
    if tools or system:
        text = "system: " + system if system else ""
        if tools:
            text = (text + "\n\n" if text else "system: ") + _remembered(
                _reka_tools, tools, _reka_declarations
            )
        append(text + "\n\n<sep>")
    last = len(messages) - 1
    for idx in range(start, last + 1):
        m = messages[idx]
        role = m.role
        if role == "user":
            append("human: " + _text(m.content) + "<sep>")
        elif role == "assistant":
            content = _text(m.content)
            if not m.reasoning and "</think>" in content:
                content = content.split("</think>", 1)[1].lstrip("\n")
            append("assistant: " + content)
            if m.tool_calls:
                if content and not content.endswith("\n"):
                    append("\n")
                for c in m.tool_calls:
                    append(
                        '<tool_call>\n{"name": "'
                        + c.name
                        + '", "arguments": '
                        + _tojson_ascii(c.arguments)
                        + "}\n</tool_call>"
                    )
            append("\n\n<sep>")
        elif role == "tool":
            if idx == start or messages[idx - 1].role != "tool":
                append("human: ")
            append("<tool_response>\n" + _text(m.content) + "\n</tool_response>")
            if idx == last or messages[idx + 1].role != "tool":
                append("<sep>")
    return "".join(out)


# -- SmolLM3-3B ------------------------------------------------------------------------------

_SMOL_THINK_DEFAULT = (
    "You are a helpful AI assistant named SmolLM, trained by Hugging Face. Your role as an "
    "assistant involves thoroughly exploring questions through a systematic thinking process "
    "before providing the final precise and accurate solutions. This requires engaging in a "
    "comprehensive cycle of analysis, summarizing, exploration, reassessment, reflection, "
    "backtracking, and iteration to develop well-considered thinking process. Please structure "
    "your response into two main sections: Thought and Solution using the specified format: "
    "<think> Thought section </think> Solution section. In the Thought section, detail your "
    "reasoning process in steps. Each step should include detailed considerations such as "
    "analysing questions, summarizing relevant findings, brainstorming new ideas, verifying the "
    "accuracy of the current steps, refining any errors, and revisiting previous steps. In the "
    "Solution section, based on various attempts, explorations, and reflections from the "
    "Thought section, systematically present the final solution that you deem correct. The "
    "Solution section should be logical, accurate, and concise and detail necessary steps "
    "needed to reach the conclusion.\n\n"
)
_SMOL_PLAIN_DEFAULT = "You are a helpful AI assistant named SmolLM, trained by Hugging Face.\n\n"


def limit_smollm3(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/HuggingFaceTB-SmolLM3-3B.jinja`` (Unsloth's edit):
    ``enable_thinking`` not given reads as true; a ``/think`` or ``/no_think`` in the system
    message switches the mode. Tools are not written."""
    mode = "/think"
    custom = ""
    if messages[0].role == "system":
        system = _text(messages[0].content)
        if "/no_think" in system:
            mode = "/no_think"
        custom = system.replace("/no_think", "").replace("/think", "").rstrip()
    if custom:
        custom += "\n\n"
    elif mode == "/think":
        custom = _SMOL_THINK_DEFAULT
    else:
        custom = _SMOL_PLAIN_DEFAULT
    out = [
        "<|im_start|>system\n## Metadata\n\nKnowledge Cutoff Date: June 2025\nReasoning Mode: "
        + mode
        + "\n\n## Custom Instructions\n\n"
        + custom
        + "<|im_end|>\n"
    ]
    append = out.append
    head = (
        "<|im_start|>assistant\n"
        if mode == "/think"
        else "<|im_start|>assistant\n<think>\n\n</think>\n"
    )
    for m in messages:
        role = m.role
        if role == "user":
            append("<|im_start|>user\n" + _text(m.content) + "<|im_end|>\n")
        elif role == "assistant":
            append(head + _text(m.content).lstrip("\n") + "<|im_end|>\n")
        elif role == "tool":
            append("<|im_start|>user\n" + _text(m.content) + "<|im_end|>\n")
    return "".join(out)


# -- Qwen2.5-7B-Instruct ---------------------------------------------------------------------

_QWEN_TOOLS_HEAD = (
    "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You are provided with function signatures within <tools></tools> XML tags:\n<tools>"
)
_QWEN_TOOLS_TAIL = (
    "\n</tools>\n\nFor each function call, return a json object with function name and "
    "arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call><|im_end|>\n'
)
_QWEN25_DEFAULT = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."
_qwen_tools: dict[int, tuple[Tools, str]] = {}


def _qwen_declarations(tools: Tools) -> str:
    """Qwen's ``<tools>`` block (from the blank line after the system text), one ``tojson``
    line per tool, and the end of the system turn."""
    return _QWEN_TOOLS_HEAD + "".join("\n" + _tojson(t) for t in tools) + _QWEN_TOOLS_TAIL


def _qwen_results(out: list[str], messages: Sequence[Message], i: int, last: int) -> None:
    """A tool result as Qwen's templates write it: grouped in one user turn."""
    if i == 0 or messages[i - 1].role != "tool":
        out.append("<|im_start|>user")
    out.append("\n<tool_response>\n" + _text(messages[i].content) + "\n</tool_response>")
    if i == last or messages[i + 1].role != "tool":
        out.append("<|im_end|>\n")


def limit_qwen25(messages: Sequence[Message], tools: Tools) -> str:
    """``plugins/tooletta-dialect-hermes/tests/templates/Qwen-Qwen2.5-7B-Instruct.jinja``."""
    first = messages[0]
    system = _text(first.content) if first.role == "system" else _QWEN25_DEFAULT
    if tools:
        out = [
            "<|im_start|>system\n" + system + _remembered(_qwen_tools, tools, _qwen_declarations)
        ]
    else:
        out = ["<|im_start|>system\n" + system + "<|im_end|>\n"]
    append = out.append
    last = len(messages) - 1
    for i, m in enumerate(messages):
        role = m.role
        if role == "user" or (role == "system" and i) or (role == "assistant" and not m.tool_calls):
            append("<|im_start|>" + role + "\n" + _text(m.content) + "<|im_end|>\n")
        elif role == "assistant":
            content = _text(m.content)
            append("<|im_start|>assistant\n" + content if content else "<|im_start|>assistant")
            if m.tool_calls:
                append(_hermes_calls(m.tool_calls, "\n"))
            append("<|im_end|>\n")
        elif role == "tool":
            _qwen_results(out, messages, i, last)
    return "".join(out)


# -- Qwen3 -----------------------------------------------------------------------------------

_qwen3_tools: dict[int, tuple[Tools, str]] = {}


def _qwen3_declarations(tools: Tools) -> str:
    """Qwen3's ``<tools>`` block: Qwen2.5's without the blank line before it."""
    return _qwen_declarations(tools)[2:]


def limit_qwen3(messages: Sequence[Message], tools: Tools) -> str:
    """``plugins/tooletta-dialect-hermes/tests/templates/Qwen3.jinja``: reasoning written
    after the last real user query (for the last message, or one with reasoning)."""
    first = messages[0]
    if tools:
        head = "<|im_start|>system\n" + (
            _text(first.content) + "\n\n" if first.role == "system" else ""
        )
        out = [head + _remembered(_qwen3_tools, tools, _qwen3_declarations)]
    elif first.role == "system":
        out = ["<|im_start|>system\n" + _text(first.content) + "<|im_end|>\n"]
    else:
        out = []
    append = out.append
    last = len(messages) - 1
    last_query = last
    for index in range(last, -1, -1):
        m = messages[index]
        if m.role == "user":
            text = _text(m.content)
            if not (text.startswith("<tool_response>") and text.endswith("</tool_response>")):
                last_query = index
                break
    for i, m in enumerate(messages):
        role = m.role
        if role == "user" or (role == "system" and i):
            append("<|im_start|>" + role + "\n" + _text(m.content) + "<|im_end|>\n")
        elif role == "assistant":
            content = _text(m.content)
            reasoning = m.reasoning
            if not reasoning and "</think>" in content:
                reasoning = content.split("</think>")[0].rstrip("\n").split("<think>")[-1]
                reasoning = reasoning.lstrip("\n")
                content = content.split("</think>")[-1].lstrip("\n")
            if i > last_query and (i == last or reasoning):
                append(
                    "<|im_start|>assistant\n<think>\n"
                    + reasoning.strip("\n")
                    + "\n</think>\n\n"
                    + content.lstrip("\n")
                )
            else:
                append("<|im_start|>assistant\n" + content)
            if m.tool_calls:
                append(_hermes_calls(m.tool_calls, "\n" if content else ""))
            append("<|im_end|>\n")
        elif role == "tool":
            _qwen_results(out, messages, i, last)
    return "".join(out)


# -- Granite 4.0 -----------------------------------------------------------------------------

_GRANITE_TOOLS_HEAD = (
    "You are a helpful assistant with access to the following tools. You may call one or more "
    "tools to assist with the user query.\n\nYou are provided with function signatures within "
    "<tools></tools> XML tags:\n<tools>"
)
_GRANITE_TOOLS_TAIL = (
    "\n</tools>\n\nFor each tool call, return a json object with function name and arguments "
    "within <tool_call></tool_call> XML tags:\n<tool_call>\n"
    '{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>. If a tool does '
    "not exist in the provided list of tools, notify the user that you do not have the ability "
    "to fulfill the request."
)
_GRANITE_DEFAULT = (
    "You are a helpful assistant. Please ensure responses are professional, accurate, and safe."
)
_granite_tools: dict[int, tuple[Tools, str]] = {}


def _granite_declarations(tools: Tools) -> str:
    """Granite 4.0's tools system message, one ``tojson`` line per tool."""
    return _GRANITE_TOOLS_HEAD + "".join("\n" + _tojson(t) for t in tools) + _GRANITE_TOOLS_TAIL


def limit_granite40(messages: Sequence[Message], tools: Tools) -> str:
    """``plugins/tooletta-dialect-hermes/tests/templates/ibm-granite-granite-4.0.jinja``
    (no documents)."""
    declared = _remembered(_granite_tools, tools, _granite_declarations) if tools else ""
    first = messages[0]
    if first.role == "system":
        system = _text(first.content)
        if tools:
            system += "\n\n" + declared
    else:
        system = declared
    out = [
        "<|start_of_role|>system<|end_of_role|>"
        + (system or _GRANITE_DEFAULT)
        + "<|end_of_text|>\n"
    ]
    append = out.append
    last = len(messages) - 1
    for i, m in enumerate(messages):
        role = m.role
        content = _text(m.content)
        if role == "user" or (role == "system" and i):
            append("<|start_of_role|>" + role + "<|end_of_role|>" + content + "<|end_of_text|>\n")
        elif role == "assistant":
            append("<|start_of_role|>assistant<|end_of_role|>" + content)
            if m.tool_calls:
                append(_hermes_calls(m.tool_calls, "\n" if content else ""))
            append("<|end_of_text|>\n")
        elif role == "tool":
            if i == 0 or messages[i - 1].role != "tool":
                append("<|start_of_role|>user<|end_of_role|>")
            append("\n<tool_response>\n" + content + "\n</tool_response>")
            if i == last or messages[i + 1].role != "tool":
                append("<|end_of_text|>\n")
    return "".join(out)


# -- Kimi-K2 (llama.cpp's copy) --------------------------------------------------------------

_KIMI_HEADERS = {
    "system": "<|im_system|>system<|im_middle|>",
    "user": "<|im_user|>user<|im_middle|>",
    "assistant": "<|im_assistant|>assistant<|im_middle|>",
    "tool": "<|im_system|>tool<|im_middle|>",
}
_kimi_tools: dict[int, tuple[Tools, str]] = {}


def _kimi_declarations(tools: Tools) -> str:
    """Kimi K2's ``tool_declare`` turn: the tools as one ``tojson`` list."""
    return "<|im_system|>tool_declare<|im_middle|>" + _tojson(list(tools)) + "<|im_end|>"


def limit_kimi_k2(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/moonshotai-Kimi-K2.jinja`` (llama.cpp's copy): the
    declarations as one ``tojson`` list; a result's header holds a literal backslash-n (the
    template writes ``\\n`` outside an expression) and the call's id, empty when it has
    none; call ids ``functions.NAME:INDEX`` by the call's place in its turn."""
    out = [_remembered(_kimi_tools, tools, _kimi_declarations) if tools else ""]
    append = out.append
    if messages and messages[0].role != "system":
        append("<|im_system|>system<|im_middle|>You are a helpful assistant<|im_end|>")
    headers = _KIMI_HEADERS
    for m in messages:
        role = m.role
        content = _text(m.content)
        head = headers.get(role, "")
        if role == "assistant" and m.tool_calls:
            append(head + content + "<|tool_calls_section_begin|>")
            for n, c in enumerate(m.tool_calls):
                append(
                    "<|tool_call_begin|>functions."
                    + c.name
                    + ":"
                    + str(n)
                    + "<|tool_call_argument_begin|>"
                    + _tojson(c.arguments)
                    + "<|tool_call_end|>"
                )
            append("<|tool_calls_section_end|><|im_end|>")
        elif role == "tool":
            append(head + "## Return of " + (m.tool_call_id or "") + "\\n" + content + "<|im_end|>")
        else:
            append(head + content + "<|im_end|>")
    return "".join(out)


# -- QwQ-32B (llama.cpp's copy) --------------------------------------------------------------

_qwq_tools: dict[int, tuple[Tools, str]] = {}


def limit_qwq(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/Qwen-QwQ-32B.jinja`` (llama.cpp's copy): answers before the
    last message lose the text up to their last ``</think>``."""
    first = messages[0]
    if tools:
        system = _text(first.content) if first.role == "system" else ""
        out = ["<|im_start|>system\n" + system + _remembered(_qwq_tools, tools, _qwen_declarations)]
    elif first.role == "system":
        out = ["<|im_start|>system\n" + _text(first.content) + "<|im_end|>\n"]
    else:
        out = []
    append = out.append
    last = len(messages) - 1
    for i, m in enumerate(messages):
        role = m.role
        if role == "user" or (role == "system" and i):
            append("<|im_start|>" + role + "\n" + _text(m.content) + "<|im_end|>\n")
        elif role == "assistant":
            given = _text(m.content)
            content = given.split("</think>")[-1].lstrip("\n") if i != last else given
            if not m.tool_calls:
                append("<|im_start|>assistant\n" + content + "<|im_end|>\n")
                continue
            append("<|im_start|>assistant\n" + content if given else "<|im_start|>assistant")
            if m.tool_calls:
                append(_hermes_calls(m.tool_calls, "\n"))
            append("<|im_end|>\n")
        elif role == "tool":
            _qwen_results(out, messages, i, last)
    return "".join(out)


# -- RWKV World (llama.cpp) ------------------------------------------------------------------


def limit_rwkv_world(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/llama-cpp-rwkv-world.jinja``: the last system message
    first, user and assistant texts trimmed, tool results and calls not written."""
    system = ""
    for m in messages:
        if m.role == "system":
            system = _text(m.content)
    out = ["System: " + system + "\n\n"] if system else []
    append = out.append
    for m in messages:
        role = m.role
        if role == "user":
            append("User: " + _text(m.content).strip() + "\n\n")
        elif role == "assistant" and m.content is not None:
            content = _text(m.content)
            if "</think>" in content:
                content = content.split("</think>")[-1]
            append("Assistant: " + content.strip() + "\n\n")
    return "".join(out)


# -- DeepSeek V3.1 (llama.cpp's copy) --------------------------------------------------------


def limit_deepseek_v31(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/deepseek-ai-DeepSeek-V3.1.jinja`` (llama.cpp's copy,
    thinking off): every system message first, joined by a blank line; tools are not
    declared."""
    systems = [_text(m.content) for m in messages if m.role == "system"]
    out = ["\n\n".join(systems)]
    append = out.append
    last_user = False
    after_tool = False
    for m in messages:
        role = m.role
        if role == "user":
            after_tool = False
            last_user = True
            append("<｜User｜>" + _text(m.content))
        elif role == "assistant":
            content = _text(m.content)
            if m.tool_calls:
                if last_user:
                    append("<｜Assistant｜><think></think>")
                last_user = after_tool = False
                opener = content + "<｜tool▁calls▁begin｜>"
                for c in m.tool_calls:
                    append(
                        opener
                        + "<｜tool▁call▁begin｜>"
                        + c.name
                        + "<｜tool▁sep｜>"
                        + _tojson(c.arguments)
                        + "<｜tool▁call▁end｜>"
                    )
                    opener = ""
                append("<｜tool▁calls▁end｜><｜end▁of▁sentence｜>")
            else:
                if last_user:
                    append("<｜Assistant｜><think></think>")
                last_user = False
                if after_tool:
                    after_tool = False
                elif "</think>" in content:
                    content = content.split("</think>", 1)[1]
                append(content + "<｜end▁of▁sentence｜>")
        elif role == "tool":
            last_user = False
            after_tool = True
            append("<｜tool▁output▁begin｜>" + _text(m.content) + "<｜tool▁output▁end｜>")
    return "".join(out)


# -- EXAONE 4.0 ------------------------------------------------------------------------------

_EXAONE_TOOLS_HEAD = (
    "# Available Tools\nYou can use none, one, or multiple of the following tools by calling "
    "them as functions to help with the user\u2019s query.\nHere are the tools available to you "
    "in JSON format within <tool> and </tool> tags:\n"
)
_EXAONE_TOOLS_TAIL = (
    "\nFor each function call you want to make, return a JSON object with function name and "
    'arguments within <tool_call> and </tool_call> tags, like:\n<tool_call>{"name": '
    'function_1_name, "arguments": {argument_1_name: argument_1_value, argument_2_name: '
    'argument_2_value}}</tool_call>\n<tool_call>{"name": function_2_name, "arguments": {...}}'
    "</tool_call>\n...\nNote that if no argument name is specified for a tool, you can just "
    "print the argument value directly, without the argument name or JSON formatting."
)
_exaone_tools: dict[int, tuple[Tools, str]] = {}
_EXAONE_EMPTY_THINK = "<think>\n\n</think>\n\n"


def _exaone_declarations(tools: Tools) -> str:
    """EXAONE 4.0's ``available_tools`` block: one ``<tool>`` line per tool."""
    return (
        _EXAONE_TOOLS_HEAD
        + "".join("<tool>" + _tojson(t) + "</tool>\n" for t in tools)
        + _EXAONE_TOOLS_TAIL
    )


def limit_exaone(messages: Sequence[Message], tools: Tools) -> str:
    """``tests/fixtures/templates/LGAI-EXAONE-EXAONE-4.0-1.2B.jinja``. With ``skip_think``
    (its default) every answer with text or calls opens with an empty think block; the
    text after ``</think>`` is kept, stripped; each tool result is ``{"result": tojson}``."""
    out: list[str] = []
    append = out.append
    last = len(messages) - 1
    for i in range(last + 1):
        m = messages[i]
        role = m.role
        if i == 0:
            if role == "system":
                text = "[|system|]\n" + _text(m.content)
                if tools:
                    text += "\n\n" + _remembered(_exaone_tools, tools, _exaone_declarations)
                append(text + "[|endofturn|]\n")
                continue
            if tools:
                declarations = _remembered(_exaone_tools, tools, _exaone_declarations)
                append("[|system|]\n" + declarations + "[|endofturn|]\n")
        if role == "assistant":
            append("[|assistant|]\n")
            content = _text(m.content)
            if content:
                text = content.split("</think>")[-1].strip() if "</think>" in content else content
                append(_EXAONE_EMPTY_THINK + text)
            if m.tool_calls:
                append("\n" if content else _EXAONE_EMPTY_THINK)
                append(
                    "\n".join(
                        '<tool_call>{"name": "'
                        + c.name
                        + '", "arguments": '
                        + _tojson(c.arguments)
                        + "}</tool_call>"
                        for c in m.tool_calls
                    )
                )
            append("[|endofturn|]\n")
        elif role == "tool":
            if i == 0 or messages[i - 1].role != "tool":
                append("[|tool|]\n")
            append('<tool_result>{"result": ' + _tojson(_text(m.content)) + "}</tool_result>")
            append("[|endofturn|]\n" if i == last or messages[i + 1].role != "tool" else "\n")
        else:
            append("[|" + role + "|]\n" + _text(m.content) + "[|endofturn|]\n")
    return "".join(out)


LIMITS: dict[str, Renderer] = {
    "Bielik-11B-v3.0-Instruct": limit_bielik,
    "Reka-Edge": limit_reka_edge,
    "SmolLM3-3B": limit_smollm3,
    "Qwen2.5-7B-Instruct": limit_qwen25,
    "Qwen3": limit_qwen3,
    "Granite-4.0": limit_granite40,
    "Kimi-K2 (llama.cpp)": limit_kimi_k2,
    "QwQ-32B (llama.cpp)": limit_qwq,
    "RWKV-World (llama.cpp)": limit_rwkv_world,
    "DeepSeek-V3.1 (llama.cpp)": limit_deepseek_v31,
    "EXAONE-4.0-1.2B": limit_exaone,
}
"""Label of :data:`learn.TEMPLATES` -> its minimal renderer ``(messages, tools) -> text``."""
