"""Conformance tests for the example dialect (copy and adapt)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tooletta
from tooletta import ToolCall
from tooletta.interop import hf
from tooletta.testing import DialectTests


class TestExample(DialectTests):
    dialect = "example"
    fixtures = Path(__file__).parent / "fixtures" / "example.json"
    # Declare what else the kit should check: ``names`` (aliases and vLLM/SGLang parser names
    # that must resolve here), ``models`` (model ids dialect_for_model maps here), ``markup``
    # (the format's tokens: values glued from them must round-trip or be refused by render).
    # Formats whose values are untyped text subclass TypedDialectTests and set render_param.


def test_render() -> None:
    text = tooletta.render([ToolCall("f", {"a": 1})], "example", content="Hi")
    assert text == 'Hi\n<<call>>f {"a": 1}<</call>>'


def test_response_template_reads_the_fixtures() -> None:
    """The exported template, run through transformers' own parser on the golden cases."""
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    template = hf.to_response_template("example")
    cases = json.loads((Path(__file__).parent / "fixtures" / "example.json").read_text())
    for case in (c for c in cases if c["calls"] and not c.get("unparsed")):
        message = chat_parsing.parse_response(case["text"], template, prefix="")
        got = [c["function"] for c in message["tool_calls"]]
        assert got == case["calls"], case["name"]
        assert (message.get("content") or "").strip() == case["content"], case["name"]
