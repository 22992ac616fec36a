"""Pythonic tool calls: calls written in Python syntax, ``[get_weather(city="Paris")]``.

Four dialects share the Python call and literal syntax (read with :mod:`ast`, never
evaluated; see :mod:`tooletta_dialect_pythonic.pysyntax`):

* ``pythonic`` (alias ``llama4_pythonic``): Llama 3.2 / Llama 4 with vLLM's pythonic
  templates, ToolACE. A list of calls, ``[f(a=1), g(b="x")]``, making up the reply or
  following the content; Llama 4 may wrap it in ``<|python_start|>`` ... ``<|python_end|>``.
  (Llama 4 Instruct model ids resolve to the llama plugin's ``llama4_json``: the template in
  the model repositories writes JSON calls.)
* ``olmo3``: OLMo 3. ``<function_calls>`` ... ``</function_calls>``, one call per line,
  ``true``/``false``/``null`` accepted as values.
* ``lfm2``: LiquidAI LFM2 / LFM2.5. ``<|tool_call_start|>[...]<|tool_call_end|>`` holding a
  pythonic list or a JSON list of ``{"name", "arguments"}`` objects; ``<think>`` reasoning.
* ``sarashina``: SoftBank Sarashina. A Python-literal list of ``{'name', 'arguments'}`` dicts,
  after the ``<|tool_calls|>`` token or alone at the start of the reply.

Each call streams as soon as its closing bracket arrives: the name and arguments of call 1
are out before call 2 begins. Values are typed by their own syntax (``tools`` is accepted and
not needed). None of these formats carries call ids.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Sequence
from typing import Any, ClassVar

from tooletta import DialectInfo, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    BlockError,
    ChatFormat,
    Decline,
    Grammar,
    Read,
    Reader,
    erase,
    fast_json_array,
    fast_json_call,
    fast_py_calls,
    fast_py_list,
    json_call_object,
    json_next,
    loads,
    plain_render_without_calls,
    py_literal_at,
    reasoning_region,
    variant_info,
)
from tooletta_dialect_pythonic.models import MODELS

from .base import CheckedDialect
from .chat import Lfm2Chat, Lfm2PiiExtractJpChat, Lfm2V2Chat, Lfm25Chat, Lfm25InstructChat
from .chat_olmo import Olmo31InstructChat
from .pysyntax import (
    bracketed,
    call_arguments,
    char_at,
    looks_like_call,
    py_str,
    py_value,
    read_name,
    render_call,
    span,
    starts_at,
    value_of,
)

__all__ = [
    "Lfm2Dialect",
    "Lfm2V2Dialect",
    "Lfm25Dialect",
    "Olmo3Dialect",
    "Olmo3InstructDialect",
    "PythonicDialect",
    "SarashinaDialect",
    "plain_reads_back",
    "read_call_list",
    "read_py_call",
    "register_dialects",
]

_WS = re.compile(r"[ \t\r\n]*")
_HEAD = (
    r"\[[ \t\r\n]*[A-Za-z_][A-Za-z0-9_.\-]*[ \t\r\n]*\([ \t\r\n]*"
    r"(?:\)|[^\W\d]\w*[ \t\r\n]*=(?!=))"
)

# -- readers shared by the family ------------------------------------------------------------


def read_py_call(
    r: Reader, *, end: bool = True, raw_newlines: bool = False, keyword_names: bool = False
) -> Read[dict[str, Any]]:
    """One call ``name(key=value, ...)``: the name is reported at ``(``, the arguments once
    the closing ``)`` arrives. With ``end=False`` the caller ends the call (``r.end_call``)
    once what follows it has been checked; the arguments are returned. ``raw_newlines``:
    a string may hold raw line breaks; ``keyword_names``: an argument may be named by a
    Python keyword (see :func:`~.pysyntax.call_arguments`)."""
    name = yield from read_name(r)
    yield from r.ws()
    if (yield from r.peek()) != "(":
        raise r.fail("expected '(' after the function name")
    r.start_call(name)
    at = r.pos
    text = yield from bracketed(r)
    arguments = call_arguments(text, at, raw_newlines=raw_newlines, keyword_names=keyword_names)
    if r.engine.deltas:
        r.args(to_json(arguments))
    if end:
        r.end_call(arguments)
    return arguments


def read_call_list(
    r: Reader, *, raw_newlines: bool = False, keyword_names: bool = False
) -> Read[None]:
    """Calls separated by commas up to the closing ``]`` (read from just after ``[``).

    A call counts once the ``,`` or ``]`` after it has come, so ``[f(a=1) is ...]`` in prose
    is malformed rather than a call. ``raw_newlines`` and ``keyword_names`` as in
    :func:`read_py_call`.
    """
    first = True
    while not (yield from json_next(r, "]", first, trailing=True)):
        first = False
        arguments = yield from read_py_call(
            r, end=False, raw_newlines=raw_newlines, keyword_names=keyword_names
        )
        yield from r.ws()
        if (yield from r.peek()) not in (",", "]"):
            raise r.fail("expected ',' or ']' after a call")
        r.end_call(arguments)


# -- pythonic ---------------------------------------------------------------------------------

PY_START = "<|python_start|>"
PY_END = "<|python_end|>"
_EOT = ("<|eot|>", "<|eom|>", "<|eot_id|>", "<|eom_id|>")
_PY_HEAD = re.compile(_HEAD)
_PY_TAIL = re.compile(r"\)[ \t\r\n]*\][ \t\r\n]*\Z")


def read_bare_list(r: Reader) -> Read[None]:
    """A ``[`` that opens a list of calls, or, when no call follows it, prose."""
    k = yield from span(r, 1, _WS)
    if not (yield from looks_like_call(r, k)):
        raise Decline
    r.pos += 1
    yield from read_call_list(r)


def read_python_start(r: Reader) -> Read[None]:
    """Llama 4's ``<|python_start|>[...]`` (the ``<|python_end|>`` after it is erased)."""
    yield from r.ws()
    yield from r.expect("[")
    yield from read_call_list(r)


class PythonicDialect(CheckedDialect):
    """``[f(a=1), g(b="x")]``, optionally in ``<|python_start|>`` ... ``<|python_end|>``.

    Rendered in the Llama 4 layout (content, then the list with no separator) with valid
    Python literals: double-quoted escaped strings, bare numbers, ``True``/``False``/``None``.
    The real templates are lossy here (Llama 4 quotes every value, ``days="3"``; Llama 3.2
    drops the quotes of strings), so this canonical form deviates from both on purpose.
    """

    info = DialectInfo(
        name="pythonic",
        aliases=("llama4_pythonic",),
        priority=10,
        markers=(PY_START, "["),
        description="Pythonic call list [f(a=1), g(b='x')], Llama 4 <|python_start|> wrapper",
        source=(
            "vllm-project/vllm examples/tool_chat_template_llama4_pythonic.jinja, "
            "tool_chat_template_llama3.2_pythonic.jinja; vllm tool_parsers/pythonic_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(PY_START, read_python_start, close=PY_END, fast=fast_py_list()),
            Block("[", read_bare_list, keep_open=True, close=")]", fast=fast_py_list(bare=True)),
            erase(PY_END),
            *(erase(t) for t in _EOT),
        )
    )

    def detect(self, text: str) -> bool:
        """``<|python_start|>``, or a call list that ends the text (end-of-turn tokens aside):
        the whole reply, or content then the list as Llama 4 writes it."""
        if PY_START in text:
            return True
        if _PY_HEAD.search(text) is None:
            return False
        tail = text
        for token in (*_EOT, PY_END):
            tail = tail.replace(token, "")
        return _PY_TAIL.search(tail) is not None

    def check_content(self, content: str) -> None:
        """Any content is checked by reading the rendered text back (brackets are fine)."""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``[f(a=1), g(b="x")]`` with Python literals."""
        return (
            "["
            + ", ".join(render_call(c.name, c.arguments, lambda v: py_value(v, '"')) for c in calls)
            + "]"
        )


# -- olmo3 ------------------------------------------------------------------------------------

OLMO_OPEN = "<function_calls>"
OLMO_CLOSE = "</function_calls>"
_OLMO_HEAD = re.compile(r"<function_calls>[ \t\r\n]*[A-Za-z_][A-Za-z0-9_.\-]*[ \t\r\n]*\(")


def read_function_calls(r: Reader) -> Read[None]:
    """``<function_calls>``: calls one per line (commas tolerated) up to the closing tag."""
    while True:
        yield from r.ws()
        if (yield from r.accept(OLMO_CLOSE)) or (yield from r.at_end()):
            return
        if (yield from r.accept(",")):
            continue
        yield from read_py_call(r)


def _olmo_value(value: Any) -> str:
    if isinstance(value, str):
        return py_str(value, "'")
    if value is None or isinstance(value, bool):
        return py_value(value, "'", ("true", "false", "null"))
    return to_json(value)


class Olmo3Dialect(CheckedDialect):
    """``<function_calls>\\nf(a='x')\\ng(b=1)\\n</function_calls>`` (OLMo 3).

    Rendered as the OLMo 3 template writes a call (strings single-quoted, ``true``/``false``/
    ``null``, objects and arrays as JSON), except that quotes and backslashes in strings are
    escaped (the template writes them raw, which breaks the syntax), and content is kept: the
    template drops it, we write it first, then a newline.
    """

    info = DialectInfo(
        name="olmo3",
        priority=70,
        markers=(OLMO_OPEN,),
        description="OLMo 3: <function_calls> with one pythonic call per line",
        source=(
            "vllm-project/vllm examples/tool_chat_template_olmo3.jinja; "
            "vllm tool_parsers/olmo3_tool_parser.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(OLMO_OPEN, read_function_calls, close=OLMO_CLOSE, fast=fast_py_calls(OLMO_CLOSE)),
            erase("<|im_end|>"),
        )
    )
    content_separator = "\n"

    def detect(self, text: str) -> bool:
        """``<function_calls>`` followed by a pythonic call (not other ``<function_calls>``
        formats)."""
        return _OLMO_HEAD.search(text) is not None

    def reads_back(self, calls: list[ToolCall], content: str) -> bool:
        """Plain content and calls read back as written (:func:`plain_reads_back`; every
        marker of this grammar starts with ``<``)."""
        return plain_reads_back(calls, content)

    @plain_render_without_calls  # every reader of the grammar starts at a content marker
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """As :class:`~.base.CheckedDialect` renders; given no calls, the content once
        ``check_content`` has passed (what the read back then finds: each block and erased
        token of this grammar starts at one of its content markers)."""
        return CheckedDialect.render(self, calls, content)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The block the OLMo 3 template writes, one call per line."""
        lines = "\n".join(render_call(c.name, c.arguments, _olmo_value) for c in calls)
        return f"{OLMO_OPEN}\n{lines}\n{OLMO_CLOSE}"


class Olmo3InstructDialect(Olmo3Dialect):
    """OLMo 3 / 3.1 Instruct: the ``olmo3`` block as Ai2's own Instruct template writes it,
    right after the content, ``<function_calls>f(a="x", n=1)\ng(b=true)</function_calls>``:
    no newline around the calls, every value as ``tojson`` writes it (strings double-quoted
    with JSON escapes). Parses like ``olmo3``."""

    info = variant_info(
        Olmo3Dialect.info,
        "olmo3_instruct",
        description="OLMo 3 Instruct: the olmo3 block with tojson values, as Ai2's template",
        source="allenai/Olmo-3.1-32B-Instruct chat_template (tool_calls loop)",
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Olmo31InstructChat(),)
    content_separator = ""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls one per line, values as ``tojson``, inside the tags with no newline."""
        lines = "\n".join(render_call(c.name, c.arguments, to_json) for c in calls)
        return f"{OLMO_OPEN}{lines}{OLMO_CLOSE}"


# -- lfm2 -------------------------------------------------------------------------------------

LFM_OPEN = "<|tool_call_start|>"
LFM_CLOSE = "<|tool_call_end|>"


def read_lfm2_block(r: Reader) -> Read[None]:
    """``<|tool_call_start|>``: a pythonic list, a JSON list of call objects, one JSON call
    object, or one bare call; then ``<|tool_call_end|>`` (or the end of the text). Strings
    may hold raw line breaks and arguments may be named by Python keywords
    (``f(from='x')``): the LFM2.5 template writes string values unescaped and argument names
    as they are."""
    yield from r.ws()
    first = yield from r.peek()
    if first == "{":
        yield from json_call_object(r, close=LFM_CLOSE)
    elif first == "[":
        r.pos += 1
        yield from r.ws()
        if (yield from r.peek()) == "{":
            n = 0
            while not (yield from json_next(r, "]", n == 0)):
                n += 1
                yield from json_call_object(r)
        else:
            yield from read_call_list(r, raw_newlines=True, keyword_names=True)
    else:
        yield from read_py_call(r, raw_newlines=True, keyword_names=True)
    yield from r.close_or_end(LFM_CLOSE)


_LFM2_JSON_CALL = fast_json_call(LFM_CLOSE)
_LFM2_JSON_LIST = fast_json_array(LFM_CLOSE)
_LFM2_LIST = fast_py_list(LFM_CLOSE)
_LFM2_CALL = fast_py_calls(LFM_CLOSE, single=True)


def _after_ws(text: str, pos: int) -> str:
    m = _WS.match(text, pos)
    i = m.end() if m else pos
    return text[i : i + 1]


def fast_lfm2_block(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_lfm2_block` (``Block.fast``): a JSON call object
    or list of them, a pythonic list or one pythonic call, then ``<|tool_call_end|>`` (or the
    end of the text)."""
    m = _WS.match(text, pos)
    i = m.end() if m else pos
    lead = text[i : i + 1]
    if lead == "{":
        return _LFM2_JSON_CALL(text, pos, tools, calls)
    if lead == "[":
        json = _after_ws(text, i + 1) == "{"
        return (_LFM2_JSON_LIST if json else _LFM2_LIST)(text, pos, tools, calls)
    return _LFM2_CALL(text, pos, tools, calls)


_JSON_WORDS = frozenset({"true", "false", "null"})
_INT_BOUND = 2**53


def _plain_word(word: Any) -> bool:
    """An ASCII identifier that is no Python keyword and no JSON word (``true``...)."""
    return (
        type(word) is str
        and word.isascii()
        and word.isidentifier()
        and not keyword.iskeyword(word)
        and word not in _JSON_WORDS
    )


def plain_reads_back(calls: list[ToolCall], content: str) -> bool:
    """Whether the text an LFM2 or OLMo 3 dialect writes for ``calls`` after ``content``
    reads back as them without reading it: content that holds no ``<`` (every marker of
    these grammars starts with one, so such text parses as itself) and plain calls
    (:func:`_plain_call`). The dialects' :meth:`~.base.CheckedDialect.reads_back`."""
    return "<" not in content and all([_plain_call(c) for c in calls])


def _plain_call(call: ToolCall) -> bool:
    """Whether the block :class:`Lfm2Dialect` writes for ``call`` reads back as ``call``
    without reading it: a plain name and keys (:func:`_plain_word`), values that are
    ``None``, booleans, integers of less than 2**53 in size or printable strings holding no
    quote, backslash or ``<`` (written as ``'`` + the string + ``'`` in both dialects, read
    back as they are). Anything else is read back."""
    arguments = call.arguments
    if type(arguments) is not dict or not _plain_word(call.name):
        return False
    for key, value in arguments.items():
        if not _plain_word(key):
            return False
        kind = type(value)
        if kind is str:
            if not value.isprintable() or "'" in value or '"' in value or "\\" in value:
                return False
            if "<" in value:
                return False
        elif kind is int:
            if not -_INT_BOUND < value < _INT_BOUND:
                return False
        elif kind is not bool and value is not None:
            return False
    return True


def _lfm2_value(value: Any) -> str:
    if isinstance(value, str):
        return py_str(value, "'")
    if isinstance(value, dict):
        return to_json(value)
    return py_value(value, "'")


class Lfm2Dialect(CheckedDialect):
    """``<|tool_call_start|>[f(a='x')]<|tool_call_end|>`` (LiquidAI LFM2 / LFM2.5).

    Rendered as the LFM2.5 template writes it (content, then the block with no separator;
    strings single-quoted, dicts as JSON, everything else as Python's ``str``), except that
    quotes and backslashes in strings are escaped (the template writes them raw; the ``lfm25``
    variant writes them raw where that reads back).
    """

    info = DialectInfo(
        name="lfm2",
        priority=90,
        markers=(LFM_OPEN,),
        description="LFM2: <|tool_call_start|>[pythonic or JSON list]<|tool_call_end|>",
        source=(
            "ggml-org/llama.cpp models/templates/LFM2.5-8B-A1B.jinja; "
            "vllm tool_parsers/lfm2_tool_parser.py; sglang function_call/lfm2_detector.py"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(LFM_OPEN, read_lfm2_block, close=LFM_CLOSE, fast=fast_lfm2_block),
            reasoning_region("<think>", "</think>"),
            erase("<|im_end|>"),
        )
    )
    chat_formats: ClassVar[tuple[ChatFormat, ...]] = (Lfm2Chat(), Lfm2PiiExtractJpChat())

    @plain_render_without_calls  # every reader of the grammar starts at a content marker
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """As :class:`~.base.CheckedDialect` renders (the text read back and compared, unless
        :meth:`reads_back` knows it); content alone that holds no ``<`` is returned as it is
        (see :meth:`reads_back`)."""
        if not calls and type(content) is str and "<" not in content:
            return content
        return super().render(calls, content)

    def reads_back(self, calls: list[ToolCall], content: str) -> bool:
        """Plain content and calls read back as written (:func:`plain_reads_back`; every
        marker of this grammar, ``</think>`` too, starts with ``<``)."""
        return plain_reads_back(calls, content)

    keyword_names: ClassVar[bool] = False
    """Arguments named by a Python keyword are written as they are (``f(from='x')``), as the
    LFM2.5 template writes them; ``False``: refused (the text would not be Python)."""

    def render_calls(self, calls: list[ToolCall]) -> str:
        """All calls in one block, joined by ``", "``."""
        kw = self.keyword_names
        body = ", ".join(
            [render_call(c.name, c.arguments, self.value_text, keyword_names=kw) for c in calls]
        )
        return f"{LFM_OPEN}[{body}]{LFM_CLOSE}"

    def value_text(self, value: Any) -> str:
        """One argument value as written in the call."""
        return _lfm2_value(value)


_V2_ESCAPES = str.maketrans({"\\": "\\\\", "'": "\\'", "\n": "\\n", "\r": "\\r"})
"""What LFM2-1.2B's template escapes in a string value (nothing else: a tab stays raw)."""


class Lfm2V2Dialect(Lfm2Dialect):
    """LFM2-1.2B since its revision 40f3da0, whose template writes the calls itself: the
    ``lfm2`` block with a string as ``'`` + the string with ``\\``, ``'``, line feeds and
    carriage returns escaped + ``'`` (no other character escaped), an object or an array as
    ``tojson`` (``["a", 1]``, where ``lfm2`` writes a list as Python does, ``['a', 1]``), any
    other value as Python's ``str`` (``True``, ``None``); an argument named by a Python keyword
    as it is (``f(from='x')``)."""

    info = variant_info(
        Lfm2Dialect.info,
        "lfm2_v2",
        description="LFM2-1.2B (revision 40f3da0): the lfm2 block with arrays as JSON",
        source="LiquidAI/LFM2-1.2B chat_template (revision 40f3da0; TRL 1.16.0's lfm2_v2.jinja)",
    )
    chat_formats = (Lfm2V2Chat(),)
    keyword_names = True

    def value_text(self, value: Any) -> str:
        """Oddity: the template's ``format_arg_value``: strings with four escapes, objects
        and arrays as ``tojson``, the rest as ``| string``."""
        if isinstance(value, str):
            return "'" + value.translate(_V2_ESCAPES) + "'"
        if isinstance(value, (dict, list)):
            return to_json(value)
        return _lfm2_value(value)


def _raw_readable(text: str) -> bool:
    """A string the LFM2.5 template's unescaped ``'...'`` form writes so that it reads back:
    no quote, no backslash, nothing unprintable but line breaks."""
    return "'" not in text and "\\" not in text and text.replace("\n", "").isprintable()


class Lfm25Dialect(Lfm2Dialect):
    """LFM2.5: the ``lfm2`` block with string values written as the LFM2.5-8B-A1B template
    writes them, ``'`` + the string + ``'`` with nothing escaped (what the model was trained
    on; the ``lfm2`` parser reads raw line breaks in them). A string holding a quote, a
    backslash or an unprintable character other than a line break would not read back that
    way and is escaped as ``lfm2`` escapes it. An argument named by a Python keyword is
    written as the template writes it, ``f(from='x')`` (not Python; the ``lfm2`` parser reads
    it)."""

    info = variant_info(
        Lfm2Dialect.info,
        "lfm25",
        aliases=("lfm2.5",),
        description="LFM2.5: the lfm2 block with unescaped '...' strings",
        source="ggml-org/llama.cpp models/templates/LFM2.5-8B-A1B.jinja (format_arg_value)",
    )
    chat_formats = (Lfm25Chat(), Lfm25InstructChat())
    keyword_names = True

    def value_text(self, value: Any) -> str:
        """A string as ``'`` + itself + ``'`` where that reads back, else as ``lfm2``."""
        if isinstance(value, str) and _raw_readable(value):
            return f"'{value}'"
        return _lfm2_value(value)


# -- sarashina --------------------------------------------------------------------------------

SARASHINA_TOKEN = "<|tool_calls|>"
_SARASHINA_MARKED = re.compile(r"<\|tool_calls\|>[ \t\r\n]*[\[{]")
_SARASHINA_BARE = re.compile(
    r"[ \t\r\n]*(?:\[[ \t\r\n]*)?\{[ \t\r\n]*'(?:name|arguments)'[ \t\r\n]*:"
)


def read_dict_call(r: Reader) -> Read[None]:
    """One ``{'name': ..., 'arguments': {...}}`` dict, reported once it has closed."""
    if (yield from r.peek()) != "{":
        raise r.fail("expected a call dict")
    at = r.pos
    item = value_of((yield from bracketed(r)), at)
    if not isinstance(item, dict):
        raise BlockError("a tool call must be a dict", at)
    name = item.get("name")
    if not isinstance(name, str):
        raise BlockError("a tool call needs a string 'name'", at)
    arguments = item.get("arguments", item.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = loads(arguments, at) if arguments.strip() else {}
    if not isinstance(arguments, dict):
        raise BlockError("'arguments' must be a dict", at)
    r.start_call(name)
    if r.engine.deltas:
        r.args(to_json(arguments))
    r.end_call(arguments)


def read_dict_list(r: Reader) -> Read[None]:
    """A list of call dicts (read from ``[``)."""
    yield from r.expect("[")
    first = True
    while not (yield from json_next(r, "]", first)):
        first = False
        yield from read_dict_call(r)


def read_tool_calls_token(r: Reader) -> Read[None]:
    """After ``<|tool_calls|>``: a list of call dicts, or a single dict."""
    yield from r.ws()
    if (yield from r.peek()) == "{":
        yield from read_dict_call(r)
    else:
        yield from read_dict_list(r)


def _call_key_at(r: Reader, k: int) -> Read[bool]:
    quote = yield from char_at(r, k)
    if quote not in ("'", '"'):
        return False
    for key in ("name", "arguments"):
        if (yield from starts_at(r, k + 1, key + quote)):
            return True
    return False


def read_bare_dicts(r: Reader) -> Read[None]:
    """A leading ``[{'name': ...}, ...]`` list, or prose that starts with ``[``."""
    k = yield from span(r, 1, _WS)
    ok = (yield from char_at(r, k)) == "{"
    if ok:
        k = yield from span(r, k + 1, _WS)
        ok = yield from _call_key_at(r, k)
    if not ok:
        raise Decline
    yield from read_dict_list(r)


def read_bare_dict(r: Reader) -> Read[None]:
    """A leading single ``{'name': ...}`` dict, or prose that starts with ``{``."""
    k = yield from span(r, 1, _WS)
    if not (yield from _call_key_at(r, k)):
        raise Decline
    yield from read_dict_call(r)


def _dict_call(item: Any) -> ToolCall | None:
    """The call a decoded call dict describes, as :func:`read_dict_call` reads it, or
    ``None`` where that fails (``BlockError`` for arguments that are not JSON)."""
    if not isinstance(item, dict):
        return None
    name = item.get("name")
    if not isinstance(name, str):
        return None
    arguments = item.get("arguments", item.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = loads(arguments) if arguments.strip() else {}
    if not isinstance(arguments, dict):
        return None
    return ToolCall(name, arguments)


_BARE_LIST = re.compile(r"\[[ \t\r\n]*\{[ \t\r\n]*(['\"])(?:name|arguments)\1")
_BARE_DICT = re.compile(r"\{[ \t\r\n]*(['\"])(?:name|arguments)\1")


def _fast_dicts(text: str, pos: int, calls: list[ToolCall]) -> int:
    """The call dict, or the non-empty list of call dicts, that opens at ``pos``."""
    found = py_literal_at(text, pos)
    if found is None:
        return -1
    value, end = found
    items = value if isinstance(value, list) else [value]
    if not items:
        return -1
    out: list[ToolCall] = []
    try:
        for item in items:
            call = _dict_call(item)
            if call is None:
                return -1
            out.append(call)
    except BlockError:
        return -1
    calls.extend(out)
    return end


def fast_tool_calls_token(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_tool_calls_token` (``Block.fast``)."""
    m = _WS.match(text, pos)
    return _fast_dicts(text, m.end() if m else pos, calls)


def fast_bare_dicts(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_bare_dicts` and :func:`read_bare_dict`
    (``Block.fast``): a leading list of call dicts, or one call dict."""
    head = _BARE_LIST if text.startswith("[", pos) else _BARE_DICT
    if head.match(text, pos) is None:
        return -1
    return _fast_dicts(text, pos, calls)


class SarashinaDialect(CheckedDialect):
    """``<|tool_calls|>[{'name': 'f', 'arguments': {...}}]`` (SoftBank Sarashina).

    The token is often stripped as a special token, so a list of call dicts at the very start
    of the reply counts too (a list after prose is prose). Rendered as Python's ``repr``
    style (``': '``/``', '``, single quotes) after the token, content first.
    """

    info = DialectInfo(
        name="sarashina",
        priority=5,
        markers=(SARASHINA_TOKEN, "'name'"),
        description="Sarashina: <|tool_calls|> + Python-literal list of {'name','arguments'}",
        source="lightseekorg/smg crates/tool_parser/src/parsers/sarashina.rs",
    )
    max_depth = CheckedDialect.max_depth - 1
    """The call dict around the arguments takes one of the readers' bracket levels."""
    grammar = Grammar(
        blocks=(
            Block(SARASHINA_TOKEN, read_tool_calls_token, fast=fast_tool_calls_token),
            Block("[", read_bare_dicts, keep_open=True, at_start=True, fast=fast_bare_dicts),
            Block("{", read_bare_dict, keep_open=True, at_start=True, fast=fast_bare_dicts),
        )
    )

    def detect(self, text: str) -> bool:
        """The token before a list or dict, or a leading single-quoted call-dict list (a
        JSON list is left to the JSON-list dialects)."""
        return _SARASHINA_MARKED.search(text) is not None or _SARASHINA_BARE.match(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``<|tool_calls|>`` and the list of call dicts in ``repr`` style."""
        items = ", ".join(
            f"{{'name': {py_str(c.name)}, 'arguments': {py_value(c.arguments)}}}" for c in calls
        )
        return f"{SARASHINA_TOKEN}[{items}]"


@hookimpl
def register_dialects(register: Any) -> None:
    """Register pythonic, olmo3 (and its variant olmo3_instruct), lfm2 (and its variants
    lfm2_v2 and lfm25) and sarashina."""
    register(PythonicDialect())
    register(Olmo3Dialect())
    register(Olmo3InstructDialect())
    register(Lfm2Dialect())
    register(Lfm2V2Dialect())
    register(Lfm25Dialect())
    register(SarashinaDialect())
    for row in MODELS:
        register(row)
