"""``response_template`` dicts for tooletta's first-party dialects, and why some cannot have one.

Each template is written for transformers' own ``parse_response`` (5.13 and later) and checked
by tooletta's tests against the dialect's golden fixtures, run through transformers itself.
The templates follow the conventions of transformers' and TRL's shipped ones: a leading
``\\s*`` on openers and a trailing one on closes (so that the whitespace between two calls
never opens an empty ``content`` region, whose close would overwrite the real content), a
``reasoning_content`` field where the format marks reasoning, and a leftover ``content``
field that ends at the format's end-of-turn tokens.

What the spec cannot say, ``TEMPLATE_GAPS`` lists, per dialect, with the reason. Some
templates cover one form of a dialect only, or need the request's ``tools`` to type text
values (transformers types them by schema from 5.15 on); ``TEMPLATE_NOTES`` says so.
"""

from __future__ import annotations

import copy
from typing import Any

from ...errors import ToolettaError

__all__ = ["TEMPLATE_GAPS", "TEMPLATE_NOTES", "exportable_dialects", "to_response_template"]

_FUNCTION = {"type": "function", "function": "{content}"}
_NAMED = {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}}
_EACH = {"type": "function", "function": {"name": "{name}", "arguments": "{arguments}"}}
_TEXT_RAW = {"name": "text", "args": {"strip": False}}
"""A parameter written verbatim (typed by the request's tools)."""


def _think(open: str = "<think>", close: str = "</think>") -> dict[str, Any]:
    return {"open": open, "close_pattern": _escape(close) + r"\s*", "content": "text"}


def _escape(literal: str) -> str:
    """``literal`` as a regular expression (``re.escape``, but leaving spaces and ``<>=``
    alone, for templates that stay readable)."""
    out = []
    for ch in literal:
        out.append("\\" + ch if ch in ".^$*+?{}[]\\|()" else ch)
    return "".join(out)


def _template(
    anchor: str,
    calls: dict[str, Any],
    *,
    ends: tuple[str, ...] = (),
    reasoning: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if reasoning is not None:
        fields["reasoning_content"] = reasoning
    fields["tool_calls"] = calls
    fields.update(extra or {})
    content: dict[str, Any] = {"content": "text"}
    if ends:
        content["close_pattern"] = r"\s*(?:" + "|".join(_escape(e) for e in ends) + r")\s*"
    fields["content"] = content
    return {"defaults": {"role": "assistant"}, "start_anchor": anchor, "fields": fields}


def _region(open_pattern: str, close_pattern: str, **rest: Any) -> dict[str, Any]:
    return {"open_pattern": open_pattern, "close_pattern": close_pattern, "repeats": True, **rest}


_IM_ASSISTANT = "<|im_start|>assistant\n"

_TEMPLATES: dict[str, dict[str, Any]] = {
    "hermes": _template(
        _IM_ASSISTANT,
        _region(r"\s*<tool_call>", r"</tool_call>\s*", content="json", transform=_FUNCTION),
        ends=("<|im_end|>",),
        reasoning=_think(),
    ),
    "qwen3_coder": _template(
        _IM_ASSISTANT,
        _region(
            r"\s*<tool_call>\s*<function=(?P<name>[^>\n]+)>",
            r"\s*</function>\s*</tool_call>\s*",
            content="xml-inline",
            content_args={
                "tag_pattern": r"<parameter=(?P<key>[^>\n]+)>\n?(?P<value>.*?)\n?</parameter>",
                "value_parser": _TEXT_RAW,
            },
            transform=_NAMED,
        ),
        ends=("<|im_end|>", "<|endoftext|>"),
        reasoning=_think(),
    ),
    "glm45": _template(
        "<|assistant|>",
        _region(
            r"\s*<tool_call>\s*(?P<name>[^\s<]+)\s*",
            r"</tool_call>\s*",
            content="xml-inline",
            content_args={
                "tag_pattern": (
                    r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)</arg_value>"
                ),
                "value_parser": _TEXT_RAW,
            },
            transform=_NAMED,
        ),
        ends=("<|user|>", "<|observation|>", "<|endoftext|>"),
        reasoning=_think(),
    ),
    "llama3_json": _template(
        "<|start_header_id|>assistant<|end_header_id|>\n\n",
        _region(
            r'\s*(?:<\|python_tag\|>)?\s*\{"name":\s*"(?P<name>[^"]+)",\s*"(?:parameters|arguments)":\s*',
            r"\}\s*(?:;\s*|<\|eom_id\|>\s*|<\|eot_id\|>\s*|\Z)",
            content="json",
            transform=_NAMED,
        ),
        ends=("<|eot_id|>", "<|eom_id|>"),
    ),
    "gemma4": _template(
        "<|turn>model\n",
        _region(
            r"\s*<\|tool_call>call:(?P<name>[\w.\-]+)",
            r"\s*<tool_call\|>\s*",
            content="json",
            content_args={"unquoted_keys": True, "string_delims": [['<|"|>', '<|"|>']]},
            transform=_NAMED,
        ),
        ends=("<turn|>", "<|tool_response>", "<eos>"),
        reasoning={
            "open_pattern": r"<\|channel>(?:thought)?\n?",
            "close_pattern": r"<channel\|>\s*",
            "content": "text",
        },
    ),
    "functiongemma": _template(
        "<start_of_turn>model\n",
        _region(
            r"\s*<start_function_call>call:(?P<name>[\w.\-]+)",
            r"\s*<end_function_call>\s*",
            content="json",
            content_args={"unquoted_keys": True, "string_delims": [["<escape>", "<escape>"]]},
            transform=_NAMED,
        ),
        ends=("<end_of_turn>", "<start_function_response>"),
    ),
    "lfm2": _template(
        _IM_ASSISTANT,
        {
            "open_pattern": r"\s*<\|tool_call_start\|>(?=\s*\[)",
            "close_pattern": r"\s*<\|tool_call_end\|>\s*",
            "content": "python-call-list",
            "transform": _EACH,
            "transform_each": True,
        },
        ends=("<|im_end|>",),
        reasoning=_think(),
    ),
    "pythonic": _template(
        "<|header_start|>assistant<|header_end|>\n\n",
        {
            "open_pattern": (
                r"\s*(?:<\|python_start\|>)?(?=\[\s*[A-Za-z_][\w.\-]*\(.*\]\s*"
                r"(?:<\|python_end\|>|<\|eot\|>|<\|eom\|>|<\|eot_id\|>|<\|eom_id\|>)*\s*\Z)"
            ),
            "close_pattern": (
                r"\s*(?:<\|python_end\|>\s*|(?=<\|eot\|>|<\|eom\|>|<\|eot_id\|>|<\|eom_id\|>)|\Z)"
            ),
            "content": "python-call-list",
            "transform": _EACH,
            "transform_each": True,
        },
        ends=("<|eot|>", "<|eom|>", "<|eot_id|>", "<|eom_id|>"),
    ),
    "mistral": _template(
        "[/INST]",
        _region(
            r"\s*\[TOOL_CALLS\](?P<name>[^\[\]{}\s]+)(?:\[CALL_ID\][^\[]*)?\[ARGS\]",
            r"(?=\[TOOL_CALLS\])|\s*</s>\s*|\Z",
            content="json",
            transform=_NAMED,
        ),
        ends=("</s>",),
        reasoning=_think("[THINK]", "[/THINK]"),
    ),
}

_EACH_ID = {
    "type": "function",
    "id": "{tool_call_id}",
    "function": {"name": "{tool_name}", "arguments": "{parameters}"},
}
_LLAMA_HEADER = "<|start_header_id|>assistant<|end_header_id|>\n\n"


def _invoke(
    prefix: str,
    section: str,
    section_end: str,
    invoke: str,
    parameter: str,
    *,
    typed: bool = False,
    call_open: str = "",
    call_close: str = "",
) -> dict[str, Any]:
    """``<invoke name="X"><parameter name="k">v</parameter></invoke>`` calls (MiniMax-M2,
    DSML, GCML, StepTML...), optionally inside a section and a per-call frame."""
    string = r'(?: string="(?:true|false)")?' if typed else ""
    return _region(
        rf"\s*(?:{section}\s*)?{call_open}<{prefix}{invoke} name=\"(?P<name>[^\"]+)\"\s*>",
        rf"\s*</{prefix}{invoke}>\s*{call_close}(?:{section_end}\s*)?",
        content="xml-inline",
        content_args={
            "tag_pattern": (
                rf"<{prefix}{parameter} name=\"(?P<key>[^\"]+)\"{string}>(?P<value>.*?)"
                rf"</{prefix}{parameter}>"
            ),
            "value_parser": _TEXT_RAW,
        },
        transform=_NAMED,
    )


def _kv_tags(
    open_pattern: str, close_pattern: str, key: str, value: str, end: str
) -> dict[str, Any]:
    """``NAME<key>k</key><value>v</value>...`` calls (Hunyuan, K2-Horizon, Solar)."""
    return _region(
        open_pattern,
        close_pattern,
        content="xml-inline",
        content_args={
            "tag_pattern": rf"{key}(?P<key>.*?){value}(?P<value>.*?){end}",
            "value_parser": _TEXT_RAW,
        },
        transform=_NAMED,
    )


_TEMPLATES.update(
    {
        "deepseek_v3": _template(
            "<｜Assistant｜>",
            _region(
                r"\s*(?:<｜tool▁calls▁begin｜>)?\s*<｜tool▁call▁begin｜>function<｜tool▁sep｜>"
                r"(?P<name>[^\n]+)\n```(?:json)?\n",
                r"\s*```\s*<｜tool▁call▁end｜>\s*(?:<｜tool▁calls▁end｜>\s*)?",
                content="json",
                transform=_NAMED,
            ),
            ends=("<｜end▁of▁sentence｜>",),
            reasoning=_think(),
        ),
        "deepseek_v31": _template(
            "<｜Assistant｜>",
            _region(
                r"\s*(?:<｜tool▁calls▁begin｜>)?\s*<｜tool▁call▁begin｜>(?P<name>[^<]+?)<｜tool▁sep｜>",
                r"\s*<｜tool▁call▁end｜>\s*(?:<｜tool▁calls▁end｜>\s*)?",
                content="json",
                transform=_NAMED,
            ),
            ends=("<｜end▁of▁sentence｜>",),
            reasoning=_think(),
        ),
        "deepseek_v32": _template(
            "<｜Assistant｜>",
            _invoke(
                "｜DSML｜",
                "<｜DSML｜function_calls>",
                "</｜DSML｜function_calls>",
                "invoke",
                "parameter",
                typed=True,
            ),
            ends=("<｜end▁of▁sentence｜>",),
            reasoning=_think(),
        ),
        "deepseek_v4": _template(
            "<｜Assistant｜>",
            _invoke(
                r"｜DSML｜\s?",
                r"<｜DSML｜\s?(?:tool_calls|calls)>",
                r"</｜DSML｜\s?(?:tool_calls|calls)>",
                "invoke",
                "parameter",
                typed=True,
            ),
            ends=("<｜end▁of▁sentence｜>",),
            reasoning=_think(),
        ),
        "gigachat35": _template(
            "assistant<|role_sep|>\n",
            _invoke(
                "｜GCML｜",
                "<｜GCML｜tool_calls>",
                "</｜GCML｜tool_calls>",
                "invoke",
                "parameter",
                typed=True,
            ),
            ends=("<|message_sep|>", "</s>"),
            reasoning=_think(),
        ),
        "minimax_m2": _template(
            "]~b]ai\n",
            _invoke("", "<minimax:tool_call>", "</minimax:tool_call>", "invoke", "parameter"),
            ends=("[e~[",),
            reasoning=_think(),
        ),
        "dots": _template(
            "<|response|>",
            _invoke("", "<dots_function_call>", "</dots_function_call>", "invoke", "parameter"),
            ends=("<|endofresponse|>",),
        ),
        "step3": _template(
            "<|BOT|>assistant\n",
            _invoke(
                "steptml:",
                "<｜tool_calls_begin｜>",
                "<｜tool_calls_end｜>",
                "invoke",
                "parameter",
                call_open=r"<｜tool_call_begin｜>function<｜tool_sep｜>",
                call_close=r"<｜tool_call_end｜>\s*",
            ),
            ends=("<|EOT|>",),
            reasoning=_think(),
        ),
        "kimi_k2": _template(
            "<|im_assistant|>assistant<|im_middle|>",
            _region(
                r"\s*(?:<\|tool_calls?_section_begin\|>)?\s*<\|tool_call_begin\|>\s*"
                r"(?P<id>(?:functions\.)?(?P<name>[\w.\-]+?):\d+)\s*<\|tool_call_argument_begin\|>",
                r"\s*<\|tool_call_end\|>\s*(?:<\|tool_calls?_section_end\|>\s*)?",
                content="json",
                transform={
                    "type": "function",
                    "id": "{id}",
                    "function": {"name": "{name}", "arguments": "{content}"},
                },
            ),
            ends=("<|im_end|>",),
            reasoning=_think(),
        ),
        "kimi": _template(
            "<|im_assistant|>assistant<|im_middle|>",
            _region(
                r"(?:\A|\n)[ \t]*## Calling:[ \t]*(?P<name>\S+)[ \t]*\r?\n",
                r"\s*(?=\n[^\s}\]])|\s*\Z",
                content="json",
                transform=_NAMED,
            ),
            ends=("<|im_end|>",),
        ),
        "kimi_k3": {
            "defaults": {"role": "assistant"},
            "start_anchor": '<|open|>message role="assistant"<|sep|>',
            "fields": {
                "reasoning_content": _think("<|open|>think<|sep|>", "<|close|>think<|sep|>"),
                "tool_calls": _region(
                    r'\s*(?:<\|open\|>tools<\|sep\|>)?\s*<\|open\|>call tool="(?P<name>[^"]*)"'
                    r'(?: index="\d+")?<\|sep\|>',
                    r"\s*<\|close\|>call<\|sep\|>\s*(?:<\|close\|>tools<\|sep\|>\s*)?",
                    content="xml-inline",
                    content_args={
                        "tag_pattern": (
                            r'<\|open\|>argument key="(?P<key>[^"]*)"(?: type="[^"]*")?<\|sep\|>'
                            r"(?P<value>.*?)<\|close\|>argument<\|sep\|>"
                        ),
                        "value_parser": _TEXT_RAW,
                    },
                    transform=_NAMED,
                ),
                "markup": {
                    "open_pattern": (
                        r"<\|open\|>(?:response|message[^<]*)<\|sep\|>|"
                        r"<\|close\|>message<\|sep\|>|<\|end_of_msg\|>"
                    ),
                    "close_pattern": "",
                    "content": "text",
                },
                "content": {
                    "close_pattern": r"\s*<\|close\|>response<\|sep\|>\s*",
                    "content": "text",
                },
            },
        },
        "harmony": {
            "defaults": {"role": "assistant"},
            "start_anchor": "<|start|>assistant",
            "fields": {
                "reasoning_content": {
                    "open_pattern": (
                        r"\s*(?:<\|start\|>assistant)?<\|channel\|>analysis<\|message\|>"
                    ),
                    "close_pattern": r"<\|end\|>\s*|(?=<\|start\|>)",
                    "content": "text",
                },
                "tool_calls": _region(
                    r"\s*(?:<\|start\|>assistant)?\s*(?:"
                    r"<\|channel\|>(?:commentary|analysis) to=(?:functions\.)?(?P<name>[^\s<]+)"
                    r"|to=(?:functions\.)?(?P<name>[^\s<]+)\s*<\|channel\|>(?:commentary|analysis))"
                    r"\s*(?:<\|constrain\|>)?\s*(?:json)?<\|message\|>",
                    r"<\|call\|>\s*|(?=<\|start\|>)|\Z",
                    content="json",
                    transform=_NAMED,
                ),
                "content": {
                    "open_pattern": (
                        r"\s*(?:<\|start\|>assistant)?<\|channel\|>(?:final|commentary)<\|message\|>"
                    ),
                    "close_pattern": r"<\|return\|>\s*|<\|end\|>\s*|(?=<\|start\|>)",
                    "content": "text",
                    "repeats": True,
                    "join": "\n\n",
                },
            },
        },
        "cohere": _template(
            "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
            {
                "open": "<|START_ACTION|>",
                "close_pattern": r"\s*<\|END_ACTION\|>\s*",
                "content": "json",
                "transform": _EACH_ID,
                "transform_each": True,
            },
            ends=("<|END_RESPONSE|>", "<|END_TEXT|>", "<|END_OF_TURN_TOKEN|>"),
            reasoning=_think("<|START_THINKING|>", "<|END_THINKING|>"),
            extra={
                "markup": {
                    "open_pattern": r"<\|START_(?:RESPONSE|TEXT)\|>",
                    "close_pattern": "",
                    "content": "text",
                }
            },
        ),
        "command_r_plus": _template(
            "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>",
            {
                "open_pattern": r"\s*Action:\s*```json\s*",
                "close_pattern": r"\s*```\s*",
                "content": "json",
                "transform": {
                    "type": "function",
                    "function": {"name": "{tool_name}", "arguments": "{parameters}"},
                },
                "transform_each": True,
            },
            ends=("<|END_OF_TURN_TOKEN|>",),
        ),
        "functionary_v31": _template(
            _LLAMA_HEADER,
            _region(
                r"\s*<function=(?P<name>[^>]+)>",
                r"</function>\s*",
                content="json",
                transform=_NAMED,
            ),
            ends=("<|eom_id|>", "<|eot_id|>"),
        ),
        "functionary_v32": _template(
            _LLAMA_HEADER + ">>>",
            _region(
                r"(?:\A|>>>)(?!all\n)(?P<name>[\w.\-]+)\n",
                r"\s*(?=>>>)|\s*<\|eot_id\|>\s*|\Z",
                content="json",
                transform=_NAMED,
            ),
            ends=("<|eot_id|>",),
            extra={"markup": {"open_pattern": r"(?:\A|>>>)all\n", "close_pattern": ""}},
        ),
        "gigachat3": _template(
            "assistant<|role_sep|>\n",
            _region(
                r"\s*(?:<\|message_sep\|>\s*function call<\|role_sep\|>|<\|function_call\|>)\s*",
                r"\s*(?=<\|message_sep\|>)|\s*</s>\s*|\Z",
                content="json",
                transform=_FUNCTION,
            ),
            ends=("</s>", "<|message_sep|>"),
        ),
        "gigachat31": _template(
            "assistant<|role_sep|>\n",
            _region(
                r"\s*(?:<\|message_sep\|>\s*function call<\|role_sep\|>|<\|function_call\|>)\s*",
                r"\s*(?=<\|message_sep\|>|<\|function_call\|>)|\s*</s>\s*|\Z",
                content="json",
                transform=_FUNCTION,
            ),
            ends=("</s>", "<|message_sep|>"),
        ),
        "granite": _template(
            "<|start_of_role|>assistant<|end_of_role|>",
            {
                "open_pattern": r"\s*(?:<\|tool_call\|>|<tool_call>)\s*(?=\[)",
                "close_pattern": r"\s*</tool_call>\s*|(?=<\|end_of_text\|>)|\Z",
                "content": "json",
                "transform": _EACH,
                "transform_each": True,
            },
            ends=("<|end_of_text|>",),
        ),
        "granite_20b_fc": _template(
            "ASSISTANT:",
            _region(
                r"\s*<function_call>\s*",
                r"\s*(?=<function_call>)|\s*<\|endoftext\|>\s*|\Z",
                content="json",
                transform=_FUNCTION,
            ),
            ends=("<|endoftext|>",),
        ),
        "hunyuan_v3": _template(
            "<｜hy_Assistant｜>",
            _kv_tags(
                r"\s*(?:<tool_calls(?::opensource)?>)?\s*<tool_call(?::opensource)?>"
                r"(?P<name>[^<]+?)<tool_sep(?::opensource)?>",
                r"\s*</tool_call(?::opensource)?>\s*(?:</tool_calls(?::opensource)?>\s*)?",
                r"<arg_key(?::opensource)?>",
                r"</arg_key(?::opensource)?>\s*<arg_value(?::opensource)?>",
                r"</arg_value(?::opensource)?>",
            ),
            ends=("<｜hy_eos:opensource｜>", "<｜hy_eos｜>"),
            reasoning={
                "open_pattern": r"<think(?::opensource)?>",
                "close_pattern": r"</think(?::opensource)?>\s*",
                "content": "text",
            },
        ),
        "k2_horizon": _template(
            "<|ifm|im_start|>assistant\n",
            _kv_tags(
                r"\s*(?:<ifm\|tool_calls>)?\s*<ifm\|tool_call>\s*(?P<name>[^\s<]+)\s*",
                r"</ifm\|tool_call>\s*(?:</ifm\|tool_calls>\s*)?",
                r"<ifm\|arg_key>",
                r"</ifm\|arg_key>\s*(?:<ifm\|arg_type>[^<]*</ifm\|arg_type>\s*)?<ifm\|arg_value>",
                r"</ifm\|arg_value>",
            ),
            ends=("<|ifm|im_end|>",),
            reasoning={
                "open_pattern": r"<ifm\|think(?:_fast|_faster)?>",
                "close_pattern": r"</ifm\|think(?:_fast|_faster)?>\s*",
                "content": "text",
            },
        ),
        "solar_open2": _template(
            "<|begin|>assistant",
            _kv_tags(
                r"\s*<\|tool_call:start\|>\s*(?P<name>[^\s<]+)\s*",
                r"\s*<\|tool_call:end\|>\s*",
                r"<\|tool_arg:start\|>",
                r"<\|tool_arg:value\|>",
                r"<\|tool_arg:end\|>",
            ),
            ends=("<|im:end|>", "<|endoftext|>"),
            reasoning=_think("<|think:start|>", "<|think:end|>"),
        ),
        "solar_open": _template(
            "<|begin|>assistant",
            _region(
                r"\s*(?:<\|begin\|>assistant)?(?:<\|tool_calls\|>)?\s*<\|tool_call:begin\|>"
                r"(?P<id>[^<]*)<\|tool_call:name\|>(?P<name>[^<]+?)<\|tool_call:args\|>",
                r"\s*<\|tool_call:end\|>\s*(?:<\|calls\|>\s*)?",
                content="json",
                transform={
                    "type": "function",
                    "id": "{id}",
                    "function": {"name": "{name}", "arguments": "{content}"},
                },
            ),
            ends=("<|end|>",),
            reasoning={
                "open": "<|think|>",
                "close_pattern": r"<\|end\|>\s*(?:<\|begin\|>assistant)?",
                "content": "text",
            },
        ),
        "inkling": {
            "defaults": {"role": "assistant"},
            "start_anchor": "<|message_model|>",
            "fields": {
                "reasoning_content": {
                    "open": "<|message_model|><|content_thinking|>",
                    "close_pattern": r"<\|end_message\|>\s*",
                    "content": "text",
                    "repeats": True,
                    "join": "\n\n",
                },
                "tool_calls": _region(
                    r"\s*(?:<\|message_model\|>[^<]*)?<\|content_invoke_tool_json\|>",
                    r"\s*<\|end_message\|>\s*",
                    content="json",
                    transform={
                        "type": "function",
                        "function": {"name": "{content.name}", "arguments": "{content.args}"},
                    },
                ),
                "content": {
                    "open": "<|message_model|><|content_text|>",
                    "close_pattern": r"<\|end_message\|>\s*",
                    "content": "text",
                    "repeats": True,
                    "join": "\n\n",
                },
            },
        },
        "internlm": _template(
            _IM_ASSISTANT,
            _region(
                r"\s*<\|action_start\|>\s*<\|plugin\|>\s*",
                r"\s*<\|action_end\|>\s*",
                content="json",
                transform={
                    "type": "function",
                    "function": {"name": "{content.name}", "arguments": "{content.parameters}"},
                },
            ),
            ends=("<|im_end|>",),
        ),
        "jamba": _template(
            "<|start_of_role|>assistant<|end_of_role|>",
            {
                "open_pattern": r"\s*<tool_calls>",
                "close_pattern": r"\s*</tool_calls>\s*",
                "content": "json",
                "transform": _EACH,
                "transform_each": True,
            },
            ends=("<|eos|>", "<|end|>"),
            reasoning={
                "open_pattern": "<think(?:ing)?>",
                "close_pattern": r"</think(?:ing)?>\s*",
                "content": "text",
            },
        ),
        "longcat": _template(
            "ASSISTANT:",
            _region(
                r"\s*<longcat_tool_call>",
                r"</longcat_tool_call>\s*",
                content="json",
                transform=_FUNCTION,
            ),
            ends=("</longcat_s>",),
            reasoning=_think("<longcat_think>", "</longcat_think>"),
        ),
        "minicpm5": _template(
            _IM_ASSISTANT,
            _region(
                r"\s*<function name=[\"'](?P<name>[^\"']+)[\"']>",
                r"\s*</function>\s*",
                content="xml-inline",
                content_args={
                    "tag_pattern": r"<param name=[\"'](?P<key>[^\"']+)[\"']>(?P<value>.*?)</param>",
                    "value_parser": {"name": "text"},
                },
                transform=_NAMED,
            ),
            ends=("<|im_end|>",),
            reasoning=_think(),
        ),
        "minimax_m1": _template(
            "<beginning_of_sentence>ai name=MiniMax AI\n",
            _region(
                r'\s*(?:<tool_calls>)?\s*\{"name":\s*"(?P<name>[^"]+)",\s*"arguments":\s*',
                r"\}[ \t]*(?:\r?\n\s*(?:</tool_calls>\s*)?|</tool_calls>\s*|\Z)",
                content="json",
                transform=_NAMED,
            ),
            ends=("<end_of_sentence>",),
            reasoning=_think(),
        ),
        "minimax_m3": _template(
            "]~b]ai\n",
            _region(
                r"\s*(?:\]<\]minimax\[>\[\s*<tool_call>\s*)?\]<\]minimax\[>\[\s*"
                r"<invoke name=\"(?P<name>[^\"]+)\">",
                r"\]<\]minimax\[>\[\s*</invoke>\s*(?:\]<\]minimax\[>\[\s*</tool_call>\s*)?",
                content="xml-inline",
                content_args={
                    "tag_pattern": (
                        r"\]<\]minimax\[>\[\s*<(?P<key>[^\s<>/]+)>(?P<value>[^\]]*?)"
                        r"\]<\]minimax\[>\[\s*</(?P=key)>"
                    ),
                    "value_parser": _TEXT_RAW,
                },
                transform=_NAMED,
            ),
            ends=("[e~[",),
            reasoning=_think("<mm:think>", "</mm:think>"),
        ),
        "muse": {
            "defaults": {"role": "assistant"},
            "start_anchor": "<|start|>assistant",
            "fields": {
                "reasoning_content": {
                    "open_pattern": r"\s*(?:<\|start\|>assistant)?\s*to=self<\|message\|>",
                    "close_pattern": r"<\|eom\|>\s*|<\|eot\|>\s*|(?=<\|start\|>)",
                    "content": "text",
                },
                "tool_calls": _region(
                    r"\s*(?:(?:<\|start\|>assistant)?\s*to=[^<]*<\|message\|>)?\s*"
                    r"(?:<atem:function_calls>)?\s*<atem:invoke name=\"(?P<name>[^\"]+)\">",
                    r"\s*</atem:invoke>\s*(?:</atem:function_calls>\s*)?(?:<\|eom\|>\s*|<\|eot\|>\s*)?",
                    content="xml-inline",
                    content_args={
                        "tag_pattern": (
                            r"<atem:parameter name=\"(?P<key>[^\"]+)\">(?P<value>.*?)"
                            r"</atem:parameter>"
                        ),
                        "value_parser": _TEXT_RAW,
                    },
                    transform=_NAMED,
                ),
                "content": {
                    "open_pattern": r"\s*(?:<\|start\|>assistant)?\s*to=user<\|message\|>",
                    "close_pattern": r"<\|eom\|>\s*|<\|eot\|>\s*|(?=<\|start\|>)",
                    "content": "text",
                },
            },
        },
        "nemotron": _template(
            "<SPECIAL_11>Assistant\n",
            {
                "open_pattern": r"\s*<TOOLCALL>(?=\s*\[)",
                "close_pattern": r"\s*</TOOLCALL>\s*",
                "content": "json",
                "transform": _EACH,
                "transform_each": True,
            },
            ends=("<SPECIAL_12>", "<|eot_id|>"),
            reasoning=_think(),
        ),
        "phi4_mini": _template(
            "<|assistant|>",
            {
                "open_pattern": r"\s*functools(?=\[)",
                "close_pattern": r"\s*(?=<\|end\|>|<\|eot_id\|>)|\Z",
                "content": "json",
                "transform": _EACH,
                "transform_each": True,
            },
            ends=("<|end|>", "<|eot_id|>"),
        ),
        "react": _template(
            "Thought:",
            _region(
                r"\s*Action:[ \t]*(?P<name>[^\n]+?)[ \t]*\r?\nAction Input:[ \t]*",
                r"\s*(?=\n(?:Action|Observation|Thought|Final Answer)\b)|\s*\Z",
                content="json",
                transform=_NAMED,
            ),
        ),
        "seed_oss": _template(
            "<seed:bos>assistant\n",
            _region(
                r"\s*<seed:tool_call>\s*<function=(?P<name>[^>\n]+)>",
                r"\s*</function>\s*</seed:tool_call>\s*",
                content="xml-inline",
                content_args={
                    "tag_pattern": r"<parameter=(?P<key>[^>\n]+)>\n?(?P<value>.*?)\n?</parameter>",
                    "value_parser": _TEXT_RAW,
                },
                transform=_NAMED,
            ),
            ends=("<seed:eos>",),
            reasoning=_think("<seed:think>", "</seed:think>"),
        ),
        "vcp": _template(
            _IM_ASSISTANT,
            _region(
                r"\s*<<<\[TOOL_REQUEST\]>>>\s*tool_name:「始」(?P<name>.*?)「末」,?\s*",
                r"\s*<<<\[END_TOOL_REQUEST\]>>>\s*",
                content="xml-inline",
                content_args={
                    "tag_pattern": r"(?P<key>[^\s:,「」]+):「始」(?P<value>.*?)「末」",
                    "value_parser": {"name": "text"},
                },
                transform=_NAMED,
            ),
            ends=("<|im_end|>",),
            reasoning=_think(),
        ),
        "xlam": _template(
            _LLAMA_HEADER,
            {
                "open_pattern": r"\s*(?:<tool_call>|\[TOOL_CALLS\]|```(?:json)?)?\s*(?=\[\s*\{)",
                "close_pattern": r"\s*</tool_call>\s*|\s*```\s*|(?=<\|eot_id\|>|<\|im_end\|>)|\Z",
                "content": "json",
                "transform": _EACH,
                "transform_each": True,
            },
            ends=("<|eot_id|>", "<|im_end|>"),
            reasoning=_think(),
        ),
    }
)

_TEMPLATES["glm46"] = _TEMPLATES["glm45"]  # the 4.5/4.6 newline form reads the same
_TEMPLATES["seed_oss_pystr"] = _TEMPLATES["seed_oss"]  # the same tags; values typed by tools
_TEMPLATES["mistral_v13"] = _TEMPLATES["mistral"]  # no [CALL_ID]: the same template
_TEMPLATES["lfm25"] = _TEMPLATES["lfm2"]  # unescaped strings: the same block
_TEMPLATES["nemotron3"] = _TEMPLATES["qwen3_coder"]  # other newlines around the calls
_TEMPLATES["step35"] = _TEMPLATES["qwen3_coder"]  # calls right after the content
_TEMPLATES["apriel"] = _TEMPLATES["jamba"]  # a line break before <tool_calls>: read the same
_TEMPLATES["longcat_flash_chat"] = _TEMPLATES["longcat"]  # no line breaks around: read the same
_TEMPLATES["dots3"] = _template(  # dots3-note: a block per call, values between line breaks
    "<|assistant|>",
    _region(
        r'\s*<dots_function_call>\s*<invoke name="(?P<name>[^"]+)"\s*>',
        r"\s*</invoke>\s*</dots_function_call>\s*",
        content="xml-inline",
        content_args={
            "tag_pattern": r'<parameter name="(?P<key>[^"]+)">\n?(?P<value>.*?)\n?</parameter>',
            "value_parser": _TEXT_RAW,
        },
        transform=_NAMED,
    ),
    ends=("<|endofassistant|>",),
    reasoning=_think(),
)
_TEMPLATES["mistral_v3"] = _template(  # Mistral-Nemo: [TOOL_CALLS][{...}, ...]
    "[/INST]",
    {
        "open_pattern": r"\s*\[TOOL_CALLS\]\s*(?=\[)",
        "close_pattern": r"\s*</s>\s*|\Z",
        "content": "json",
        "transform": _EACH,
        "transform_each": True,
    },
    ends=("</s>",),
)

TEMPLATE_NOTES: dict[str, str] = {
    "qwen3_coder": "parameter values are text: pass the request's tools to type them",
    "dots3": "parameter values are text: pass the request's tools to type them",
    "nemotron3": "parameter values are text: pass the request's tools to type them",
    "step35": "parameter values are text: pass the request's tools to type them",
    "glm45": "argument values are text: pass the request's tools to type them",
    "llama3_json": "a call's name must come before its parameters",
    "mistral": (
        "the v11 form (name[ARGS]{json}); the pre-v11 JSON array needs a second tool_calls "
        "field, and an optional [CALL_ID] an optional placeholder, which the spec has neither "
        "of: ids are not kept"
    ),
    "mistral_v13": "ids are not kept (see mistral)",
    "mistral_v3": "the JSON array form; ids are not kept (an optional placeholder)",
    "pythonic": "a list that ends the reply (a template cannot tell a list in prose apart)",
    "lfm2": (
        "one <|tool_call_start|> block per reply: a second block's list replaces the first "
        "(a list-valued field cannot repeat)"
    ),
    "lfm25": (
        "the lfm2 template (see lfm2); python-call-list reads Python syntax, in which a raw "
        "line break inside a '...' string (the LFM2.5 form) is not valid"
    ),
    "deepseek_v32": "values are text whatever string= says: pass the request's tools to type them",
    "deepseek_v4": "values are text whatever string= says: pass the request's tools to type them",
    "gigachat35": "values are text whatever string= says: pass the request's tools to type them",
    "kimi_k2": "the id is the header (functions.NAME:IDX), kept as the call's id",
    "solar_open": "<|content|> before a reply stays in the content",
    "kimi_k3": (
        "argument values are text whatever type= says (pass the request's tools); the "
        "<|open|>json form of arguments is a second shape the field cannot also have"
    ),
    "harmony": "text outside the channels is dropped (the template has no leftover field)",
    "cohere": "Command A's action list; Command R's 'Action: ```json' form is not read",
    "seed_oss_pystr": "objects and arrays are Python str(): typed back only by the tools",
    "command_r_plus": "Command R+'s 'Action: ```json' list only (no action blocks)",
    "inkling": "text outside the messages is dropped; a tool's arguments are under 'args'",
    "internlm": "InternLM2's 'parameters' key (the model's own output), not 'arguments'",
    "minimax_m3": "flat arguments: an object or list written as nested elements stays text",
    "muse": "text outside the channels is dropped",
    "vcp": "tool_name must come first; 「始ESCAPE」 values are not unescaped",
    "react": "JSON action inputs; content keeps the Thought: lines",
    "phi4_mini": "a call's arguments must be under 'arguments'",
}

TEMPLATE_GAPS: dict[str, str] = {
    "apertus": (
        'each call is an object whose only key is the tool\'s name ({"get_weather": {...}}); '
        "a transform reads fixed keys only"
    ),
    "canonical": (
        "the whole reply is one JSON document holding both the content and the calls; a "
        "region's value goes to one message field"
    ),
    "cline": (
        "calls are XML elements named after the tools themselves (<read_file>): the opener "
        "depends on the request's tools, and a close pattern cannot refer back to the opener"
    ),
    "llama4_json": (
        "the content is written inside <|python_start|>...<|python_end|> before the calls: "
        "text outside the regions all goes to the one catch-all content field, which cannot "
        "drop those two tokens"
    ),
    "olmo3": (
        "calls are written one per line, not as a list: python-call-list needs [...], and "
        "splitting calls with a regular expression cannot balance brackets in arguments"
    ),
    "olmo3_instruct": "the olmo3 block, calls one per line (see olmo3)",
    "openai": (
        "OpenAI's JSON carries the arguments as a JSON string, which a transform cannot "
        "decode, and the content inside the same document"
    ),
    "sarashina": (
        "calls are Python dict literals: json's string_delims cannot honour escaped quotes, "
        "True/False/None are not JSON, and python-call-list reads calls, not dicts"
    ),
}


def exportable_dialects() -> list[str]:
    """The dialects :func:`to_response_template` writes a template for."""
    return sorted(_TEMPLATES)


def to_response_template(dialect: str) -> dict[str, Any]:
    """A ``response_template`` for ``dialect`` (a name or alias), for transformers'
    ``parse_response`` (a fresh copy: store it as ``tokenizer.response_template``).

    Raises :class:`~tooletta.ToolettaError` naming the reason for a dialect the spec cannot
    express (``TEMPLATE_GAPS``), and :class:`~tooletta.UnknownDialectError` for an
    unknown name.
    """
    from ... import api

    name = api.get_dialect(dialect).info.name
    template = _TEMPLATES.get(name)
    if template is None:
        reason = TEMPLATE_GAPS.get(name, "no response_template is written for it yet")
        raise ToolettaError(f"dialect {name!r} has no response_template: {reason}")
    return copy.deepcopy(template)
