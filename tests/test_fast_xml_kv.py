"""The one-shot readers of the XML and key/value families (``fast_wrapped``, ``fast_bare``,
``fast_kv_call``) give exactly what the generator readers give, or decline.

Each text is parsed twice, with and without the blocks' ``fast`` readers; calls (with the
types of their values), content, reasoning and unparsed records must be the same.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import tooletta
from tooletta.testing import check_shortcuts_agree, tools_for
from tooletta.toolkit import ToolSchemas

XML = ("qwen3_coder", "seed_oss")
KV = ("glm45", "hunyuan_v3", "k2_horizon")
TYPES: list[dict[str, Any]] = [
    {"type": "string"},
    {"type": "integer"},
    {"type": "number"},
    {"type": "boolean"},
    {"type": "object"},
    {"type": "array"},
    {"type": "null"},
    {"type": ["string", "null"]},
    {"anyOf": [{"type": "integer"}, {"type": "string"}]},
    {},
]
NAMES = ["f", "get_weather", "g-h", "n.s", "ф"]
KEYS = ["a", "b", "city", "x-y", "ключ", "1x"]
VALUES = [
    *("1", " 3 ", "-2", "1.5", "true", "True", "false", "null", "None", "", "abc", "٣", "²"),
    *("a<b", '{"a": 1}', ' {"a": [1]} ', "[1,2]", "['a']", "{'a': True}", "\u00a0{}"),
    *("\n", "\r\n", "\n\n", "\r", "x\r", "x\r\n", "\nx\n", "x\n\n", "é🙂", "<b>x</b>"),
    *("[" * 600 + "]" * 600, "</function>", "<parameter=q>", "</tool_call>", "</arg_value"),
]
HINTS = ["integer", "string", "any", "string|null", "object", "array[string]", " boolean ", "x"]


def _tools(rng: random.Random) -> list[dict[str, Any]] | None:
    if rng.random() < 0.15:
        return None
    props = {n: {k: rng.choice(TYPES) for k in KEYS if rng.random() < 0.7} for n in NAMES}
    return [
        {"type": "function", "function": {"name": n, "parameters": {"properties": p}}}
        for n, p in props.items()
    ]


def _ws(rng: random.Random) -> str:
    return rng.choice(["", "", "\n", " ", "\r\n", " \t", " " * 70])


def _mutate(rng: random.Random, text: str) -> str:
    i = rng.randrange(len(text) + 1)
    op = rng.random()
    if op < 0.4:
        return text[:i]
    if op < 0.7:
        return text[:i] + rng.choice("<>\n /=\r{[") + text[i:]
    return text[:i] + text[i + 1 :]


def _xml_text(rng: random.Random, dialect: str) -> str:
    wrap = ("<tool_call>", "</tool_call>")
    if dialect == "seed_oss":
        wrap = ("<seed:tool_call>", "</seed:tool_call>")
    clean = rng.random() < 0.5
    out = [rng.choice(["", "Hi.", "about <tool_call> tags"]), _ws(rng)]
    for _ in range(rng.randint(0, 3)):
        bare = rng.random() < 0.2
        out.append("" if bare else wrap[0] + _ws(rng))
        for _ in range(rng.choice([1, 1, 2])):
            out.append(f"<function={rng.choice(NAMES + ([] if clean else [' f ', 'a b']))}>")
            for _ in range(rng.randint(0, 4)):
                pad = rng.choice(["\n", "", "\r\n"])
                end = "</parameter>" if clean or rng.random() < 0.9 else ""
                out.append(f"{_ws(rng)}<parameter={rng.choice(KEYS)}>{pad}")
                out.append(f"{rng.choice(VALUES)}{pad}{end}")
            out.append(_ws(rng) + ("</function>" if clean or rng.random() < 0.9 else ""))
        out.append(_ws(rng) + (wrap[1] if clean or rng.random() < 0.9 else "") + _ws(rng))
    text = "".join(out)
    return text if clean or rng.random() < 0.7 else _mutate(rng, text)


def _kv_text(rng: random.Random, dialect: str) -> str:
    s = rng.choice(["", ":opensource"]) if dialect == "hunyuan_v3" else ""
    ifm = "ifm|" if dialect == "k2_horizon" else ""
    tag = {t: f"<{ifm}{t}{s}>" for t in ("tool_call", "arg_key", "arg_value", "arg_type")}
    end = {t: f"</{ifm}{t}{s}>" for t in ("tool_call", "arg_key", "arg_value", "arg_type")}
    closes = [end["tool_call"]] * 4 + ([f"<end_of_tool_call{s}>"] if s or ifm == "" else [])
    clean = rng.random() < 0.5
    out = [rng.choice(["", "Hi.", f"about {tag['tool_call']} tags"]), _ws(rng)]
    for _ in range(rng.randint(0, 3)):
        out.append(tag["tool_call"] + _ws(rng))
        if dialect == "k2_horizon" and rng.random() < 0.1:
            out.append('{"name": "f", "arguments": {"a": 1}}' + end["tool_call"])
            continue
        out.append(rng.choice(NAMES + ([] if clean else ["a b", "{f}", "x" * 300])) + _ws(rng))
        if dialect == "hunyuan_v3":
            out.append(f"<tool_sep{s}>" + _ws(rng))
            if rng.random() < 0.1:
                out.append('{"a": 1}' + end["tool_call"])
                continue
        for _ in range(rng.randint(0, 4)):
            out.append(f"{tag['arg_key']}{rng.choice([*KEYS, ' ', ' a '])}{end['arg_key']}")
            out.append(_ws(rng))
            if dialect == "k2_horizon" and rng.random() < 0.5:
                out.append(f"{tag['arg_type']}{rng.choice(HINTS)}{end['arg_type']}{_ws(rng)}")
            value_end = end["arg_value"] if clean or rng.random() < 0.9 else ""
            out.append(f"{tag['arg_value']}{rng.choice(VALUES)}{value_end}{_ws(rng)}")
        out.append(rng.choice(closes) + _ws(rng))
    text = "".join(out)
    return text if clean or rng.random() < 0.7 else _mutate(rng, text)


@pytest.mark.parametrize("dialect", XML + KV)
def test_fast_readers_match_the_readers(dialect: str) -> None:
    rng = random.Random(dialect)
    make = _xml_text if dialect in XML else _kv_text
    for _ in range(300):
        check_shortcuts_agree(dialect, make(rng, dialect), _tools(rng))


@pytest.mark.parametrize("dialect", XML + KV)
def test_fast_readers_read_rendered_calls(dialect: str) -> None:
    """The shortcut reads every block of a rendered reply (it does not decline them all)."""
    calls = [
        tooletta.ToolCall("get_weather", {"city": "Paris", "days": 3, "opts": {"a": [1]}}),
        tooletta.ToolCall("now", {}),
        tooletta.ToolCall("f", {"text": "a < b\nline", "n": None, "ok": True}),
    ]
    tools = tools_for(calls)
    text = tooletta.render(calls, dialect, content="Sure.")
    d = tooletta.get_dialect(dialect)
    block = next(b for b in d.grammar.blocks if b.fast is not None and b.open in text)
    assert block.fast is not None
    read: list[tooletta.ToolCall] = []
    pos = text.find(block.open)
    while pos >= 0:
        assert block.fast(text, pos + len(block.open), d.schemas(tools), read) > 0
        pos = text.find(block.open, pos + 1)
    assert read == calls
    assert tooletta.parse(text, dialect, tools=tools).calls == calls
    check_shortcuts_agree(dialect, text, tools)


def test_tool_schemas_kind() -> None:
    schemas = ToolSchemas.of(
        [{"name": "f", "parameters": {"properties": {"a": {"type": "string"}, "b": {}}}}]
    )
    assert schemas.kind("f", "a") == ("string", {"type": "string"})
    assert schemas.kind("f", "b") == ("", {})
    assert schemas.kind("f", "c") == ("", None)
    assert schemas.kind("g", "a") == ("", None)
    assert schemas.kinds("f") == {
        "a": ("string", {"type": "string"}),
        "b": ("", {}),
        "c": ("", None),
    }
    assert schemas.kinds("g") == {}  # unknown tools are not cached
