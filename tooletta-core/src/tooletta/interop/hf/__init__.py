"""Interop with Hugging Face response parsing (transformers ``parse_response``).

transformers (5.13 and later) parses a model's reply with a declarative ``response_template``
stored in ``tokenizer_config.json`` (``tokenizer.parse_response(text, prefix=...)``). This
module meets it from both sides, without importing transformers:

* :func:`parse_response` parses with tooletta and returns transformers' message dict, so it
  drops in where ``tokenizer.parse_response`` was called;
* :func:`to_response_template` writes a ``response_template`` for a tooletta dialect, for a
  model that ships none (``TEMPLATE_GAPS`` says which dialects the spec cannot express, and
  why; ``TEMPLATE_NOTES``, where a template covers one form of a dialect, which). Each
  dialect declares its own (:mod:`tooletta.interop.hf.spec` says how, and has the helpers
  tooletta's templates are built with);
* :func:`dialect_from_response_template` reads a model's template into a tooletta dialect that
  parses, streams (arguments as they arrive), detects and renders like any other, with
  tooletta's lenient recovery (a malformed block becomes ``unparsed``; the rest survives).

>>> from tooletta.interop import hf
>>> call = '{"name": "get_weather", "arguments": {"city": "Paris"}}'
>>> message = hf.parse_response(f"Let me check.\\n<tool_call>\\n{call}\\n</tool_call>")
>>> message["content"], message["tool_calls"][0]["function"]
('Let me check.', {'name': 'get_weather', 'arguments': {'city': 'Paris'}})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import ParseError
from ...ir import DialectInfo, ParseResult
from . import learned as _learned  # noqa: F401  (registers the learned formats' export)
from ._dialect import TemplateDialect, detect_markers
from ._export import TEMPLATE_GAPS, TEMPLATE_NOTES, exportable_dialects, to_response_template
from ._template import TemplateError, load_template

__all__ = [
    "TEMPLATE_GAPS",
    "TEMPLATE_NOTES",
    "TemplateDialect",
    "TemplateError",
    "dialect_from_response_template",
    "exportable_dialects",
    "parse_response",
    "result_to_message",
    "to_response_template",
]


def result_to_message(result: ParseResult) -> dict[str, Any]:
    """A :class:`~tooletta.ParseResult` as transformers' assistant message dict.

    ``role`` and ``content`` are always there; ``reasoning_content`` and ``tool_calls`` only
    when not empty (as transformers leaves out empty fields); a call carries ``id`` when the
    format wrote one. Malformed blocks, which transformers would raise on, are kept under
    ``unparsed`` (``raw``, ``error``, ``offset``) when there are any.
    """
    message: dict[str, Any] = {"role": "assistant", "content": result.content}
    if result.reasoning:
        message["reasoning_content"] = result.reasoning
    if result.calls:
        items = []
        for call in result.calls:
            item: dict[str, Any] = {}
            if call.id is not None:
                item["id"] = call.id
            item["type"] = "function"
            item["function"] = {"name": call.name, "arguments": dict(call.arguments)}
            items.append(item)
        message["tool_calls"] = items
    if result.unparsed:
        message["unparsed"] = [
            {"raw": u.raw, "error": u.error, "offset": u.offset} for u in result.unparsed
        ]
    return message


def parse_response(
    text: str,
    *,
    model: str | None = None,
    dialect: str = "auto",
    tools: Any = None,
    strict: bool = False,
    prefix: str = "",
) -> dict[str, Any]:
    """Parse a model's reply into transformers' message dict (see :func:`result_to_message`).

    ``model`` picks the dialect through :func:`tooletta.dialect_for_model` (an explicit
    ``dialect`` wins; an unknown model falls back to ``dialect``). ``tools`` are the request's
    tool definitions (OpenAI style, as transformers takes them): text values are typed by
    them. ``strict=True`` raises :class:`~tooletta.ParseError` on a malformed block instead
    of keeping it under ``unparsed``. ``prefix`` is markup the prompt ended with (such as
    ``"<think>"``), as :func:`tooletta.parse` takes it.
    """
    from ... import api

    if not isinstance(text, str):
        raise ParseError(f"text must be str, not {type(text).__name__}")
    name = dialect
    if model is not None and dialect == "auto":
        name = api.dialect_for_model(model) or dialect
    result = api.parse(text, name, tools=tools, strict=strict, prefix=prefix)
    return result_to_message(result)


def dialect_from_response_template(
    template: Mapping[str, Any],
    *,
    name: str,
    aliases: tuple[str, ...] = (),
    priority: int = 0,
    models: tuple[str, ...] = (),
    description: str = "",
) -> TemplateDialect:
    """A tooletta dialect from a ``response_template`` (register it with
    :func:`tooletta.register_dialect`).

    Raises :class:`TemplateError` for a template transformers would refuse too, or one using
    a regular-expression feature tooletta does not read (lookbehind, back-references,
    flags other than ``(?s)``). Detection looks for the tool-call field's literal openers.
    """
    spec = load_template(template)
    info = DialectInfo(
        name=name,
        aliases=tuple(aliases),
        priority=priority,
        markers=detect_markers(spec),
        models=tuple(models),
        description=description or "imported from a Hugging Face response_template",
        source="response_template",
    )
    return TemplateDialect(spec, info)
