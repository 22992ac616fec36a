"""The tool declarations the Qwen3-Coder family's templates write in the system turn.

Three spellings, pinned from the templates: the tools as one ``tojson`` line each (Qwen3.5,
Step-3.5-Flash), or as XML (``<function><name>...</name><parameters><parameter>...``; the
Qwen3-Coder and Nemotron 3 templates, which differ in how they write ``enum`` and
``required``; Qwen3-Coder-Next's writes the extra keys' values that are not strings as
``tojson``), each followed by the fixed instructions that show the call format. Xiaomi
MiMo-V2's templates write Qwen3-Coder's XML under their own heading and instructions
(:data:`MIMO_TOOLS_HEAD`, :data:`MIMO_CALL_FORMAT`: values written bare between their tags).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tooletta import to_json
from tooletta.plugin import by_content, tool_json

__all__ = [
    "CODER_TOOLS_HEAD",
    "FUNCTIONS_HEAD",
    "MIMO_CALL_FORMAT",
    "MIMO_TOOLS_HEAD",
    "STEP_TOOLS_HEAD",
    "call_format",
    "json_tools",
    "xml_tools",
]

CODER_TOOLS_HEAD = "# Tools\n\nYou have access to the following tools:\n\n<tools>"
"""Qwen3-Coder's line before the tool list."""
FUNCTIONS_HEAD = "# Tools\n\nYou have access to the following functions:\n\n<tools>"
"""Qwen3.5's and Nemotron 3's line before the tool list."""
STEP_TOOLS_HEAD = (
    "# Tools\n\nYou have access to the following functions in JSONSchema format:\n\n<tools>"
)
"""Step-3.5-Flash's line before the tool list."""
MIMO_TOOLS_HEAD = (
    "# Tools\n\nYou may call one or more functions to assist with the user query.\n\n"
    "You have access to the following functions:\n\n<tools>"
)
"""Xiaomi MiMo-V2's lines before the tool list (MiMo-V2-Flash, V2.5 and V2.5-Pro)."""

_MULTILINE = "This is the value for the second parameter\nthat can span\nmultiple lines"
_OPTIONAL = (
    "- You may provide optional reasoning for your function call in natural language BEFORE "
    "the function call, but NOT after\n- If there is no function call available, answer the "
    "question like normal with your current knowledge and do not tell the user about function "
    "calls\n"
)


def call_format(family: str) -> str:
    """The instructions after the tool list (``\\n</tools>`` included), as the ``family``'s
    template writes them: ``"coder"`` (Qwen3-Coder), ``"functions"`` (Qwen3.5, Nemotron 3) or
    ``"step"`` (Step-3.5-Flash)."""
    noun, second, rule, optional = {
        "coder": (
            "tool",
            "value_2",
            "the tool calling block MUST begin with an opening <tool_call> tag and end with a "
            "closing </tool_call> tag.",
            _OPTIONAL,
        ),
        "functions": (
            "function",
            _MULTILINE,
            "an inner <function=...></function> block must be nested within "
            "<tool_call></tool_call> XML tags",
            _OPTIONAL,
        ),
        "step": (
            "function",
            _MULTILINE,
            "an inner <function=...>\n...\n</function> block must be nested within "
            "<tool_call>\n...\n</tool_call> XML tags",
            "",
        ),
    }[family]
    return (
        f"\n</tools>\n\nIf you choose to call a {noun} ONLY reply in the following format with "
        "NO suffix:\n\n<tool_call>\n<function=example_function_name>\n"
        "<parameter=example_parameter_1>\nvalue_1\n</parameter>\n"
        f"<parameter=example_parameter_2>\n{second}\n</parameter>\n</function>\n</tool_call>"
        f"\n\n<IMPORTANT>\nReminder:\n- Function calls MUST follow the specified format: {rule}"
        f"\n- Required parameters MUST be specified\n{optional}</IMPORTANT>"
    )


MIMO_CALL_FORMAT = (
    "\n</tools>\n\nFor each function call, output the function name and arguments in the "
    "following format:\n<tool_call>\n<function=example_function_name>\n"
    "<parameter=example_parameter_1>value_1</parameter>\n"
    f"<parameter=example_parameter_2>{_MULTILINE}</parameter>\n</function>\n</tool_call>"
    "\n\n<IMPORTANT>\n- Function calls MUST follow the specified format: an inner "
    "<function=...></function> block must be nested within <tool_call></tool_call> XML tags\n"
    "- DO NOT use function calls inside <think></think> tags.\n- The value enclosed between "
    "parameter tags is preserved exactly as-is, including newlines and spaces.\n</IMPORTANT>"
)
"""Xiaomi MiMo-V2's text after the tool list (``\\n</tools>`` included): the call format,
its values bare between their tags."""


@by_content
def json_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """One ``tojson`` line per tool (each after a newline), remembered by the tools'
    content."""
    return "".join("\n" + tool_json(t) for t in tools)


def _string(value: Any) -> str:
    """A value as the templates' ``| string`` writes it (Python's ``str()``)."""
    return str(value)


def _extra_value(value: Any, json_scalars: bool) -> str:
    """An extra key's value: objects and arrays as ``tojson``; strings as they are; other
    scalars as ``| string`` (Python's ``str()``: ``True``, ``None``), or, with
    ``json_scalars`` (Qwen3-Coder-Next's template: ``tojson`` for everything that is not a
    string), as ``tojson`` (``true``, ``null``)."""
    if isinstance(value, (Mapping, list, tuple)) or (json_scalars and not isinstance(value, str)):
        return to_json(value)
    return _string(value)


def _extra(fields: Any, handled: tuple[str, ...], json_scalars: bool = False) -> str:
    """The templates' ``render_extra_keys``: every other key as ``\\n<KEY>VALUE</KEY>``
    (the value as :func:`_extra_value` writes it)."""
    if not isinstance(fields, Mapping):
        return ""
    out = []
    for key, value in fields.items():
        if key in handled:
            continue
        out.append(f"\n<{key}>{_extra_value(value, json_scalars)}</{key}>")
    return "".join(out)


def _xml_parameter(name: str, fields: Any, nemotron: bool, json_scalars: bool) -> str:
    text = f"\n<parameter>\n<name>{name}</name>"
    if isinstance(fields, Mapping):
        if "type" in fields:
            text += f"\n<type>{_string(fields['type'])}</type>"
        if "description" in fields:
            text += f"\n<description>{_string(fields['description']).strip()}</description>"
        if nemotron and "enum" in fields:
            text += f"\n<enum>{to_json(fields['enum'])}</enum>"
    handled = (
        ("name", "type", "description", "enum") if nemotron else ("name", "type", "description")
    )
    return text + _extra(fields, handled, json_scalars) + "\n</parameter>"


def _xml_tool(tool: Mapping[str, Any], nemotron: bool, json_scalars: bool = False) -> str:
    fn: Mapping[str, Any] = tool.get("function", tool)
    text = f"\n<function>\n<name>{_string(fn.get('name'))}</name>"
    if "description" in fn:
        text += f"\n<description>{_string(fn['description']).strip()}</description>"
    text += "\n<parameters>"
    params = fn.get("parameters")
    props = params.get("properties") if isinstance(params, Mapping) else None
    if isinstance(props, Mapping):
        text += "".join(_xml_parameter(str(k), v, nemotron, json_scalars) for k, v in props.items())
    if nemotron:
        text += _extra(params, ("type", "properties", "required"))
        if isinstance(params, Mapping) and "required" in params:
            text += f"\n<required>{to_json(params['required'])}</required>"
    else:
        text += _extra(params, ("type", "properties"), json_scalars)
    text += "\n</parameters>"
    text += _extra(fn, ("type", "name", "description", "parameters"), json_scalars)
    return text + "\n</function>"


def xml_tools(
    tools: Sequence[Mapping[str, Any]], *, nemotron: bool = False, json_scalars: bool = False
) -> str:
    """The tools as XML blocks, as the Qwen3-Coder template writes them (``nemotron``: as the
    Nemotron 3 template does, ``enum`` first among a parameter's extra keys and ``required``
    after the parameters' other keys; ``json_scalars``: as Qwen3-Coder-Next's does, an extra
    key's value that is not a string as ``tojson``). Remembered by the tools' content."""
    if nemotron:
        return _nemotron_xml_tools(tools)
    return _next_xml_tools(tools) if json_scalars else _coder_xml_tools(tools)


@by_content
def _coder_xml_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    return "".join(_xml_tool(t, False) for t in tools)


@by_content
def _nemotron_xml_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    return "".join(_xml_tool(t, True) for t in tools)


@by_content
def _next_xml_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    return "".join(_xml_tool(t, False, json_scalars=True) for t in tools)
