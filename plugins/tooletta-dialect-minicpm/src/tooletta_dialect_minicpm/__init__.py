"""MiniCPM5 tool calls: ``<function name="F"><param name="K">V</param></function>``.

Pinned from the MiniCPM5 chat template's assistant branch (as quoted by third-party copies;
the ``openbmb`` file itself was not read), which writes the content and then, with no
separator, each call as (one line)::

    <function name="get_weather"><param name="city">Paris</param>
    <param name="days">3</param></function>

Values may be wrapped in ``<![CDATA[...]]>``. Plain values are stripped of surrounding
whitespace (vLLM's and SGLang's ``minicpm5`` parsers strip them); CDATA content is kept
verbatim. Values are typed by the request's tool schemas (no schema: JSON when valid, else the
string). Rendering writes strings bare when they read back unchanged and in CDATA otherwise
(surrounding whitespace, ``<`` or ``&``), and non-strings as JSON (how the template writes
them is not pinned: it concatenates with ``~``). Entities such as ``&amp;`` are not decoded:
the template writes values raw. A ``<param>`` without a name makes its call malformed.
Reasoning is ``<think>``...``</think>``; ``<|im_end|>`` is stripped. The format has no call ids.
"""

from __future__ import annotations

import math
import re
from typing import Any

from tooletta import DialectInfo, RenderError, ScannerDialect, ToolCall, hookimpl
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Decline,
    Grammar,
    MarkerSet,
    Read,
    Reader,
    erase,
    json_without,
    kinds_of,
    one_shot,
    one_shot_value,
    reasoning_region,
    scan_arguments,
    skip_ws,
    tag_end,
    typed,
    typed_value,
)
from tooletta_dialect_minicpm.models import MODELS

__all__ = ["MiniCPM5Dialect", "register_dialects"]

OPEN = "<function name="
CLOSE = "</function>"
PARAM = "<param name="
PARAM_BARE = "<param"
PARAM_END = "</param>"
CDATA = "<![CDATA["
CDATA_END = "]]>"

_WS = " \t\r\n"
_ATTR_ENDS = ('"', "'", ">", "\n", "<")
_BAD_NAME = re.compile(r"[\"'<>\n]")
_DETECT = re.compile(
    r"<function name=[\"'][^\"'<>\n]{1,256}[\"'][^<>\n]{0,64}>[ \t\r\n]*(?:<param|</function>)"
)


def _attribute(r: Reader) -> Read[str]:
    """A quoted attribute value (``"x"`` or ``'x'``) right here, up to its closing quote."""
    quote = yield from r.accept('"', "'")
    if not quote:
        raise r.fail("expected a quoted name")
    raw, end = yield from r.until(_ATTR_ENDS)
    value = raw.strip(_WS)
    if end != quote or not value:
        raise r.fail("expected a name in quotes")
    return value


def read_call(r: Reader) -> Read[None]:
    """One ``<function name="...">`` block, through ``</function>``.

    Prose that mentions ``<function name=`` without a quoted name after it stays content.
    """
    first = yield from r.peek()
    if first and first not in "\"'":
        raise Decline
    name = yield from _attribute(r)
    _extra, end = yield from r.until((">", "<", "\n"))  # other attributes are ignored
    if end != ">":
        raise r.fail("expected '>' after the function name")
    r.start_call(name)
    w = ArgsWriter(r, name)
    while True:
        yield from r.ws()
        lit = yield from r.accept(PARAM, PARAM_BARE, CLOSE)
        if lit == CLOSE:
            w.close()
            return
        if lit != PARAM:
            raise r.fail("expected <param name=...> or </function>")
        key = yield from _attribute(r)
        yield from r.expect(">")
        yield from r.ws()
        if (yield from r.accept(CDATA)):
            yield from typed_value(r, w, key, (CDATA_END,))
            yield from r.ws()
            yield from r.expect(PARAM_END)
        else:
            end = yield from typed_value(r, w, key, (PARAM_END, CLOSE), trim="space")
            if end != PARAM_END:
                raise r.fail(f"expected {PARAM_END!r}")


# -- one-shot shortcut ----------------------------------------------------------------------

_ATTR_END = MarkerSet(_ATTR_ENDS)
_CLOSE = (CLOSE,)
_TAG_END = MarkerSet((">", "<", "\n"))
_FAST_PARAM = re.compile(r'[ \t\r\n]*<param name="([^"\'<>\n]*)">[ \t\r\n]*')
"""Whitespace, a parameter's start tag in the common case, whitespace."""


def _scan_attribute(text: str, pos: int) -> tuple[str, int] | None:
    """:func:`_attribute` from ``pos``: the name and the position after its closing quote."""
    quote = text[pos : pos + 1]
    if quote != '"' and quote != "'":
        return None
    at, end = _ATTR_END.find(text, pos + 1)
    value = text[pos + 1 : at].strip(_WS)
    if end != quote or not value:
        return None
    return value, at + 1


def _fast_param(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """Whitespace, a parameter's start tag in the common case (`<param name="K">`) and the
    whitespace after it (which the reader skips there too)."""
    m = _FAST_PARAM.match(text, pos)
    if m is None:
        return None
    return m.group(1).strip(_WS), None, m.end()


def _param_tag(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """A parameter's start tag from after ``<param name=``: its name and, after the ``>``,
    the whitespace the reader skips."""
    got = _scan_attribute(text, pos)
    if got is None or not text.startswith(">", got[1]):
        return None
    return got[0], None, skip_ws(text, got[1] + 1)


@one_shot
def fast_call(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_call` (prose is left to the reader)."""
    got = _scan_attribute(text, pos)
    if got is None:
        return -1
    name, pos = got
    at, end = _TAG_END.find(text, pos)
    if end != ">":
        return -1
    kinds, kind = kinds_of(tools, name)

    def value(text: str, pos: int, key: str, flag: str | None) -> tuple[Any, int] | None:
        if not key:
            return None
        t, schema = kinds.get(key) or kind(name, key)
        if text.startswith(CDATA, pos):
            start = pos + len(CDATA)
            at = text.find(CDATA_END, start)
            if at < 0:
                return None
            pos = skip_ws(text, at + len(CDATA_END))
            if not text.startswith(PARAM_END, pos):
                return None
            return typed(text[start:at], t, schema), pos + len(PARAM_END)
        # up to the first of PARAM_END and CLOSE, which must be PARAM_END
        at = tag_end(text, pos, PARAM_END, _CLOSE)
        if at < 0:
            return None
        raw = text[pos:at].strip(_WS)  # trim "space"
        return (raw if t == "string" else one_shot_value(raw, t, schema)), at + len(PARAM_END)

    return scan_arguments(
        text,
        at + 1,
        name,
        calls,
        opener=PARAM,
        closer=CLOSE,
        common=_fast_param,
        tag=_param_tag,
        value=value,
    )


def _check_name(name: str, what: str, dialect: str) -> str:
    if not name or name != name.strip(_WS) or _BAD_NAME.search(name):
        raise RenderError(f'{what} {name!r} cannot be written in name="..."', dialect=dialect)
    return name


def _value(value: Any, dialect: str) -> str:
    if isinstance(value, str):
        if value == value.strip(_WS) and "<" not in value and "&" not in value:
            return value
        if CDATA_END in value:
            raise RenderError(
                f"a string value needs CDATA but contains {CDATA_END!r}", dialect=dialect
            )
        return f"{CDATA}{value}{CDATA_END}"
    if isinstance(value, float) and not math.isfinite(value):
        raise RenderError(f"{value!r} is not a JSON number", dialect=dialect)
    return json_without(value, (PARAM_END, CLOSE))


class MiniCPM5Dialect(ScannerDialect):
    """``<function name="F"><param name="K">V</param>...</function>`` per call."""

    info = DialectInfo(
        name="minicpm5",
        aliases=("minicpm",),
        priority=70,
        markers=(OPEN,),
        description=(
            'MiniCPM5: <function name="F"><param name="K">V</param></function>, CDATA values, '
            "typed by the tool schema, <think> reasoning"
        ),
        source="openbmb MiniCPM5 chat template (quoted copies); vLLM minicpm5xml_tool_parser.py, "
        "SGLang minicpm5_detector.py",
    )
    grammar = Grammar(
        blocks=(
            Block(OPEN, read_call, close=CLOSE, fast=fast_call),
            reasoning_region("<think>", "</think>"),
            erase("<|im_end|>"),
        )
    )

    def detect(self, text: str) -> bool:
        """``<function name="F">`` followed by a ``<param`` or ``</function>``."""
        return _DETECT.search(text) is not None

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as the template writes it, back to back."""
        d = self.info.name
        out = []
        for c in calls:
            params = "".join(
                f'{PARAM}"{_check_name(k, "parameter name", d)}">{_value(v, d)}{PARAM_END}'
                for k, v in c.arguments.items()
            )
            out.append(f'{OPEN}"{_check_name(c.name, "function name", d)}">{params}{CLOSE}')
        return "".join(out)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the minicpm5 dialect."""
    for declared in (MiniCPM5Dialect(), *MODELS):
        register(declared)
