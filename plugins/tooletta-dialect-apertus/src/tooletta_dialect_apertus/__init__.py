"""Swiss AI Apertus tool calls: ``<|tools_prefix|>[{"NAME": {args}}, ...]<|tools_suffix|>``.

Each list element is an object with one member: the function name mapped to its arguments.
Pinned from vLLM's ``examples/tool_chat_template_apertus.jinja``, whose assistant turn writes
``'<|assistant_start|>' + content + '<|tools_prefix|>' + '['``, then per call
``'{"' + name + '": ' + arguments + '}'`` joined by ``", "``, then ``']' + '<|tools_suffix|>'``
(arguments are JSON text there), and from vLLM's ``apertus`` / SGLang's ``apertus2509`` parsers.

Text before and after the block is content. Reasoning is ``<|inner_prefix|>`` ...
``<|inner_suffix|>``; ``<|assistant_end|>`` is removed. A missing ``<|tools_suffix|>`` is
accepted when the list itself is complete (vLLM's regex also ends at the end of the text). A
single object instead of a list is accepted, and empty objects are skipped, as vLLM does. The
format has no ids.
"""

from __future__ import annotations

from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_named,
    json_key,
    json_next,
    json_value,
    reasoning_region,
)
from tooletta_dialect_apertus.models import MODELS

from .chat import ApertusChat, ApertusHubChat

__all__ = ["PREFIX", "SUFFIX", "ApertusDialect", "register_dialects"]

PREFIX = "<|tools_prefix|>"
"""Opens the list of calls."""
SUFFIX = "<|tools_suffix|>"
"""Closes the list of calls."""
_INNER = "<|inner_prefix|>"
_END = "<|assistant_end|>"


def read_entry(r: Reader) -> Read[None]:
    """One ``{"NAME": {arguments}}`` object; the arguments stream as they arrive."""
    yield from r.ws()
    yield from r.expect("{")
    yield from r.ws()
    if (yield from r.accept("}")):
        return
    name = yield from json_key(r)
    if (yield from r.peek()) != "{":
        raise r.fail("the arguments must be a JSON object")
    r.start_call(name)
    yield from json_value(r, r.args, keep=False)
    yield from r.ws()
    yield from r.expect("}")
    r.end_call()


def read_block(r: Reader) -> Read[None]:
    """A list of ``{"NAME": {arguments}}`` objects (or one such object)."""
    yield from r.ws()
    if not (yield from r.accept("[")):
        yield from read_entry(r)
        return
    first = True
    while not (yield from json_next(r, "]", first)):
        first = False
        yield from read_entry(r)


class ApertusDialect(ScannerDialect):
    """``<|tools_prefix|>[{"NAME": {args}}, ...]<|tools_suffix|>`` (Apertus 2509)."""

    info = DialectInfo(
        name="apertus",
        aliases=("apertus2509",),
        priority=90,
        markers=(PREFIX,),
        description='Apertus: <|tools_prefix|>[{"NAME": {args}}, ...]<|tools_suffix|>,'
        " <|inner_prefix|> reasoning",
        source="vllm-project/vllm examples/tool_chat_template_apertus.jinja,"
        " vllm/tool_parsers/apertus_tool_parser.py; sglang function_call/apertus2509_detector.py",
    )
    grammar = Grammar(
        blocks=(
            Block(
                PREFIX,
                read_block,
                close=SUFFIX,
                fast=fast_json_named(before=(SUFFIX, PREFIX, _INNER, _END)),
            ),
            erase(SUFFIX),
            reasoning_region(_INNER, "<|inner_suffix|>"),
            erase(_END),
        )
    )

    reasoning_markup = (_INNER, "<|inner_suffix|>")
    chat_formats: ClassVar[tuple[ApertusChat, ...]] = (ApertusChat(), ApertusHubChat())

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls as one list of single-member objects, between the prefix and suffix."""
        items = (f"{{{to_json(c.name)}: {to_json(c.arguments)}}}" for c in calls)
        return PREFIX + "[" + ", ".join(items) + "]" + SUFFIX


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the apertus dialect."""
    for declared in (ApertusDialect(), *MODELS):
        register(declared)
