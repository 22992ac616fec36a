"""The practical limits the benchmarks compare against (issue: performance).

``msgspec_decode``: decoding the argument payloads alone. The *minimal parsers*, one per
dialect family: hand-written one-shot parsers that do nothing but ``str.find`` for the markers
and one msgspec decode per call into a struct (JSON families), or, for the XML and key/value
families, one ``find`` per tag and the typing of each value by its schema (``int``, ``bool``,
a msgspec decode for objects, the text for strings). No validation, no content handling, no
error recovery: the floor a general parser is measured against. ``minimal_stream``: a minimal
incremental scanner (per delta one ``rfind`` for a marker start, hold back a possible marker
prefix, append) plus the one-shot minimal parser at the end.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any

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
    calls = []
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
