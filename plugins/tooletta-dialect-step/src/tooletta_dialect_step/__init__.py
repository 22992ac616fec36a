"""StepFun Step3: a ``<｜tool_calls_begin｜>`` section of ``steptml`` invokes.

The section, with each call an entry of type ``function`` (fullwidth bars U+FF5C, ASCII
underscores)::

    <｜tool_calls_begin｜>
    <｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="get_weather">
    <steptml:parameter name="city">Paris</steptml:parameter>
    <steptml:parameter name="days">3</steptml:parameter>
    </steptml:invoke><｜tool_call_end｜>
    <｜tool_calls_end｜>

Pinned from SGLang's ``Step3Detector`` (``python/sglang/srt/function_call/step3_detector.py``)
and its streaming-fuzz helpers, vLLM's ``vllm/tool_parsers/step3_tool_parser.py`` and smg's
``tests/tool_parser_step3.rs`` (they agree on the layout; the ``stepfun-ai/step3`` chat template
itself was not available). Values: strings raw, other values as JSON (``json.dumps``), typed
back by the tool schema (no schema: JSON when valid, else the text); values are kept verbatim
(peers strip them). Entries of another type (a word such as ``thought``) are skipped, as
peers do. Reasoning is ``<think>`` ... ``</think>``; the generation prompt ends with ``<think>``,
so text that starts inside reasoning needs that tag prepended to be split. Step-3.5 and later
use the Qwen3-Coder XML format (``step3p5``), not this one.
"""

from __future__ import annotations

import re
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    Block,
    Grammar,
    InvokeSyntax,
    MarkerSet,
    Read,
    Reader,
    guarded,
    one_shot,
    read_invoke,
    reasoning_region,
    render_invoke,
    scan_invoke,
    skip_ws,
    tag_end,
)
from tooletta_dialect_step.models import MODELS

__all__ = ["Step3Dialect", "register_dialects"]

CALLS_BEGIN = "<｜tool_calls_begin｜>"
CALLS_END = "<｜tool_calls_end｜>"
CALL_BEGIN = "<｜tool_call_begin｜>"
CALL_END = "<｜tool_call_end｜>"
TOOL_SEP = "<｜tool_sep｜>"
SYNTAX = InvokeSyntax(
    invoke="<steptml:invoke",
    invoke_close="</steptml:invoke>",
    parameter="<steptml:parameter",
    parameter_close="</steptml:parameter>",
)
_TYPE_END = MarkerSet((TOOL_SEP, CALL_END))
_KIND = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]{0,63}\Z")
_ENTRY_END = MarkerSet((CALL_END,))


@guarded
def read_section(r: Reader) -> Read[None]:
    """The entries of one section, through ``<｜tool_calls_end｜>`` (or the end of the text)."""
    while True:
        yield from r.ws()
        got = yield from r.accept(CALLS_END, CALL_BEGIN)
        if got == CALLS_END:
            return
        if not got:
            if (yield from r.at_end()):
                return
            raise r.fail(f"expected {CALL_BEGIN!r} or {CALLS_END!r}")
        kind, marker = yield from r.until(_TYPE_END)
        if marker == CALL_END:
            continue  # an entry without a type separator holds no call
        kind = kind.strip()
        if kind != "function":
            if not _KIND.match(kind):
                raise r.fail(f"bad entry type {kind[:40]!r}")
            yield from r.until(_ENTRY_END)  # another entry type: skipped, as peers do
            continue
        yield from r.ws()
        yield from r.expect(SYNTAX.invoke)
        yield from read_invoke(r, SYNTAX)
        yield from r.ws()
        yield from r.expect(CALL_END)


@one_shot
def fast_section(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_section`: entries through ``<｜tool_calls_end｜>``
    (a section the text ends inside is left to the reader)."""
    while True:
        pos = skip_ws(text, pos)
        if text.startswith(CALLS_END, pos):
            return pos + len(CALLS_END)
        if not text.startswith(CALL_BEGIN, pos):
            return -1
        pos += len(CALL_BEGIN)
        at, marker = tag_end(text, pos, TOOL_SEP, (CALL_END,)), TOOL_SEP
        if at < 0:  # CALL_END first (or neither)
            at, marker = _TYPE_END.find(text, pos)
            if at < 0:
                return -1
        kind = text[pos:at].strip()
        pos = at + len(marker)
        if marker == CALL_END:
            continue
        if kind != "function":
            at = text.find(CALL_END, pos)
            if not _KIND.match(kind) or at < 0:
                return -1
            pos = at + len(CALL_END)
            continue
        pos = skip_ws(text, pos)
        if not text.startswith(SYNTAX.invoke, pos):
            return -1
        pos = scan_invoke(text, pos + len(SYNTAX.invoke), SYNTAX, tools, calls)
        if pos < 0:
            return -1
        pos = skip_ws(text, pos)
        if not text.startswith(CALL_END, pos):
            return -1
        pos += len(CALL_END)


class Step3Dialect(ScannerDialect):
    """``<｜tool_calls_begin｜>`` + ``function<｜tool_sep｜><steptml:invoke ...>`` entries."""

    info = DialectInfo(
        name="step3",
        priority=90,
        markers=(CALLS_BEGIN,),
        description="Step3: <｜tool_calls_begin｜> section of steptml:invoke XML calls",
        source=(
            "sgl-project/sglang python/sglang/srt/function_call/step3_detector.py; "
            "vllm/tool_parsers/step3_tool_parser.py; lightseekorg/smg tests/tool_parser_step3.rs"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(CALLS_BEGIN, read_section, close=CALLS_END, fast=fast_section),
            reasoning_region("<think>", "</think>"),
        )
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The section: one entry per call, entries and section tags on their own lines."""
        entries = "\n".join(
            f"{CALL_BEGIN}function{TOOL_SEP}"
            + render_invoke(c.name, c.arguments, SYNTAX, self.error, empty="\n\n")
            + CALL_END
            for c in calls
        )
        return f"{CALLS_BEGIN}\n{entries}\n{CALLS_END}"


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the step3 dialect."""
    for declared in (Step3Dialect(), *MODELS):
        register(declared)
