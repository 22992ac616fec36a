"""DeepSeek V3 / R1 and V3.1 tool calls: JSON arguments between fullwidth special tokens.

Both formats wrap the calls in ``<｜tool▁calls▁begin｜>`` ... ``<｜tool▁calls▁end｜>`` (U+FF5C
FULLWIDTH VERTICAL LINE, U+2581 LOWER ONE EIGHTH BLOCK). They differ inside a call:

* V3 / V3-0324 / R1 (``deepseek_v3``)::

      <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
      ```json
      {"city": "Paris"}
      ```<｜tool▁call▁end｜>

  the type word (``function``: any other word is refused, as a damaged header), then the
  name and the arguments in a JSON fence; later calls are preceded
  by ``\\n`` (vLLM ``examples/tool_chat_template_deepseekv3.jinja``, HF DeepSeek-V3-0324).
* V3.1 / V3.1-Terminus / V3.2-Exp (``deepseek_v31``)::

      <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜>

  calls placed one after another (llama.cpp ``models/templates/deepseek-ai-DeepSeek-V3.1.jinja``).

Both dialects read both call shapes (a ``{`` right after ``<｜tool▁sep｜>`` means V3.1), so a
model that drifts to its sibling's shape still parses; they differ in what they render and
in detection, which looks at the first call. Content goes right before the section with no
separator. Reasoning is ``<think>`` ... ``</think>``; a section opened inside the reasoning
ends it (SGLang PR #9446: V3.1 may do that in thinking mode). A bare ``</think>`` (the
generation prompt opened the reasoning, as R1 and thinking-mode V3.1 do) stays in the
content: a stream cannot know that text was reasoning until it sees the closer, and keeping
the closer lets the caller split there. A leaked ``<｜end▁of▁sentence｜>`` is removed.
Rendering omits the end-of-turn token the template appends.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_header_call,
    fast_section,
    json_args,
    json_args_at,
    json_without,
    marker_set,
    section,
    think_region,
)

from .chat import DeepSeekR1Chat, DeepSeekR1OfficialChat, DeepSeekR10528Chat, DeepSeekV31Chat
from .tokens import CALL_BEGIN, CALL_END, CALLS_BEGIN, CALLS_END, EOS, SEP

__all__ = [
    "CALLS_BEGIN",
    "CALLS_END",
    "CALL_BEGIN",
    "CALL_END",
    "EOS",
    "SEP",
    "DeepSeekV3Dialect",
    "DeepSeekV31Dialect",
    "args_json",
    "first_call_is_v3",
    "read_call",
]

FENCE = "```"
_MARKERS = (CALLS_BEGIN, CALLS_END, CALL_BEGIN, CALL_END, SEP, EOS, "<think>", "</think>")


def read_call(r: Reader) -> Read[None]:
    """One call, from after ``<｜tool▁call▁begin｜>``, in either the V3 or the V3.1 shape."""
    head, marker = yield from r.until((SEP, CALL_END, CALL_BEGIN, CALLS_END))
    if marker != SEP:
        raise r.fail("expected <｜tool▁sep｜> after the call header")
    yield from r.ws()
    fenced = False
    if (yield from r.peek()) == "{":  # V3.1: NAME<｜tool▁sep｜>{...}
        name = head.strip()
    else:  # V3: TYPE<｜tool▁sep｜>NAME\n```json\n{...}\n```
        if head.strip() != "function":
            raise r.fail(f"expected the type word 'function' before <｜tool▁sep｜>, not {head!r}")
        line, marker = yield from r.until(("\n", FENCE, CALL_END, CALL_BEGIN))
        if marker in (CALL_END, CALL_BEGIN):
            raise r.fail("expected the call's arguments")
        name = line.strip()
        fenced = marker == FENCE
        if not fenced:
            yield from r.ws()
            fenced = bool((yield from r.accept(FENCE)))
        if fenced:
            yield from r.accept("json")
    if not name:
        raise r.fail("tool call has no name")
    r.start_call(name)
    yield from json_args(r, EOS)
    yield from r.ws()
    if fenced and not (yield from r.at_end()):
        yield from r.expect(FENCE)
        yield from r.ws()
    if not (yield from r.at_end()):
        yield from r.expect(CALL_END)


_HEAD_STOPS = (SEP, CALL_END, CALL_BEGIN, CALLS_END)
_LINE_STOPS = marker_set(("\n", FENCE, CALL_END, CALL_BEGIN))
_fast_v31 = fast_header_call(SEP, CALL_END, _HEAD_STOPS, None, EOS, then=CALL_BEGIN)
_head_stop = marker_set(_HEAD_STOPS).find
_V3_HEAD = "function" + SEP
_N_V3_HEAD, _N_CALL_END = len(_V3_HEAD), len(CALL_END)
_FENCE_JSON = FENCE + "json"
_SPACE = " \t\r\n"


def _fast_call(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_call`: either call shape, well-formed."""
    typed = text.startswith(_V3_HEAD, pos)
    if typed:
        at = pos + _N_V3_HEAD  # the type word: no stop before the separator
    else:
        end = _fast_v31(text, pos, tools, calls)  # NAME<｜tool▁sep｜>{...}
        if end >= 0:
            return end
        at, marker = _head_stop(text, pos)
        if marker != SEP:
            return -1
        at += len(SEP)
    # TYPE<｜tool▁sep｜>NAME\n```json\n{...}\n```: what read_call reads when no "{" follows
    n = len(text)
    j = at
    if j < n and text[j] in _SPACE:
        j = _WS.match(text, j).end()  # type: ignore[union-attr]
    if j >= n or text[j] == "{" or not typed:  # (another type word: the reader refuses it)
        return _fast_v31(text, pos, tools, calls) if typed else -1
    nl = text.find("\n", j)
    line = text[j:nl]
    if nl < 0 or "<" in line or "`" in line:  # a stop other than "\n" may come first
        nl, marker = _LINE_STOPS.find(text, j)
        if marker != "\n":  # (the fence on the name's line is left to the reader)
            return -1
        line = text[j:nl]
    name = line.strip()
    if not name:
        return -1
    j = nl + 1
    if text.startswith(_FENCE_JSON, j):  # the usual fence, at once
        fenced = True
        j += len(_FENCE_JSON)
    else:
        if j < n and text[j] in _SPACE:
            j = _WS.match(text, j).end()  # type: ignore[union-attr]
        fenced = text.startswith(FENCE, j)
        if fenced:
            j += len(FENCE)
            if text.startswith("json", j):
                j += 4
    got = json_args_at(text, j, FENCE if fenced else CALL_END, EOS)
    if got is None:
        return -1
    end = got[1]
    if fenced:
        if not text.startswith(CALL_END, end):
            if end < n and text[end] in _SPACE:
                end = _WS.match(text, end).end()  # type: ignore[union-attr]
            if not text.startswith(CALL_END, end):
                return -1
        end += _N_CALL_END
    calls.append(ToolCall(name, got[0]))
    return end


_WS = re.compile(r"[ \t\r\n]*")


_fast_section = fast_section(CALL_BEGIN, _fast_call, (CALLS_END, CALLS_BEGIN))


def _dsml_first(text: str) -> bool:
    """True when DSML markup comes before any call token (the tokens are then inside values)."""
    dsml = text.find("<｜DSML｜")
    if dsml < 0:
        return False
    firsts = [i for i in (text.find(CALLS_BEGIN), text.find(CALL_BEGIN)) if i >= 0]
    return not firsts or dsml < min(firsts)


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_.:\-]+").fullmatch
"""A name :meth:`_Classic.check_name` passes at a glance (no space, ``{``, ``<``, line break
or fence): the writers ask ``check_name`` only for the others."""


def args_json(arguments: dict[str, object]) -> str:
    """``tojson`` of the arguments; ``<`` escaped (only strings hold it) when the end-of-turn
    token occurs in them, since parsing removes that token."""
    return json_without(arguments, (EOS,))


def first_call_is_v3(text: str) -> bool:
    """True when the first call in ``text`` has the V3 shape (type word, then name and fence)."""
    at = text.find(CALL_BEGIN)
    if at < 0:
        return False
    start = at + len(CALL_BEGIN)
    sep = text.find(SEP, start)
    if sep < 0:
        return False
    head = text[start:sep]
    if any(m in head for m in (CALL_END, CALLS_END)):
        return False
    return head.strip() == "function" and not text[sep + len(SEP) :].lstrip().startswith("{")


GRAMMAR = Grammar(
    blocks=(
        Block(CALL_BEGIN, read_call, close=CALL_END, fast=_fast_call),
        section(CALLS_BEGIN, _fast_section),
        section(CALLS_END, _fast_section),
        think_region("<think>", "</think>", ends=(CALLS_BEGIN,)),
        erase(EOS),
    )
)


class _Classic(ScannerDialect):
    """What V3 and V3.1 share: the grammar and name checks."""

    grammar: ClassVar[Grammar] = GRAMMAR

    def check_name(self, name: str) -> None:
        """Refuse a name that would read back differently."""
        if not name or name != name.strip() or name.startswith("{"):
            raise self.error(f"cannot write the tool name {name!r}")
        markup = "<" in name and any(m in name for m in _MARKERS)  # each starts with "<"
        if markup or "\n" in name or FENCE in name:
            raise self.error(f"the tool name {name!r} holds markup")

    def parts(self, call: ToolCall) -> tuple[str, str]:
        """The call's name, checked (at a glance when it is plain: ``_PLAIN_NAME``), and its
        arguments' JSON (:func:`args_json`'s text, its body inline)."""
        name = call.name
        if name.__class__ is not str or _PLAIN_NAME(name) is None:
            self.check_name(name)
        args = to_json(call.arguments)
        if "<" in args and EOS in args:
            args = args.replace("<", "\\u003c")
        return name, args


class DeepSeekV3Dialect(_Classic):
    """DeepSeek V3 / R1: ``function<｜tool▁sep｜>NAME`` and a ```` ```json ```` fence per call."""

    info = DialectInfo(
        name="deepseek_v3",
        aliases=("deepseek_r1", "deepseekv3"),
        priority=90,
        markers=(CALLS_BEGIN, CALL_BEGIN),
        description=(
            "DeepSeek V3/R1: <｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME + ```json fence, "
            "<think> reasoning"
        ),
        source=(
            "vllm-project/vllm examples/tool_chat_template_deepseekv3.jinja "
            "(HF deepseek-ai/DeepSeek-V3-0324 chat template); vllm deepseekv3_tool_parser.py"
        ),
    )

    chat_formats = (DeepSeekR1Chat(), DeepSeekR1OfficialChat(), DeepSeekR10528Chat())

    def detect(self, text: str) -> bool:
        """The first call carries the ``function`` type word and no bare JSON."""
        return not _dsml_first(text) and first_call_is_v3(text)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The section as the V3 template writes it: calls joined by ``\\n``. Each call costs
        two Python calls (:meth:`parts` and :func:`~tooletta.to_json`) when its name is
        plain, the text added to a string."""
        out = CALLS_BEGIN
        between = ""
        for c in calls:
            name, args = self.parts(c)
            out += f"{between}{CALL_BEGIN}function{SEP}{name}\n```json\n{args}\n```{CALL_END}"
            between = "\n"
        return out + CALLS_END


class DeepSeekV31Dialect(_Classic):
    """DeepSeek V3.1 / V3.2-Exp: ``NAME<｜tool▁sep｜>{json}`` per call."""

    info = DialectInfo(
        name="deepseek_v31",
        aliases=("deepseekv31", "deepseek", "deepseek31"),
        priority=90,
        markers=(CALLS_BEGIN, CALL_BEGIN),
        description=(
            "DeepSeek V3.1: <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{json}, <think> reasoning"
        ),
        source=(
            "ggml-org/llama.cpp models/templates/deepseek-ai-DeepSeek-V3.1.jinja; "
            "vllm deepseekv31_tool_parser.py"
        ),
    )

    chat_formats = (DeepSeekV31Chat(),)

    def detect(self, text: str) -> bool:
        """Any DeepSeek call section whose first call is not in the V3 shape."""
        return not _dsml_first(text) and not first_call_is_v3(text)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The section as the V3.1 template writes it: calls with no separator. Each call
        costs two Python calls, as in :meth:`DeepSeekV3Dialect.render_calls`."""
        out = CALLS_BEGIN
        for c in calls:
            name, args = self.parts(c)
            out += f"{CALL_BEGIN}{name}{SEP}{args}{CALL_END}"
        return out + CALLS_END
