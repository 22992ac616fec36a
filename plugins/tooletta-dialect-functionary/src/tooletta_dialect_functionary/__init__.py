"""MeetKai Functionary tool calls: v3.1 (Llama 3.1 based) and v3.2 (``>>>`` recipients).

**functionary_v31**, pinned from ``meetkai-functionary-medium-v3.1.jinja`` (llama.cpp
``models/templates``) and llama.cpp's ``common_chat_parse_functionary_v3_1_llama_3_1``::

    Let me check.<function=get_weather>{"city": "Paris"}</function><|eom_id|>

Content first, calls back to back with no separator, the name ``\\w+``, the arguments JSON.
``<|python_tag|>`` followed by raw code (to the end of the message) is a call to ``python``
with ``{"code": ...}``. ``<|eom_id|>`` and ``<|eot_id|>`` are removed.

**functionary_v32**, pinned from ``meetkai-functionary-medium-v3.2.jinja`` and
``common_chat_parse_functionary_v3_2``: every part of the reply starts with ``>>>RECIPIENT\\n``;
``all`` is text for the user, any other recipient a call whose body is JSON (``python`` may be
raw code). The generation prompt ends with ``>>>``, so a completion starts with the recipient::

    all
    Let me check.>>>get_weather
    {"city": "Paris"}

Parsing and streaming read the text as if the prompt's ``>>>`` preceded it. A ``>>>`` that is
not followed by ``NAME\\n{`` (or ``all\\n`` / ``python\\n``) is ordinary text, so Python REPL
prompts in prose stay content. ``NAME`` is an ASCII word (``[A-Za-z0-9_]+``, the ``\\w`` of
llama.cpp's parser); rendering refuses other names. Neither version has ids or reasoning
markers. Renderers write the template's exact text (arguments through ``json.dumps`` with
non-ASCII kept, where the template inserts the OpenAI argument string as is).
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_args,
    fast_repeat,
    json_value,
)
from tooletta_dialect_functionary.models import MODELS

from .chat import FunctionaryV31Chat, FunctionaryV32Chat

__all__ = ["FunctionaryV31Dialect", "FunctionaryV32Dialect", "register_dialects"]

EOM = "<|eom_id|>"
EOT = "<|eot_id|>"
PYTHON_TAG = "<|python_tag|>"
FUNCTION = "<function="
FUNCTION_END = "</function>"
_NAME = re.compile(r"\w+\Z")
_WORD = re.compile(r"\w*")
_RECIPIENT_NAME = re.compile(r"\w+\Z", re.ASCII)
_RECIPIENT_WORD = re.compile(r"\w*", re.ASCII)
_MAX_NAME = 64
_SPACES = re.compile(r"[ \t\r\n]*")


def _json_text(text: str) -> str:
    """The inside of a JSON string literal for ``text``."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _word(r: Reader, word: re.Pattern[str] = _WORD) -> Read[str]:
    """Word characters (``word``) from ``r.pos`` (waits until a non-word character or the end;
    stops early, returning more than ``_MAX_NAME`` characters, once the word is too long to be
    a name)."""
    parts: list[str] = []
    total = 0
    while True:
        m = word.match(r.buf, r.pos)
        end = m.end() if m else r.pos
        parts.append(r.buf[r.pos : end])
        total += end - r.pos
        r.pos = end
        if total > _MAX_NAME or r.pos < len(r.buf) or r.final:
            return "".join(parts)
        yield


def _raw_code(r: Reader, ends: Sequence[str]) -> Read[str]:
    """A ``python`` call whose body is raw code up to one of ``ends`` (or the end of the text),
    streamed as the JSON string ``{"code": "..."}``; returns the end marker found."""
    r.start_call("python")
    r.args('{"code": "')

    def write(text: str) -> None:
        r.args(_json_text(text))

    _, marker = yield from r.until(ends, write, eof=True)
    r.args('"}')
    r.end_call()
    return marker


def _json_call(r: Reader, name: str) -> Read[None]:
    """A call whose arguments are the JSON object at ``r.pos``, streamed verbatim."""
    r.start_call(name)
    yield from json_value(r, r.args, keep=False)
    r.end_call()


# -- v3.1 ------------------------------------------------------------------------------------------


def read_function(r: Reader) -> Read[None]:
    """``NAME>{json}</function>`` after ``<function=``."""
    name = yield from _word(r)
    if not name or len(name) > _MAX_NAME:
        raise r.fail("expected a function name")
    yield from r.expect(">")
    yield from r.ws()
    if (yield from r.peek()) != "{":
        raise r.fail("expected a JSON object")
    yield from _json_call(r, name)
    yield from r.close_or_end(FUNCTION_END)


def _function_head(text: str, pos: int) -> tuple[str | None, int] | None:
    """The one-shot reading of :func:`read_function` up to its JSON object."""
    m = _WORD.match(text, pos)
    name = m.group() if m else ""
    end = pos + len(name)
    if not name or len(name) > _MAX_NAME or not text.startswith(">", end):
        return None
    return name, end + 1


def read_python_tag(r: Reader) -> Read[None]:
    """Raw code after ``<|python_tag|>``, to the end of the message."""
    yield from _raw_code(r, (EOM, EOT))


def _python_code(call: ToolCall) -> str | None:
    """The code of a ``python`` call that can be written raw, else ``None``."""
    code = call.arguments.get("code")
    if call.name != "python" or len(call.arguments) != 1 or not isinstance(code, str):
        return None
    return code


class FunctionaryV31Dialect(ScannerDialect):
    """``<function=NAME>{json}</function>`` per call; ``<|python_tag|>`` code."""

    info = DialectInfo(
        name="functionary_v31",
        aliases=("functionary_v3_1", "functionary_llama_3_1"),
        priority=50,
        markers=(FUNCTION,),
        description="Functionary v3.1: <function=NAME>{json}</function>, <|python_tag|> code",
        source=(
            "ggml-org/llama.cpp models/templates/meetkai-functionary-medium-v3.1.jinja and "
            "common/chat.cpp common_chat_parse_functionary_v3_1_llama_3_1"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(
                FUNCTION,
                read_function,
                close=FUNCTION_END,
                fast=fast_repeat(fast_json_args(_function_head, FUNCTION_END), FUNCTION),
            ),
            Block(PYTHON_TAG, read_python_tag),
            erase(EOM),
            erase(EOT),
        )
    )
    chat_formats = (FunctionaryV31Chat(),)
    """The Functionary v3.1 conversation format (:mod:`.chat`)."""
    _LOOKS = re.compile(r"<function=\w+>\s*\{")

    def detect(self, text: str) -> bool:
        """A ``<function=NAME>`` followed by a JSON object."""
        return self._LOOKS.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls as the v3.1 template writes them (a last ``python`` call as raw code)."""
        parts = []
        last = len(calls) - 1
        for i, call in enumerate(calls):
            name = call.name
            if name == "python" and i == last:
                code = _python_code(call)
                if code is not None and EOM not in code and EOT not in code:
                    parts.append(PYTHON_TAG + code)
                    continue
            # an ASCII identifier is a \w+ name: the regex only for the others
            if (
                not ((name.isascii() and name.isidentifier()) or _NAME.match(name))
                or len(name) > _MAX_NAME
            ):
                raise self.error(f"tool name {name!r} is not a \\w+ name")
            parts.append(f"{FUNCTION}{name}>{to_json(call.arguments)}{FUNCTION_END}")
        return "".join(parts)


# -- v3.2 ------------------------------------------------------------------------------------------

START = "\x00functionary-v3.2-start\x00"
"""Stands for the generation prompt's ``>>>`` in front of the completion (fed by this dialect,
never expected in model text)."""
RECIPIENT = ">>>"
_WORD_CHARS = string.ascii_letters + string.digits + "_"
_PART_ENDS = (EOT, *(RECIPIENT + c for c in _WORD_CHARS))


def _part(r: Reader, first: bool) -> Read[None]:
    """One ``RECIPIENT\\nBODY`` part (``first``: the completion's start, whose ``>>>`` is in the
    prompt). A part that turns out not to be a recipient line is content."""
    if first:
        lead = yield from r.take(_SPACES)
    else:
        yield from r.expect(RECIPIENT)
        lead = RECIPIENT
    name = yield from _word(r, _RECIPIENT_WORD)
    nxt = yield from r.peek()
    if name and len(name) <= _MAX_NAME and nxt == "\n":
        if name == "all":
            r.pos += 1
            return  # the text that follows is content
        if name == "python":
            r.pos += 1
            if (yield from r.peek()) == "{":
                yield from _json_call(r, name)
                return
            marker = yield from _raw_code(r, _PART_ENDS)
            if marker.startswith(RECIPIENT):
                r.pos -= len(marker)  # the next part starts here: the engine opens it
            return
        if (yield from r.startswith("\n{")):
            r.pos += 1
            yield from _json_call(r, name)
            return
    r.content(lead + name)  # not a recipient line: ordinary text


def _part_head(text: str, pos: int) -> tuple[str | None, int] | None:
    """The one-shot reading of :func:`read_part` up to a JSON body (``None``: raw code or
    ordinary text, left to the reader)."""
    at = pos + len(RECIPIENT)
    m = _RECIPIENT_WORD.match(text, at)
    name = m.group() if m else ""
    end = at + len(name)
    if not name or len(name) > _MAX_NAME or not text.startswith("\n", end):
        return None
    if name == "all":
        return None, end + 1  # the text that follows is content
    if not text.startswith("{", end + 1):
        return None
    return name, end + 1


_FAST_PART = fast_repeat(
    fast_json_args(_part_head, before=(RECIPIENT, EOT, EOM)), RECIPIENT, keep_open=True
)


def read_first_part(r: Reader) -> Read[None]:
    """The completion's first part (its ``>>>`` is in the prompt)."""
    yield from _part(r, True)


def read_part(r: Reader) -> Read[None]:
    """A part from its ``>>>``."""
    yield from _part(r, False)


class FunctionaryV32Dialect(ScannerDialect):
    """``>>>NAME\\n{json}`` per call and ``>>>all\\n`` text (the first ``>>>`` in the prompt)."""

    prompt_end = START
    """The generation prompt ends with ``>>>``: every completion continues it."""

    info = DialectInfo(
        name="functionary_v32",
        aliases=("functionary_v3_2", "functionary"),
        priority=20,
        markers=(RECIPIENT,),
        description="Functionary v3.2: >>>NAME\\n{json} parts, >>>all\\n text",
        source=(
            "ggml-org/llama.cpp models/templates/meetkai-functionary-medium-v3.2.jinja and "
            "common/chat.cpp common_chat_parse_functionary_v3_2"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(START, read_first_part),
            *(
                Block(
                    RECIPIENT + c,
                    read_part,
                    keep_open=True,
                    fast=_FAST_PART,
                )
                for c in _WORD_CHARS
            ),
            erase(EOT),
            erase(EOM),
        )
    )
    chat_formats = (FunctionaryV32Chat(),)
    """The Functionary v3.2 conversation format (:mod:`.chat`)."""
    _LOOKS = re.compile(r">>>(?:all\n|python\n|\w+\n\{)", re.ASCII)

    def detect(self, text: str) -> bool:
        """A ``>>>`` recipient line: ``all``, ``python`` or a name followed by JSON."""
        return self._LOOKS.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls' parts, joined by ``>>>`` (see :meth:`render`)."""
        return RECIPIENT.join(self._part(c) for c in calls)

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The completion after the ``>>>`` prompt: ``all\\n`` + content, then one part per call."""
        self.check_content(content)
        parts = [f"all\n{content}"] if content else []
        parts += [self._part(c) for c in calls]
        return RECIPIENT.join(parts)

    def _part(self, call: ToolCall) -> str:
        code = _python_code(call)
        if code is not None and _raw_code_ok(code):
            return f"python\n{code}"
        name = call.name
        if not _RECIPIENT_NAME.match(name) or len(name) > _MAX_NAME or name == "all":
            raise self.error(f"tool name {name!r} cannot be a >>> recipient")
        return f"{name}\n{to_json(call.arguments)}"


def _raw_code_ok(code: str) -> bool:
    """True when ``code`` reads back unchanged as a raw ``python`` body."""
    if code.startswith("{") or EOT in code or EOM in code or START in code:
        return False
    return not any(end in code for end in _PART_ENDS)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the functionary_v31 and functionary_v32 dialects."""
    for declared in (FunctionaryV31Dialect(), FunctionaryV32Dialect(), *MODELS):
        register(declared)
