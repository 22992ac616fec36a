"""Conformance and format tests for the qwen3_coder dialect."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import tooletta
from tooletta import ToolCall
from tooletta.testing import TypedDialectTests, check_render_refuses, schema_tools

D = "qwen3_coder"


class TestQwen3Coder(TypedDialectTests):
    dialect = D
    fixtures = Path(__file__).parent / "fixtures" / "qwen3_coder.json"
    names: ClassVar[tuple[str, ...]] = (
        "qwen3_coder",
        "qwen3-xml",
        "qwen_xml",
        "QWEN_CODER",
        "step3p5",
        "mimo",
    )
    models: ClassVar[tuple[str, ...]] = ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen/Qwen3.5-27B")
    # the template adds exactly one newline on each side of a value: nothing else is stripped
    typing_rules = (("string", " x ", " x "), ("string", "\n\nx\n\n", "\n\nx\n\n"))
    markup = (
        "<tool_call>",
        "</tool_call>",
        "<function=f>",
        "</function>",
        "<parameter=p>",
        "</parameter>",
        "<think>",
        "\n",
        "\r",
        "\r\n",
        "<",
        ">",
        "=",
        " ",
        "x",
        "東京",
    )

    def render_param(self, name: str, raw: str) -> str:
        return (
            f"<tool_call>\n<function=f>\n<parameter={name}>\n{raw}\n</parameter>\n"
            "</function>\n</tool_call>"
        )


def test_render_matches_template() -> None:
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("get_time", {})]
    assert tooletta.render(calls, D, content="Let me check.") == (
        "Let me check.\n\n"
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
        "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>\n"
        "<tool_call>\n<function=get_time>\n</function>\n</tool_call>"
    )


def test_render_non_strings_as_template() -> None:
    call = ToolCall("t", {"b": True, "z": None, "n": 1.5, "o": {"k": [1, "ü"]}, "a": [1, 2]})
    assert tooletta.render([call], D) == (
        "<tool_call>\n<function=t>\n"
        "<parameter=b>\nTrue\n</parameter>\n"
        "<parameter=z>\nNone\n</parameter>\n"
        "<parameter=n>\n1.5\n</parameter>\n"
        '<parameter=o>\n{"k": [1, "ü"]}\n</parameter>\n'
        "<parameter=a>\n[1, 2]\n</parameter>\n"
        "</function>\n</tool_call>"
    )
    # they type back, with a schema and without one
    assert tooletta.parse(tooletta.render([call], D), D).calls == [call]


def test_render_refuses_what_it_cannot_express() -> None:
    check_render_refuses(
        D,
        values=("a</parameter>b", "<parameter=y>", "x</function>", "</tool_call>", "ends\r"),
        names=("", "a b", "a>b"),
        keys=("bad key",),
    )


def test_json_value_with_closing_tag_is_escaped() -> None:
    call = ToolCall("f", {"x": {"html": "</parameter>"}})
    text = tooletta.render([call], D)
    assert '</parameter>"' not in text
    assert tooletta.parse(text, D, tools=schema_tools({"x": "object"})).calls == [call]


def test_detect() -> None:
    assert tooletta.detect("<tool_call>\n<function=f>\n</function>\n</tool_call>") == D
    assert tooletta.detect('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>') != D
    assert tooletta.detect('<function=f>{"a": 1}</function>') != D
    assert tooletta.detect("Use <function=name> tags.") is None


def test_unfinished_call_is_unparsed() -> None:
    text = "<tool_call>\n<function=f>\n<parameter=x>\n1"
    result = tooletta.parse(text, D)
    assert result.calls == [] and len(result.unparsed) == 1


class TestQwen36(TestQwen3Coder):
    """The kit's laws for the ``qwen36`` variant (Qwen3.6's spelling: ``None`` and booleans
    written as JSON literals), on ``qwen3_coder``'s golden cases (one parser reads both)."""

    dialect = "qwen36"
    names = ("qwen36", "qwen3_6")
    models = ("Qwen/Qwen3.6-27B",)

    def test_golden_detect(self) -> None:
        """Detection names the parser of these texts, ``qwen3_coder``: a rendering variant
        claims no text of its own (the variant's texts read the same)."""
        for case in self.cases():
            if case["calls"] and case.get("detect", True):
                assert tooletta.detect(case["text"]) == D, case["name"]


def test_qwen36_writes_json_literals_that_type_back() -> None:
    call = ToolCall("t", {"b": True, "z": None, "n": 1.5})
    text = tooletta.render([call], "qwen36")
    assert "<parameter=b>\ntrue\n</parameter>" in text
    assert "<parameter=z>\nnull\n</parameter>" in text
    assert tooletta.parse(text, "qwen36").calls == [call]
