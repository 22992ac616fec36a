"""Mistral tool calls: ``[TOOL_CALLS]`` then a JSON array (pre-v11) or ``NAME[ARGS]{json}`` (v11+).

Two generations of the same special token, parsed by one dialect:

* **pre-v11** tokenizers (v3 and v7: Mistral 7B v0.3, Mixtral 8x22B, Nemo, Large 2407,
  Small 3.1) write one ``[TOOL_CALLS]`` and a JSON array of ``{"name", "arguments"[, "id"]}``
  objects (mistral-common ``InstructTokenizerV3._prepare_function_call`` +
  ``json.dumps(..., ensure_ascii=False)``; the Small 3.1 HF template writes
  ``[TOOL_CALLS] [`` with a space and 9-character ids);
* **v11+** tokenizers (Small 3.2, Magistral, Devstral, Ministral 3) write, per call,
  ``[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{json}`` (mistral-common ``InstructTokenizerV11``; the id
  part only when the call has an id) or ``[TOOL_CALLS]NAME[ARGS]{json}`` (``InstructTokenizerV13``
  and the HF v11 templates, which drop ids). Calls follow each other with no separator.

Also accepted: ``[TOOL_CALLS]NAME{json}`` (``[ARGS]`` stripped as a special token), any
whitespace after ``[TOOL_CALLS]``. Text before the calls is content; text after the last
argument object is content too. Magistral reasoning is ``[THINK]`` ... ``[/THINK]``; ``</s>`` is
removed. Ids are kept as written.

Rendering writes the v11 form, ``content`` then ``[TOOL_CALLS]NAME[ARGS]{json}`` per call,
with ``[CALL_ID]ID`` when the call has an id (made a valid 9-alphanumeric Mistral id by
:func:`tooletta.toolkit.mistral_id`). :func:`render_pre_v11` writes the legacy array form.
The variant dialects ``mistral_v13`` and ``mistral_v3`` (:mod:`.variants`) render the other
generations' forms; the conversation formats of each model are in :mod:`.chat`.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    ChatFormat,
    Grammar,
    Read,
    Reader,
    decode_args,
    erase,
    fast_json_array,
    json_call_array,
    json_value,
    mistral_id,
    reasoning_region,
)
from tooletta_dialect_mistral.models import MODELS

from .chat import MistralSmall32Chat
from .ids import written_id

__all__ = ["ARGS", "CALL_ID", "TOOL_CALLS", "MistralDialect", "register_dialects", "render_pre_v11"]

TOOL_CALLS = "[TOOL_CALLS]"
"""The special token that opens each call (v11+) or the call array (pre-v11)."""
ARGS = "[ARGS]"
"""The special token between a v11 call's name (or id) and its arguments."""
CALL_ID = "[CALL_ID]"
"""The special token before a v11 call's id."""

_WORD = re.compile(r'[^\s\[\]{}"]*')
_WORD_OK = re.compile(r'[^\s\[\]{}"]+\Z')
_DETECT = re.compile(r'\[TOOL_CALLS\]\s*(?:\[|[^\s\[\]{}"]+(?:\[ARGS\]|\[CALL_ID\]|\{))')


def read_tool_calls(r: Reader) -> Read[None]:
    """What follows one ``[TOOL_CALLS]``: a JSON call array, or one v11 call."""
    yield from r.ws()
    first = yield from r.peek()
    if first == "[":
        yield from json_call_array(r, id_keys=("id",))
        return
    name = yield from r.take(_WORD)
    if not name:
        raise r.fail("expected a function name or a JSON array after [TOOL_CALLS]")
    call_id: str | None = None
    if (yield from r.accept(CALL_ID)):
        call_id = yield from r.take(_WORD)
        if not call_id:
            raise r.fail("expected a call id after [CALL_ID]")
    yield from r.accept(ARGS)
    yield from r.ws()
    if (yield from r.peek()) != "{":
        raise r.fail("expected a JSON object of arguments")
    r.start_call(name, call_id)
    yield from json_value(r, r.args, keep=False)
    r.end_call()


_WS = re.compile(r"[ \t\r\n]*")
_SPACE = " \t\r\n"
_V11_HEAD = re.compile(
    r'[ \t\r\n]*([^\s\[\]{}"]+)(?:\[CALL_ID\]([^\s\[\]{}"]+))?(?:\[ARGS\])?[ \t\r\n]*'
)
"""What :func:`read_tool_calls` reads before a v11 call's arguments: the name (``_WORD``),
an id after ``[CALL_ID]`` and ``[ARGS]`` (both optional) and whitespace. A ``[CALL_ID]``
without an id stays unmatched, so no ``{`` follows the match and the reader decides."""
_fast_array = fast_json_array(id_keys=("id",), before=(TOOL_CALLS, "[THINK]", "</s>"))


def _fast_tool_calls(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_tool_calls`, reading on through the v11 calls
    that follow (after whitespace): what it reads, or ``-1`` to leave the block to it."""
    end = -1  # past the last call read
    while True:
        # the name, id and whitespace the reader takes: NAME[ARGS] without a regular
        # expression (a name that is an identifier ends at the "[" after it), else _V11_HEAD
        b = text.find("[", pos)
        name = text[pos:b]
        if b > pos and name.isidentifier() and text.startswith(ARGS, b):
            k = b + len(ARGS)
            call_id = None
        else:
            m = _V11_HEAD.match(text, pos)
            if m is None:
                if end < 0 and text.startswith("[", _WS.match(text, pos).end()):  # type: ignore[union-attr]
                    return _fast_array(text, pos, tools, calls)
                return end
            k = m.end()
            name, call_id = m.group(1, 2)
        # the arguments: the object the reader reads, when it ends before the next call (a
        # complete JSON value is no prefix of a longer one: what decodes is what it reads)
        if not text.startswith("{", k):
            k = _WS.match(text, k).end()  # type: ignore[union-attr]
            if not text.startswith("{", k):
                return end
        nxt = text.find(TOOL_CALLS, k)
        r = text.rfind("}", k, nxt if nxt >= 0 else len(text))
        args = decode_args(text[k : r + 1]) if r >= 0 else None
        if args is None:
            return end
        calls.append(ToolCall(name, args, call_id))
        end = r + 1
        if nxt < 0 or (nxt > end and text[end:nxt].strip(_SPACE)):
            return end  # the next call follows only whitespace
        pos = nxt + len(TOOL_CALLS)


def render_pre_v11(calls: list[ToolCall]) -> str:
    """The legacy (tokenizer v3/v7) form: ``[TOOL_CALLS] [{"name", "arguments", "id"}, ...]``.

    As the Mistral-Small-3.1 template writes it: every call carries a 9-alphanumeric id
    (generated deterministically when missing or invalid), calls are joined by ``", "``.
    """
    items = [
        f'{{"name": {to_json(c.name)}, "arguments": {to_json(c.arguments)}, '
        f'"id": {to_json(written_id(c, i))}}}'
        for i, c in enumerate(calls)
    ]
    return f"{TOOL_CALLS} [" + ", ".join(items) + "]"


class MistralDialect(ScannerDialect):
    """``[TOOL_CALLS]`` calls: the pre-v11 JSON array and the v11+ ``NAME[ARGS]{json}`` form."""

    info = DialectInfo(
        name="mistral",
        priority=90,
        markers=(TOOL_CALLS,),
        description="Mistral: [TOOL_CALLS][{json}...] (pre-v11) or [TOOL_CALLS]NAME[ARGS]{json}"
        " per call (v11+), [THINK] reasoning",
        source="mistralai/mistral-common src/mistral_common/tokens/tokenizers/instruct.py"
        " (InstructTokenizerV3/V11/V13); vllm vllm/tool_parsers/mistral_tool_parser.py",
    )
    grammar = Grammar(
        blocks=(
            Block(TOOL_CALLS, read_tool_calls, fast=_fast_tool_calls),
            reasoning_region("[THINK]", "[/THINK]"),
            erase("</s>"),
        )
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (MistralSmall32Chat(),)
    """Conversation format: Mistral-Small-3.2 (:mod:`.chat`)."""

    def detect(self, text: str) -> bool:
        """``[TOOL_CALLS]`` followed by a JSON array or by a name and ``[ARGS]``/``{``."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The v11 form: ``[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{json}`` per call (id when set)."""
        return self.write_calls(calls, ids=True)

    def write_calls(self, calls: list[ToolCall], ids: bool) -> str:
        """``[TOOL_CALLS]NAME[ARGS]{json}`` per call, with ``[CALL_ID]ID`` before ``[ARGS]``
        for a call that has an id when ``ids`` is set (the id made a valid Mistral id)."""
        out = []
        for call in calls:
            name = call.name
            if not (name.isidentifier() or _WORD_OK.match(name)):  # an identifier is a word
                raise self.error(f"function name {name!r} cannot be written after [TOOL_CALLS]")
            ident = call.id
            if ident is None or not ids:
                out.append(f"{TOOL_CALLS}{name}{ARGS}{to_json(call.arguments)}")
                continue
            if not (len(ident) == 9 and ident.isascii() and ident.isalnum()):
                ident = mistral_id(ident, "")  # derived from the id alone
            out.append(f"{TOOL_CALLS}{name}{CALL_ID}{ident}{ARGS}{to_json(call.arguments)}")
        return "".join(out)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the mistral dialect and its variants ``mistral_v13``, ``mistral_v3`` and
    ``mistral_v3_spaced``."""
    from .variants import MistralV3Dialect, MistralV3SpacedDialect, MistralV13Dialect

    dialects = (MistralDialect(), MistralV13Dialect(), MistralV3Dialect(), MistralV3SpacedDialect())
    for declared in (*dialects, *MODELS):
        register(declared)
