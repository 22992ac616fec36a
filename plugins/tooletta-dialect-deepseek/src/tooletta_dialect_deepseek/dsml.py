"""DeepSeek V3.2 and V4 tool calls: DSML, XML-like tags behind the ``｜DSML｜`` sentinel.

Pinned from DeepSeek's reference encoders as vendored by vLLM
(``vllm/tokenizers/deepseek_v32_encoding.py``, a copy of HF ``deepseek-ai/DeepSeek-V3.2``
``encoding/encoding_dsv32.py``; ``deepseek_v4_encoding.py``; ``deepseek_v41_encoding.py``)::

    Let me check.

    <｜DSML｜function_calls>
    <｜DSML｜invoke name="get_weather">
    <｜DSML｜parameter name="city" string="true">Paris</｜DSML｜parameter>
    <｜DSML｜parameter name="days" string="false">3</｜DSML｜parameter>
    </｜DSML｜invoke>
    </｜DSML｜function_calls>

V4 names the outer block ``tool_calls``; V4.1 writes every tag name with one leading space
(``<｜DSML｜ calls>``, ``<｜DSML｜ invoke name=...>``, ``<｜DSML｜ parameter ...>``). The
encoders always put ``\\n\\n`` before the block, join parameters and invokes with ``\\n``, write
string values raw (no escaping at all) with ``string="true"`` and everything else as JSON with
``string="false"``; attribute values are not escaped.

Every invoke is its own block, so a malformed one is kept as unparsed data while the others
parse; the outer block's tags only frame them (bare invokes parse too). Both dialects read
every spelling; they differ in what they render and in detection. Tolerated: a missing
``string`` attribute (the value is then typed by the schema), an invoke body that is a JSON
object (SGLang's "direct JSON"), the self-closing ``<｜DSML｜invoke name="x"/>`` and V4's
``<｜DSML｜toolcalls>`` / ``<｜DSML｜tool>`` openers. A leaked ``<｜end▁of▁sentence｜>`` is
removed, also from inside a value (as smg does). Reasoning is ``<think>`` ... ``</think>``; a
tool block opened inside the reasoning ends it. A bare ``</think>`` (thinking mode: the
prompt opened the reasoning) stays in the content, where the caller can split on it.
Rendering omits the end-of-turn token the encoders append.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

from tooletta import DialectInfo, ScannerDialect, ToolCall
from tooletta.plugin import (
    ArgsWriter,
    Block,
    BlockReader,
    Declared,
    FastReader,
    Grammar,
    MarkerSet,
    Read,
    Reader,
    declared_value,
    erase,
    json_args,
    json_without,
    kinds_of,
    one_shot,
    read_attrs,
    read_value,
    scan_arguments,
    scan_attrs,
    section,
    skip_ws,
    think_region,
)

from .chat import DeepSeekV32Chat
from .tokens import EOS

__all__ = ["DSML", "DeepSeekV4Dialect", "DeepSeekV32Dialect", "Spelling"]

DSML = "｜DSML｜"


class Spelling:
    """The tag names of one DSML spelling: ``""`` (V3.2 / V4) or ``" "`` (V4.1)."""

    def __init__(self, space: str, block: str):
        """``space`` goes before every tag name; ``block`` is the outer block's name."""
        self.invoke = f"<{DSML}{space}invoke"
        self.invoke_close = f"</{DSML}{space}invoke>"
        self.param = f"<{DSML}{space}parameter"
        self.param_close = f"</{DSML}{space}parameter>"
        self.block_open = f"<{DSML}{block}>"
        self.block_close = f"</{DSML}{block}>"
        self.value_ends = MarkerSet((self.param_close, EOS))


V32 = Spelling("", "function_calls")
V4 = Spelling("", "tool_calls")
V41 = Spelling(" ", " calls")
_ERASED = frozenset((EOS,))
_V4_OPENERS = (f"<{DSML}toolcalls>", f"<{DSML}tool>")


def _invoke_reader(sp: Spelling) -> BlockReader:
    def read(r: Reader) -> Read[None]:
        attrs, end = yield from read_attrs(r, (">", "/>"))
        name = attrs.get("name", "").strip()
        if not name:
            raise r.fail("invoke without a name")
        r.start_call(name)
        w = ArgsWriter(r, name)
        if end == "/>":
            w.close()
            return
        yield from r.ws()
        if (yield from r.peek()) == "{":  # the body is the arguments object itself
            yield from json_args(r, EOS)
            yield from r.ws()
            yield from r.expect(sp.invoke_close)
            return
        while (yield from r.item_or_end(sp.param, sp.invoke_close)):
            attrs, _ = yield from read_attrs(r, (">",))
            key = attrs.get("name")
            if key is None:
                raise r.fail("parameter without a name")
            flag = attrs.get("string")
            declared: Declared = "string" if flag == "true" else "json" if flag == "false" else None
            yield from read_value(r, w, key, declared, sp.value_ends, _ERASED)
        w.close()

    return read


_INVOKE_ATTRS = MarkerSet(("=", ">", "/>"))
_PARAM_ATTRS = MarkerSet(("=", ">"))
_INVOKE_TAG = re.compile(r'[ \t\r\n]*name="([^"]*)">')
"""An invoke's start tag in the common case, after ``<｜DSML｜invoke``."""


def _param_tag(text: str, pos: int) -> tuple[str, str | None, int] | None:
    """A parameter's start tag from after ``<｜DSML｜parameter``: its name and ``string`` flag."""
    got = scan_attrs(text, pos, _PARAM_ATTRS)
    if got is None or got[0].get("name") is None:
        return None
    attrs, _, pos = got
    return attrs["name"], attrs.get("string"), pos


def _fast_invoke(sp: Spelling) -> FastReader:
    """The one-shot shortcut of :func:`_invoke_reader`: an invoke of parameters (an arguments
    object as the body is left to the reader)."""
    param_tag = re.compile(f'[ \\t\\r\\n]*{re.escape(sp.param)} name="([^"]*)" string="([^"]*)">')
    param_close = sp.param_close

    def common(text: str, pos: int) -> tuple[str, str | None, int] | None:
        m = param_tag.match(text, pos)  # `<｜DSML｜parameter name="K" string="B">`
        return None if m is None else (m.group(1), m.group(2), m.end())

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        m = _INVOKE_TAG.match(text, pos)
        if m is not None:
            name, pos = m.group(1).strip(), m.end()
        else:
            got = scan_attrs(text, pos, _INVOKE_ATTRS)
            if got is None:
                return -1
            attrs, closer, pos = got
            name = attrs.get("name", "").strip()
            if name and closer == "/>":
                calls.append(ToolCall(name, {}))
                return pos
        if not name:
            return -1
        tool = name
        kinds, kind = kinds_of(tools, tool)
        pos = skip_ws(text, pos)
        if text.startswith("{", pos):
            return -1

        def value(text: str, pos: int, key: str, flag: str | None) -> tuple[Any, int] | None:
            end = text.find(param_close, pos)
            if end < 0:
                return None
            raw = text[pos:end]
            if EOS in raw:
                raw = raw.replace(EOS, "")  # what read_value drops (_ERASED)
            t, schema = kinds.get(key) or kind(tool, key)
            if flag == "true" and t == "string":
                return raw, end + len(param_close)
            declared: Declared = "string" if flag == "true" else "json" if flag == "false" else None
            return declared_value(raw, declared, t, schema), end + len(param_close)

        return scan_arguments(
            text,
            pos,
            tool,
            calls,
            opener=sp.param,
            closer=sp.invoke_close,
            common=common,
            tag=_param_tag,
            value=value,
        )

    return one_shot(fast)


_BLOCK_OPENERS = (V32.block_open, V4.block_open, V41.block_open, *_V4_OPENERS)

GRAMMAR = Grammar(
    blocks=(
        Block(V4.invoke, _invoke_reader(V4), close=V4.invoke_close, fast=_fast_invoke(V4)),
        Block(V41.invoke, _invoke_reader(V41), close=V41.invoke_close, fast=_fast_invoke(V41)),
        *(section(t) for t in _BLOCK_OPENERS),
        *(section(s.block_close) for s in (V32, V4, V41)),
        think_region("<think>", "</think>", ends=_BLOCK_OPENERS),
        erase(EOS),
    )
)


class _Dsml(ScannerDialect):
    """What the DSML dialects share: the grammar and the renderer."""

    grammar: ClassVar[Grammar] = GRAMMAR
    spelling: Spelling

    def _param(self, key: str, value: Any) -> str:
        sp = self.spelling
        if '"' in key:
            raise self.error(f"a parameter name cannot hold '\"': {key!r}")
        if isinstance(value, str) and sp.param_close not in value and EOS not in value:
            flag, text = "true", value
        else:
            # JSON; a value holding the closing tag gets its "<" escaped (only strings hold "<")
            flag, text = "false", json_without(value, (sp.param_close, EOS))
        return f'{sp.param} name="{key}" string="{flag}">{text}{sp.param_close}'

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The block as the reference encoder writes it, with the ``\\n\\n`` before it."""
        sp = self.spelling
        invokes = []
        for c in calls:
            if not c.name or c.name != c.name.strip() or '"' in c.name:
                raise self.error(f"cannot write the tool name {c.name!r}")
            params = "\n".join([self._param(k, v) for k, v in c.arguments.items()])
            invokes.append(f'{sp.invoke} name="{c.name}">\n{params}\n{sp.invoke_close}')
        return f"\n\n{sp.block_open}\n" + "\n".join(invokes) + f"\n{sp.block_close}"


class DeepSeekV32Dialect(_Dsml):
    """DeepSeek V3.2: DSML in ``<｜DSML｜function_calls>``."""

    spelling = V32
    info = DialectInfo(
        name="deepseek_v32",
        aliases=("deepseekv32", "deepseek32"),
        priority=90,
        markers=(V32.block_open, V32.invoke),
        description=(
            'DeepSeek V3.2 DSML: <｜DSML｜function_calls> <｜DSML｜invoke name="F"> '
            '<｜DSML｜parameter name="K" string="true|false">'
        ),
        source=(
            "vllm-project/vllm vllm/tokenizers/deepseek_v32_encoding.py "
            "(HF deepseek-ai/DeepSeek-V3.2 encoding/encoding_dsv32.py)"
        ),
    )

    chat_formats = (DeepSeekV32Chat(),)

    def detect(self, text: str) -> bool:
        """A ``function_calls`` block, or bare invokes with no V4 marker around."""
        if V32.block_open in text:
            return True
        return not any(m in text for m in DeepSeekV4Dialect.info.markers)


class DeepSeekV4Dialect(_Dsml):
    """DeepSeek V4: DSML in ``<｜DSML｜tool_calls>`` (V4.1: ``<｜DSML｜ calls>``, spaced tags).

    The registered dialect renders the V4 spelling; ``DeepSeekV4Dialect(v41=True)`` renders
    V4.1's (both are parsed either way).
    """

    info = DialectInfo(
        name="deepseek_v4",
        aliases=("deepseekv4", "deepseek_v41", "deepseekv41"),
        priority=90,
        markers=(V4.block_open, V41.block_open, V41.invoke, *_V4_OPENERS),
        description=(
            "DeepSeek V4 DSML: <｜DSML｜tool_calls> (V4.1: <｜DSML｜ calls>, space-prefixed tags)"
        ),
        source=(
            "vllm-project/vllm vllm/tokenizers/deepseek_v4_encoding.py and "
            "deepseek_v41_encoding.py (DeepSeek V4 / V4.1 reference encoders)"
        ),
    )

    def __init__(self, v41: bool = False):
        """``v41=True`` renders the V4.1 spelling (``<｜DSML｜ calls>``, spaced tag names)."""
        self.spelling = V41 if v41 else V4
