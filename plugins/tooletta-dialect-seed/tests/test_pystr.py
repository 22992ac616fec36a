"""The seed_oss_pystr variant against Seed-OSS's own template (vendored)."""

from __future__ import annotations

from pathlib import Path

import tooletta
from tooletta import Message, ToolCall
from tooletta.chat.jinja import render_jinja

TEMPLATE = Path(__file__).parent / "templates" / "ByteDance-Seed-OSS.jinja"
MODEL = "ByteDance-Seed/Seed-OSS-36B-Instruct"
TOKENS = {"bos_token": "<seed:bos>", "eos_token": "<seed:eos>"}
SCHEMA = {
    "o": {"type": "object"},
    "l": {"type": "array"},
    "b": {"type": "boolean"},
    "n": {"type": "number"},
    "s": {"type": "string"},
}
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "f",
            "description": "A tool.",
            "parameters": {"type": "object", "properties": SCHEMA, "required": []},
        },
    }
]
CALL = ToolCall(
    "f",
    {
        "o": {"k": True, "x": None, "q": "it's"},
        "l": [1, "a", {"z": 1.5}],
        "b": False,
        "n": 2.5,
        "s": "hi",
    },
)


def test_render_model_writes_python_str_as_the_template() -> None:
    messages = [Message("user", "Hi"), Message("assistant", "Ok.", tool_calls=[CALL])]
    template = render_jinja(
        TEMPLATE.read_text(encoding="utf-8"), messages, tools=TOOLS, tokens=TOKENS
    )
    ours = tooletta.render([CALL], model=MODEL, content="Ok.")
    assert "<seed:bos>assistant\n" + ours + "<seed:eos>" in template
    assert "<parameter=o>{'k': True, 'x': None, 'q': \"it's\"}</parameter>" in ours


def test_parse_reads_the_python_str_back_with_the_schema() -> None:
    ours = tooletta.render([CALL], model=MODEL)
    assert tooletta.parse(ours, "seed_oss", tools=TOOLS).calls == [CALL]
    assert tooletta.parse(ours, "seed_oss_pystr", tools=TOOLS).calls == [CALL]


def test_variant_by_model_and_base_unchanged() -> None:
    assert tooletta.dialect_for_model(MODEL) == "seed_oss_pystr"
    base = tooletta.render([CALL], "seed_oss")
    assert '<parameter=o>{"k": true, "x": null, "q": "it\'s"}</parameter>' in base
