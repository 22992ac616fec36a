"""The practical limits the benchmarks compare against (issue: performance).

``msgspec_decode``: decoding the argument payloads alone. The *minimal parsers*, one per
dialect family: hand-written one-shot parsers that do nothing but ``str.find`` for the markers
and one msgspec decode per call into a struct (JSON families), or, for the XML and key/value
families, one ``find`` per tag and the typing of each value by its schema (``int``, ``bool``,
a msgspec decode for objects, the text for strings). No validation, no content handling, no
error recovery: the floor a general parser is measured against. ``minimal_stream``: a minimal
incremental scanner (per delta one ``rfind`` for a marker start, hold back a possible marker
prefix, append) plus the one-shot minimal parser at the end.

``family_for`` gives every first-party dialect but ``canonical`` its reading as a
:class:`Family` (markers and a body reader), which :func:`family_parser` runs one-shot and
:class:`MinimalScanner` incrementally. Formats that put several calls in one JSON document
(a list, lines, ``;``-separated objects, an OpenAI message) are read with one msgspec decode
of the block; formats whose values are not JSON with one pass of ``find`` per tag or string
(Gemma's call syntax, MiniMax-M3's sentinel-prefixed elements, VCP's delimiters, Cline's tool
tags) or ``ast.literal_eval`` (Seed-OSS's Python literals). ``canonical`` is tooletta's own
JSON document: its parse is one msgspec decode into the IR, so its floor is the
``msgspec_decode`` column itself.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, NamedTuple

import msgspec

OPEN, CLOSE = "<tool_call>", "</tool_call>"


class _Call(msgspec.Struct):
    name: str
    arguments: dict[str, Any]


_decode_call = msgspec.json.Decoder(_Call).decode
_decode_args = msgspec.json.Decoder(dict[str, Any]).decode
_decode_any = msgspec.json.decode

Minimal = Callable[[str], list[Any]]


def msgspec_decode(payloads: list[bytes]) -> None:
    """Decode every argument payload (the raw limit)."""
    for p in payloads:
        _decode_any(p)


def minimal_hermes(text: str) -> list[_Call]:
    """Find each block and decode its object: nothing else."""
    calls: list[_Call] = []
    pos = 0
    while True:
        start = text.find(OPEN, pos)
        if start < 0:
            return calls
        end = text.find(CLOSE, start)
        calls.append(_decode_call(text[start + len(OPEN) : end]))
        pos = end + len(CLOSE)


def header_args(
    call_open: str, sep: str, call_close: str | None, name: Callable[[str], str] = str.strip
) -> Minimal:
    """``OPEN header SEP {json} CLOSE`` per call (Kimi, DeepSeek, Harmony, Mistral v11).

    ``call_close=None``: the arguments run to the next ``call_open`` (or the end).
    """
    n_open, n_sep = len(call_open), len(sep)

    def parse(text: str) -> list[tuple[str, dict[str, Any]]]:
        calls = []
        pos = text.find(call_open)
        while pos >= 0:
            head = pos + n_open
            s = text.find(sep, head)
            if call_close is None:
                nxt = text.find(call_open, s)
                end = len(text) if nxt < 0 else nxt
                pos = nxt
            else:
                end = text.find(call_close, s)
                pos = text.find(call_open, end)
            calls.append((name(text[head:s]), _decode_args(text[s + n_sep : end])))
        return calls

    return parse


def _typed(raw: str, kind: str | None) -> Any:
    if kind == "string":
        return raw
    if kind == "integer":
        return int(raw)
    if kind == "boolean":
        return raw == "true"
    return _decode_any(raw)


def xml_params(
    call_open: str,
    name_end: str,
    key_open: str,
    key_end: str,
    value_end: str,
    call_close: str,
    types: dict[str, dict[str, str]],
    *,
    value_open: str = "",
    strip_newline: bool = False,
) -> Minimal:
    """Tags per call and per parameter (Qwen3-Coder XML, GLM key/value); each value typed by
    its schema (``types``: tool -> parameter -> JSON type)."""
    n_open, n_key = len(call_open), len(key_open)
    n_kend, n_vopen = len(key_end), len(value_open)

    def parse(text: str) -> list[tuple[str, dict[str, Any]]]:
        calls = []
        pos = text.find(call_open)
        while pos >= 0:
            head = pos + n_open
            at = text.find(name_end, head)
            name = text[head:at]
            close = text.find(call_close, at)
            kinds = types.get(name, {})
            args: dict[str, Any] = {}
            k = text.find(key_open, at, close)
            while k >= 0:
                ke = text.find(key_end, k)
                key = text[k + n_key : ke]
                vs = ke + n_kend + n_vopen
                ve = text.find(value_end, vs)
                raw = text[vs + 1 : ve - 1] if strip_newline else text[vs:ve]
                args[key] = _typed(raw, kinds.get(key))
                k = text.find(key_open, ve, close)
            calls.append((name, args))
            pos = text.find(call_open, close)
        return calls

    return parse


_JSON_WORDS = {"true": True, "false": False, "null": None}


def _py_value(node: ast.AST) -> Any:
    """A literal's value: ``ast.literal_eval`` plus the JSON words the formats also write."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Dict):
        return {_py_value(k): _py_value(v) for k, v in zip(node.keys, node.values) if k}
    if isinstance(node, ast.List):
        return [_py_value(e) for e in node.elts]
    if isinstance(node, ast.Name):
        return _JSON_WORDS[node.id]
    return ast.literal_eval(node)


def _py_call(node: ast.AST) -> tuple[str, dict[str, Any]]:
    assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    return node.func.id, {str(kw.arg): _py_value(kw.value) for kw in node.keywords}


def minimal_pythonic(call_open: str, call_close: str | None, layout: str) -> Minimal:
    """Python call syntax (pythonic, OLMo 3, LFM2, Sarashina): find the block, one
    ``ast.parse`` of it, the values read off the tree.

    ``layout``: ``"list"`` (``[f(a=1), g(b=2)]``; a ``call_open`` of ``"["`` is part of it),
    ``"lines"`` (one call per line) or ``"dicts"`` (``[{'name': ..., 'arguments': {...}}]``).
    ``ast`` is the cheapest correct reader of Python literals (msgspec cannot read them); it
    builds an object per syntax node, which is what makes this family cost 50-70x a msgspec
    decode of the same values.
    """
    skip = 0 if call_open == "[" else len(call_open)

    def parse(text: str) -> list[tuple[str, dict[str, Any]]]:
        start = text.find(call_open) + skip
        end = text.find(call_close, start) if call_close is not None else -1
        block = text[start:] if end < 0 else text[start:end]
        if layout == "lines":
            return [_py_call(s.value) for s in ast.parse(block).body if isinstance(s, ast.Expr)]
        body = ast.parse(block, mode="eval").body
        assert isinstance(body, ast.List)
        if layout == "dicts":
            items = [_py_value(node) for node in body.elts]
            return [(item["name"], item["arguments"]) for item in items]
        return [_py_call(node) for node in body.elts]

    return parse


def schema_types(tools: list[dict[str, Any]]) -> dict[str, dict[str, str]]:
    """``tool -> parameter -> type`` from OpenAI tool definitions (what a minimal parser
    would be handed)."""
    out: dict[str, dict[str, str]] = {}
    for tool in tools:
        fn = tool["function"]
        props = fn.get("parameters", {}).get("properties", {})
        out[fn["name"]] = {k: v.get("type", "") for k, v in props.items()}
    return out


Body = Callable[[str], Any]
"""Reads one call from the text between its opening and closing markers."""


def json_object_body(text: str) -> Any:
    """A ``{"name", "arguments"}`` object (msgspec skips the whitespace around it)."""
    return _decode_call(text)


def header_body(sep: str, name: Callable[[str], str] = str.strip) -> Body:
    """``header SEP {json}``: the name read off the header, the arguments decoded."""
    n_sep = len(sep)

    def body(text: str) -> tuple[str, dict[str, Any]]:
        s = text.find(sep)
        return name(text[:s]), _decode_args(text[s + n_sep :])

    return body


def xml_body(
    name_end: str,
    key_open: str,
    key_end: str,
    value_open: str,
    value_end: str,
    types: dict[str, dict[str, str]],
    *,
    strip_newline: bool = False,
    typed: Callable[[str, str | None], Any] = _typed,
) -> Body:
    """``NAME<key>K</key><value>V</value>...``: one ``find`` per tag, each value typed by its
    schema (``value_open`` is searched for, so whitespace may stand before it; ``typed``:
    how a value is read, JSON by default)."""
    n_key, n_kend, n_vopen = len(key_open), len(key_end), len(value_open)

    def body(text: str) -> tuple[str, dict[str, Any]]:
        at = text.find(name_end)
        name = text[:at].strip()
        kinds = types.get(name, {})
        args: dict[str, Any] = {}
        k = text.find(key_open, at)
        while k >= 0:
            ke = text.find(key_end, k + n_key)
            vs = text.find(value_open, ke) + n_vopen if n_vopen else ke + n_kend
            ve = text.find(value_end, vs)
            raw = text[vs + 1 : ve - 1] if strip_newline else text[vs:ve]
            args[text[k + n_key : ke]] = typed(raw, kinds.get(text[k + n_key : ke]))
            k = text.find(key_open, ve)
        return name, args

    return body


def pythonic_body(layout: str, head: str = "") -> Body:
    """A whole block of Python calls (:func:`minimal_pythonic`'s reading of one block)."""
    parse = minimal_pythonic("", None, layout)
    return lambda text: parse(head + text)


class _ParamsCall(msgspec.Struct):
    name: str
    parameters: dict[str, Any]


class _CohereCall(msgspec.Struct):
    tool_name: str
    parameters: dict[str, Any]


class _InklingCall(msgspec.Struct):
    name: str
    args: dict[str, Any]


class _Function(msgspec.Struct):
    name: str
    arguments: str


class _OpenAICall(msgspec.Struct):
    function: _Function


class _OpenAIMessage(msgspec.Struct):
    tool_calls: list[_OpenAICall] = []


_decode_calls = msgspec.json.Decoder(list[_Call]).decode
_decode_cohere = msgspec.json.Decoder(list[_CohereCall]).decode
_decode_params = msgspec.json.Decoder(list[_ParamsCall]).decode
_decode_inkling = msgspec.json.Decoder(_InklingCall).decode
_decode_openai = msgspec.json.Decoder(_OpenAIMessage).decode
_decode_name_args = msgspec.json.Decoder(list[dict[str, dict[str, Any]]]).decode


def json_list_body(text: str) -> list[_Call]:
    """A JSON list of ``{"name", "arguments"}`` objects, one decode (Jamba, Granite, xLAM...)."""
    return _decode_calls(text)


def json_lines_body(text: str) -> list[_Call]:
    """One ``{"name", "arguments"}`` object per line (MiniMax-M1): a decode per line."""
    return [_decode_call(line) for line in text.split("\n") if line]


def cohere_body(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Cohere's action list: ``[{"tool_name", "parameters", ...}, ...]``, one decode."""
    return [(c.tool_name, c.parameters) for c in _decode_cohere(text)]


def name_keyed_body(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Apertus: ``[{"NAME": {arguments}}, ...]``, one decode."""
    return [(k, v) for item in _decode_name_args(text) for k, v in item.items()]


def semicolon_body(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Llama 3 JSON: ``{"name", "parameters"}; {...}`` read as one list (the separator
    replaced: no check that it does not stand inside a string)."""
    found = _decode_params("[" + text.replace("}; {", "}, {") + "]")
    return [(c.name, c.parameters) for c in found]


def concatenated_body(text: str) -> list[tuple[str, dict[str, Any]]]:
    """Llama 4 JSON: ``{"name", "parameters"}{...}`` back to back, read as one list (the
    joins replaced: no check that one does not stand inside a string)."""
    found = _decode_params("[" + text.replace('}{"name"', '}, {"name"') + "]")
    return [(c.name, c.parameters) for c in found]


def inkling_body(text: str) -> tuple[str, dict[str, Any]]:
    """Inkling: ``{"name", "args"}``, one decode."""
    c = _decode_inkling(text)
    return c.name, c.args


def openai_body(text: str) -> list[tuple[str, dict[str, Any]]]:
    """An OpenAI assistant message (its opening ``{`` is the marker): one decode of the
    message, one of each arguments string."""
    msg = _decode_openai("{" + text)
    return [(c.function.name, _decode_args(c.function.arguments)) for c in msg.tool_calls]


_GEMMA_WORDS: dict[str, Any] = {"true": True, "false": False, "null": None, "None": None}


def gemma_body(esc: str) -> Body:
    """Gemma's call syntax ``NAME{key:value,...}``: strings between ``esc`` delimiters,
    objects, lists and bare tokens (number, boolean, null), read left to right with one
    ``find`` per string and per key (``ast`` and msgspec read neither)."""
    n_esc = len(esc)
    words = _GEMMA_WORDS

    def value(text: str, i: int) -> tuple[Any, int]:
        c = text[i]
        if c == "{":
            obj: dict[str, Any] = {}
            i += 1
            if text[i] == "}":
                return obj, i + 1
            while True:
                k = text.find(":", i)
                obj[text[i:k]], i = value(text, k + 1)
                if text[i] == "}":
                    return obj, i + 1
                i += 1
        if c == "[":
            items: list[Any] = []
            i += 1
            if text[i] == "]":
                return items, i + 1
            while True:
                v, i = value(text, i)
                items.append(v)
                if text[i] == "]":
                    return items, i + 1
                i += 1
        if text.startswith(esc, i):
            j = text.find(esc, i + n_esc)
            return text[i + n_esc : j], j + n_esc
        j = i
        while text[j] not in ",}]":
            j += 1
        tok = text[i:j]
        if tok in words:
            return words[tok], j
        try:
            return int(tok), j
        except ValueError:
            return float(tok), j

    def body(text: str) -> tuple[str, Any]:
        b = text.find("{")
        return text[:b], value(text, b)[0]

    return body


def _typed_py(raw: str, kind: str | None) -> Any:
    """A value written with Python's ``str()`` (Seed-OSS's Python-literal variant)."""
    if kind == "string":
        return raw
    if kind == "integer":
        return int(raw)
    return ast.literal_eval(raw)


def _leaf(raw: str) -> Any:
    """A nested leaf without a schema: a JSON word or number, else the text."""
    if raw in _JSON_WORDS:
        return _JSON_WORDS[raw]
    if raw and raw[0] in "-0123456789":
        return _decode_any(raw)
    return raw


def sentinel_body(sep: str, types: dict[str, dict[str, str]]) -> Body:
    """MiniMax-M3: ``NAME">S<key>VALUES</key>...`` with every tag after the sentinel ``S``;
    one ``split`` on it, then each piece is an opening tag with its text or a closing tag.
    Objects nest as child elements, arrays as ``item`` children; top-level leaves typed by the
    schema, nested ones as JSON words and numbers."""

    def children(p: list[str], i: int) -> tuple[list[tuple[str, Any]], int]:
        out: list[tuple[str, Any]] = []
        n = len(p)
        while i < n and not p[i].startswith("</"):
            piece = p[i]
            gt = piece.find(">")
            raw = piece[gt + 1 :]
            if raw or p[i + 1].startswith("</"):
                out.append((piece[1:gt], raw))
                i += 2
            else:
                kids, i = children(p, i + 1)
                out.append((piece[1:gt], _nest(kids)))
                i += 1
        return out, i

    def _nest(kids: list[tuple[str, Any]]) -> Any:
        vals = [v if not isinstance(v, str) else _leaf(v) for _, v in kids]
        if all(k == "item" for k, _ in kids):
            return vals
        return {k: v for (k, _), v in zip(kids, vals)}

    def body(text: str) -> tuple[str, dict[str, Any]]:
        p = text.split(sep)
        name = p[0][:-2]
        kinds = types.get(name, {})
        kids, _ = children(p, 1)
        return name, {k: _typed(v, kinds.get(k)) if isinstance(v, str) else v for k, v in kids}

    return body


def vcp_body(types: dict[str, dict[str, str]]) -> Body:
    """VCP: ``KEY:「始」VALUE「末」,`` fields, ``tool_name`` first; one ``find`` per
    delimiter, each value typed by its schema."""
    start, end = "「始」", "「末」"

    def body(text: str) -> tuple[str, dict[str, Any]]:
        i = text.find(start)
        e = text.find(end, i)
        name = text[i + 3 : e]
        kinds = types.get(name, {})
        args: dict[str, Any] = {}
        p = e + 3
        i = text.find(start, p)
        while i >= 0:
            e = text.find(end, i)
            key = text[p:i].strip(",\n :")
            args[key] = _typed(text[i + 3 : e], kinds.get(key))
            p = e + 3
            i = text.find(start, p)
        return name, args

    return body


def cline_body(types: dict[str, dict[str, str]]) -> Body:
    """Cline: ``NAME>\\n<k>v</k>...</NAME>`` per call, the tool tag its name; the whole block
    of calls read at once (the closing tag depends on the name, which a fixed-marker scanner
    cannot wait for); values trimmed as Cline does and typed by the schema."""

    def body(text: str) -> list[tuple[str, dict[str, Any]]]:
        calls = []
        pos = 0
        while True:
            gt = text.find(">", pos)
            name = text[pos:gt]
            close = text.find("</" + name + ">", gt)
            kinds = types.get(name, {})
            args: dict[str, Any] = {}
            k = text.find("<", gt, close)
            while k >= 0:
                ke = text.find(">", k)
                key = text[k + 1 : ke]
                ve = text.find("</" + key + ">", ke)
                args[key] = _typed(text[ke + 1 : ve].strip(), kinds.get(key))
                k = text.find("<", ve + len(key) + 3, close)
            calls.append((name, args))
            nxt = text.find("<", close + len(name) + 3)
            if nxt < 0:
                return calls
            pos = nxt + 1

    return body


class Family(NamedTuple):
    """A dialect's minimal reading: the markers around each call and how its text is read.

    ``close=None``: a call runs to the next ``open`` (or the end of the text); ``close=""``:
    to the end of the text.
    """

    open: str
    close: str | None
    body: Body
    many: bool = False
    """The body holds a list of calls (the pythonic blocks)."""


def family_parser(fam: Family) -> Minimal:
    """One-shot: ``find`` each opening and closing marker, read the text between."""
    call_open, close, body, many = fam
    n_open = len(call_open)
    n_close = len(close) if close is not None else 0

    def parse(text: str) -> list[Any]:
        calls: list[Any] = []
        pos = text.find(call_open)
        while pos >= 0:
            head = pos + n_open
            end = text.find(close if close is not None else call_open, head) if close != "" else -1
            if end < 0:
                end = len(text)
            if many:
                calls.extend(body(text[head:end]))
            else:
                calls.append(body(text[head:end]))
            pos = text.find(call_open, end + n_close)
        return calls

    return parse


class MinimalScanner:
    """The minimal *incremental* scanner of one family: per delta, outside a call one
    ``find`` of the opening marker (a possible prefix of it held back, found with one
    ``rfind``), inside one ``find`` of the closing marker in the new text (plus the marker's
    length before it); each call read as its closing marker arrives. Content is collected
    as is: no whitespace rules, no argument fragments, no checks, no recovery."""

    __slots__ = (
        *("_body", "_close", "_held", "_in", "_many", "_n1", "_open", "_parts", "_tail"),
        *("calls", "content"),
    )

    def __init__(self, fam: Family) -> None:
        self._open = fam.open
        self._close = fam.close if fam.close is not None else fam.open
        self._body = fam.body
        self._many = fam.many
        self._n1 = len(self._close) - 1
        self._held = ""
        self._tail = ""
        self._in = False
        self._parts: list[str] = []
        self.calls: list[Any] = []
        self.content: list[str] = []

    def feed(self, d: str) -> None:
        """Take one delta."""
        while True:
            if self._in:
                if not self._close:  # the call runs to the end of the text
                    self._parts.append(d)
                    return
                window = self._tail + d
                k = window.find(self._close)
                if k < 0:
                    self._parts.append(d)
                    self._tail = window[-self._n1 :] if self._n1 else ""
                    return
                self._parts.append(d)
                text = "".join(self._parts)
                end = len(text) - len(window) + k
                self._read(text[:end])
                self._parts = []
                self._tail = ""
                self._in = False
                # (close=None: the closing marker is the next call's opener, read on from it)
                d = text[end:] if self._close is self._open else text[end + self._n1 + 1 :]
            text = self._held + d if self._held else d
            i = text.find(self._open)
            if i < 0:
                # the earliest place from which the rest could still become the marker
                j = text.find(self._open[0], max(0, len(text) - len(self._open) + 1))
                while j >= 0 and not self._open.startswith(text[j:]):
                    j = text.find(self._open[0], j + 1)
                if j >= 0:
                    self._held = text[j:]
                    text = text[:j]
                else:
                    self._held = ""
                if text:
                    self.content.append(text)
                return
            if i:
                self.content.append(text[:i])
            self._held = ""
            self._in = True
            d = text[i + len(self._open) :]
            if not d:
                return

    def finish(self) -> list[Any]:
        """End of text: a call without closing marker (``close=None``) ends here."""
        if self._in and (self._close is self._open or not self._close):
            self._read("".join(self._parts))
        elif self._held:
            self.content.append(self._held)
        return self.calls

    def _read(self, text: str) -> None:
        if self._many:
            self.calls.extend(self._body(text))
        else:
            self.calls.append(self._body(text))


def scan_all(fam: Family, deltas: list[str]) -> list[Any]:
    """Stream ``deltas`` through a fresh :class:`MinimalScanner`."""
    scanner = MinimalScanner(fam)
    feed = scanner.feed
    for d in deltas:
        feed(d)
    return scanner.finish()


def _after(marker: str) -> Callable[[str], str]:
    n = len(marker)
    return lambda h: h[h.find(marker) + n :].strip()


def family_for(dialect: str, tools: list[dict[str, Any]]) -> Family | None:
    """The minimal reading of ``dialect`` (``None``: none written for it)."""
    t = schema_types(tools)
    dsml = ('">', '<｜DSML｜parameter name="', '"', ">", "</｜DSML｜parameter>")
    gcml = ('">', '<｜GCML｜parameter name="', '"', ">", "</｜GCML｜parameter>")
    invoke = ('">', '<parameter name="', '"', ">", "</parameter>")
    qwen = (">", "<parameter=", ">", "", "</parameter>")
    table: dict[str, Family] = {
        # JSON call objects between markers
        "hermes": Family(OPEN, CLOSE, json_object_body),
        "bailing": Family(OPEN, CLOSE, json_object_body),  # hermes's calls (Ling/Ring)
        "longcat": Family("<longcat_tool_call>", "</longcat_tool_call>", json_object_body),
        "longcat_flash_chat": Family(
            "<longcat_tool_call>", "</longcat_tool_call>", json_object_body
        ),
        "internlm": Family("<|action_start|><|plugin|>", "<|action_end|>", json_object_body),
        "gigachat31": Family("<|function_call|>", None, json_object_body),
        "granite_20b_fc": Family("<function_call>", None, json_object_body),
        # a header, then JSON arguments
        "mistral": Family("[TOOL_CALLS]", None, header_body("[ARGS]")),
        "mistral_v13": Family("[TOOL_CALLS]", None, header_body("[ARGS]")),
        "kimi_k2": Family(
            "<|tool_call_begin|>",
            "<|tool_call_end|>",
            header_body("<|tool_call_argument_begin|>", lambda h: h[10 : h.rfind(":")]),
        ),
        "deepseek_v31": Family(
            "<｜tool▁call▁begin｜>", "<｜tool▁call▁end｜>", header_body("<｜tool▁sep｜>")
        ),
        "deepseek_v3": Family(
            "<｜tool▁call▁begin｜>function<｜tool▁sep｜>",
            "\n```<｜tool▁call▁end｜>",
            header_body("\n```json\n"),
        ),
        "harmony": Family(
            " to=functions.", "<|call|>", header_body("<|message|>", lambda h: h[: h.find("<")])
        ),
        "functionary_v31": Family("<function=", "</function>", header_body(">")),
        "functionary_v32": Family(">>>", None, header_body("\n")),
        "react": Family("Action: ", None, header_body("\nAction Input:")),
        "solar_open": Family(
            "<|tool_call:begin|>",
            "<|tool_call:end|>",
            header_body("<|tool_call:args|>", _after("<|tool_call:name|>")),
        ),
        # XML parameters and key/value tags, typed by the schema
        "qwen3_coder": Family("<function=", "</function>", xml_body(*qwen, t, strip_newline=True)),
        "nemotron3": Family("<function=", "</function>", xml_body(*qwen, t, strip_newline=True)),
        "nemotron3_super": Family(
            "<function=", "</function>", xml_body(*qwen, t, strip_newline=True)
        ),
        "nemotron3_ultra": Family(
            "<function=", "</function>", xml_body(*qwen, t, strip_newline=True)
        ),
        "nemotron_cascade2": Family(
            "<function=", "</function>", xml_body(*qwen, t, strip_newline=True)
        ),
        "step35": Family("<function=", "</function>", xml_body(*qwen, t, strip_newline=True)),
        "qwen36": Family("<function=", "</function>", xml_body(*qwen, t, strip_newline=True)),
        "mimo_v2": Family("<function=", "</function>", xml_body(*qwen, t)),
        "seed_oss": Family("<function=", "</function>", xml_body(*qwen, t)),
        "glm45": Family(
            OPEN,
            CLOSE,
            xml_body("<arg_key>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", t),
        ),
        "glm46": Family(
            OPEN,
            CLOSE,
            xml_body("<arg_key>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", t),
        ),
        "bailing_kv": Family(  # glm45's tags (Ring-2.6-1T)
            OPEN,
            CLOSE,
            xml_body("<arg_key>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", t),
        ),
        "k2_horizon": Family(
            "<ifm|tool_call>",
            "</ifm|tool_call>",
            xml_body(
                "\n", "<ifm|arg_key>", "</ifm|arg_key>", "<ifm|arg_value>", "</ifm|arg_value>", t
            ),
        ),
        "hunyuan_v3": Family(
            "<tool_call:opensource>",
            "</tool_call:opensource>",
            xml_body(
                "<tool_sep:opensource>",
                "<arg_key:opensource>",
                "</arg_key:opensource>",
                "<arg_value:opensource>",
                "</arg_value:opensource>",
                t,
            ),
        ),
        "hunyuan_v3_preview": Family(
            "<tool_call>",
            "</tool_call>",
            xml_body("<tool_sep>", "<arg_key>", "</arg_key>", "<arg_value>", "</arg_value>", t),
        ),
        "solar_open2": Family(
            "<|tool_call:start|>",
            "<|tool_call:end|>",
            xml_body("\n", "<|tool_arg:start|>", "<|tool_arg:value|>", "", "<|tool_arg:end|>", t),
        ),
        "minimax_m2": Family('<invoke name="', "</invoke>", xml_body(*invoke, t)),
        "dots": Family('<invoke name="', "</invoke>", xml_body(*invoke, t)),
        "dots3": Family('<invoke name="', "</invoke>", xml_body(*invoke, t, strip_newline=True)),
        "minicpm5": Family(
            '<function name="',
            "</function>",
            xml_body('">', '<param name="', '"', ">", "</param>", t),
        ),
        "deepseek_v32": Family('<｜DSML｜invoke name="', "</｜DSML｜invoke>", xml_body(*dsml, t)),
        "deepseek_v4": Family('<｜DSML｜invoke name="', "</｜DSML｜invoke>", xml_body(*dsml, t)),
        "gigachat35": Family('<｜GCML｜invoke name="', "</｜GCML｜invoke>", xml_body(*gcml, t)),
        "step3": Family(
            '<steptml:invoke name="',
            "</steptml:invoke>",
            xml_body('">', '<steptml:parameter name="', '"', ">", "</steptml:parameter>", t),
        ),
        "muse": Family(
            '<atem:invoke name="',
            "</atem:invoke>",
            xml_body('">', '<atem:parameter name="', '"', ">", "</atem:parameter>", t),
        ),
        # Python call syntax: a whole block read with ``ast``
        "pythonic": Family("[", "", pythonic_body("list", "["), many=True),
        "olmo3": Family("<function_calls>", "</function_calls>", pythonic_body("lines"), many=True),
        "olmo3_instruct": Family(
            "<function_calls>", "</function_calls>", pythonic_body("lines"), many=True
        ),
        "lfm2": Family(
            "<|tool_call_start|>", "<|tool_call_end|>", pythonic_body("list"), many=True
        ),
        "lfm25": Family(
            "<|tool_call_start|>", "<|tool_call_end|>", pythonic_body("list"), many=True
        ),
        "lfm2_v2": Family(
            "<|tool_call_start|>", "<|tool_call_end|>", pythonic_body("list"), many=True
        ),
        "sarashina": Family("<|tool_calls|>", None, pythonic_body("dicts"), many=True),
        # JSON call objects, more of them (a list, lines) in one block
        "gigachat3": Family("<|message_sep|>\n\nfunction call<|role_sep|>", None, json_object_body),
        "inkling": Family("<|content_invoke_tool_json|>", "<|end_message|>", inkling_body),
        "apriel": Family("<tool_calls>", "</tool_calls>", json_list_body, many=True),
        "jamba": Family("<tool_calls>", "</tool_calls>", json_list_body, many=True),
        "nemotron": Family("<TOOLCALL>", "</TOOLCALL>", json_list_body, many=True),
        "llama_nemotron_super_v15": Family("<TOOLCALL>", "</TOOLCALL>", json_list_body, many=True),
        "xlam": Family("```json", "```", json_list_body, many=True),
        "granite": Family("<|tool_call|>", "", json_list_body, many=True),
        "mistral_v3": Family("[TOOL_CALLS]", "", json_list_body, many=True),
        "mistral_v3_spaced": Family("[TOOL_CALLS]", "", json_list_body, many=True),
        "phi4_mini": Family("functools", "", json_list_body, many=True),
        "minimax_m1": Family("<tool_calls>", "</tool_calls>", json_lines_body, many=True),
        "llama3_json": Family("<|python_tag|>", "", semicolon_body, many=True),
        "llama4_json": Family("<|python_end|>", "", concatenated_body, many=True),
        "apertus": Family("<|tools_prefix|>", "<|tools_suffix|>", name_keyed_body, many=True),
        "cohere": Family("<|START_ACTION|>", "<|END_ACTION|>", cohere_body, many=True),
        "command_r_plus": Family("Action:\n```json", "```", cohere_body, many=True),
        "openai": Family("{", "", openai_body, many=True),
        # a header, then JSON arguments
        "kimi": Family("## Calling: ", None, header_body("\n")),
        # parameters between markers, typed by the schema
        "kimi_k3": Family(
            '<|open|>call tool="',
            "<|close|>call<|sep|>",
            xml_body('"', '<|open|>argument key="', '"', "<|sep|>", "<|close|>argument", t),
        ),
        "seed_oss_pystr": Family("<function=", "</function>", xml_body(*qwen, t, typed=_typed_py)),
        "minimax_m3": Family(
            ']<]minimax[>[<invoke name="',
            "]<]minimax[>[</invoke>",
            sentinel_body("]<]minimax[>[", t),
        ),
        "vcp": Family("<<<[TOOL_REQUEST]>>>", "<<<[END_TOOL_REQUEST]>>>", vcp_body(t)),
        "cline": Family("\n<", "", cline_body(t), many=True),
        # Gemma's own call syntax
        "functiongemma": Family(
            "<start_function_call>call:", "<end_function_call>", gemma_body("<escape>")
        ),
        "gemma4": Family("<|tool_call>call:", "<tool_call|>", gemma_body('<|"|>')),
        "gemma4_2607": Family("<|tool_call>call:", "<tool_call|>", gemma_body('<|"|>')),
    }
    return table.get(dialect)


def minimal_for(dialect: str, tools: list[dict[str, Any]]) -> tuple[Minimal, str] | None:
    """The minimal parser of ``dialect``'s family and the marker its stream scans for."""
    if dialect == "hermes":
        return minimal_hermes, OPEN
    if dialect == "mistral":
        return header_args("[TOOL_CALLS]", "[ARGS]", None), "[TOOL_CALLS]"
    if dialect == "kimi_k2":
        return header_args(
            "<|tool_call_begin|>",
            "<|tool_call_argument_begin|>",
            "<|tool_call_end|>",
            lambda h: h[10 : h.rfind(":")],
        ), "<|tool_calls_section_begin|>"
    if dialect == "deepseek_v31":
        return header_args(
            "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>"
        ), "<｜tool▁calls▁begin｜>"
    if dialect == "harmony":
        return header_args(
            " to=functions.", "<|message|>", "<|call|>", lambda h: h[: h.find("<")]
        ), "<|start|>"
    if dialect == "pythonic":
        return minimal_pythonic("[", None, "list"), "["
    if dialect == "olmo3":
        return minimal_pythonic(
            "<function_calls>", "</function_calls>", "lines"
        ), "<function_calls>"
    if dialect == "lfm2":
        opener = "<|tool_call_start|>"
        return minimal_pythonic(opener, "<|tool_call_end|>", "list"), opener
    if dialect == "sarashina":
        return minimal_pythonic("<|tool_calls|>", None, "dicts"), "<|tool_calls|>"
    types = schema_types(tools)
    if dialect == "qwen3_coder":
        return xml_params(
            "<function=",
            ">",
            "<parameter=",
            ">",
            "</parameter>",
            "</function>",
            types,
            strip_newline=True,
        ), OPEN
    if dialect == "glm45":
        return xml_params(
            OPEN,
            "<arg_key>",
            "<arg_key>",
            "</arg_key>",
            "</arg_value>",
            CLOSE,
            types,
            value_open="<arg_value>",
        ), OPEN
    return None


def minimal_stream(deltas: list[str], marker: str, parse: Minimal) -> list[Any]:
    """Per delta: find a marker start, hold back a possible prefix, append; then one-shot."""
    buf: list[str] = []
    held = ""
    first = marker[0]
    n = len(marker)
    for d in deltas:
        text = held + d
        i = text.rfind(first, max(0, len(text) - n))
        if i >= 0 and marker.startswith(text[i:]):
            held = text[i:]
            text = text[:i]
        else:
            held = ""
        buf.append(text)
    return parse("".join(buf) + held)


def minimal_stream_hermes(deltas: list[str]) -> list[_Call]:
    """:func:`minimal_stream` for hermes."""
    return minimal_stream(deltas, OPEN, minimal_hermes)
