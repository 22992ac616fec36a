r"""Hugging Face's own response parser (``transformers.ResponseParser``) on the formats it can
describe, as the comparison the performance issue asks for.

transformers (≥ 5.13) parses a model's reply with a declarative *response template*: regions
opened and closed by literals or regexes, their body read by a content parser (``json``,
``xml-inline``...) and reshaped by a ``transform``. Checkpoints ship such a template in their
tokenizer config; the ones here follow the published examples (Qwen3's JSON and XML calls,
gpt-oss) and are written the same way for the other families, each checked to give exactly
the calls tooletta reads (``agrees``). transformers is a bench dependency only (dev group).

``hf_parse`` (one-shot: ``parse_response``) and ``hf_stream`` (``ResponseParser.feed`` per
delta, then ``finalize``) return the calls as ``(name, arguments)`` pairs.

Not here: Mistral's ``[TOOL_CALLS]name[ARGS]{...}`` has no closing marker; a close pattern
``(?=\[TOOL_CALLS\])|$`` reads it one-shot, but streamed, the parser commits the region only
at the end and its JSON reader then fails on the joined calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_FUNCTION = {"type": "function", "function": {"name": "{name}", "arguments": "{content}"}}


def _calls(field: dict[str, Any]) -> dict[str, Any]:
    return {
        "defaults": {"role": "assistant"},
        "start_anchor": "<|im_start|>assistant\n",
        "fields": {"tool_calls": {"repeats": True, **field}},
    }


def _kv(tag: str) -> dict[str, Any]:
    return {"tag_pattern": tag, "value_parser": {"name": "json", "args": {"allow_non_json": True}}}


TEMPLATES: dict[str, dict[str, Any]] = {
    # Qwen3 / Hermes: a JSON object {"name", "arguments"} per <tool_call> block
    "hermes": _calls(
        {
            "open": "<tool_call>",
            "close": "</tool_call>",
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        }
    ),
    # Qwen3-Coder / Qwen3.5: XML parameters, typed by the tools' schemas
    "qwen3_coder": _calls(
        {
            "open_pattern": r"<tool_call>\s*<function=(?P<name>[^>\n]+)>",
            "close_pattern": r"</function>\s*</tool_call>",
            "content": "xml-inline",
            "content_args": _kv(r"<parameter=(?P<key>[^>\n]+)>\n?(?P<value>.*?)\n?</parameter>"),
            "transform": _FUNCTION,
        }
    ),
    # GLM-4.5: key/value tags
    "glm45": _calls(
        {
            "open_pattern": r"<tool_call>(?P<name>[^<\n]+)",
            "close": "</tool_call>",
            "content": "xml-inline",
            "content_args": _kv(
                r"<arg_key>(?P<key>.*?)</arg_key>\s*<arg_value>(?P<value>.*?)</arg_value>"
            ),
            "transform": _FUNCTION,
        }
    ),
    # gpt-oss (harmony): the recipient in the header, JSON arguments up to <|call|>
    "harmony": _calls(
        {
            "open_pattern": (
                r"to=functions\.(?P<name>[^<\s]+)[^<]*"
                r"<\|channel\|>commentary[^<]*<\|message\|>"
            ),
            "close": "<|call|>",
            "content": "json",
            "transform": _FUNCTION,
        }
    ),
    "kimi_k2": _calls(
        {
            "open_pattern": (
                r"<\|tool_call_begin\|>functions\.(?P<name>[^:<]+):\d+"
                r"<\|tool_call_argument_begin\|>"
            ),
            "close": "<|tool_call_end|>",
            "content": "json",
            "transform": _FUNCTION,
        }
    ),
    "deepseek_v31": _calls(
        {
            "open_pattern": r"<｜tool▁call▁begin｜>(?P<name>[^<]+)<｜tool▁sep｜>",
            "close": "<｜tool▁call▁end｜>",
            "content": "json",
            "transform": _FUNCTION,
        }
    ),
}
"""Response templates per tooletta dialect (those transformers' parser can describe)."""


def available() -> bool:
    """Whether transformers (with its response parser) is installed."""
    try:
        from transformers.utils.chat_parsing import ResponseParser  # noqa: F401
    except ImportError:
        return False
    return True


def _pairs(message: dict[str, Any]) -> list[tuple[str, Any]]:
    return [
        (c["function"]["name"], c["function"]["arguments"]) for c in message.get("tool_calls", [])
    ]


def _hf_tools(tools: list[dict[str, Any]]) -> list[dict[Any, Any] | Callable[..., Any]]:
    """The tool list as transformers' parsers type it (a list of schemas or functions)."""
    return list[dict[Any, Any] | Callable[..., Any]](tools)


def hf_parse(dialect: str, text: str, tools: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """One-shot: ``parse_response`` of the whole text."""
    from transformers.utils.chat_parsing import parse_response

    return _pairs(parse_response(text, TEMPLATES[dialect], prefix="", tools=_hf_tools(tools)))


def hf_stream(
    dialect: str, deltas: list[str], tools: list[dict[str, Any]]
) -> list[tuple[str, Any]]:
    """Streaming: a ``ResponseParser`` fed every delta, then finalized."""
    from transformers.utils.chat_parsing import ResponseParser

    parser = ResponseParser(TEMPLATES[dialect], prefix="", tools=_hf_tools(tools))
    feed = parser.feed
    for d in deltas:
        feed(d)
    message, _ = parser.finalize()
    return _pairs(message)
