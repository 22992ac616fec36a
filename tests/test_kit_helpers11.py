"""The kit's helpers that plugin tests share (``tooletta.testing``): each one passes on what
it is meant for and fails on what it must catch."""

from __future__ import annotations

from pathlib import Path

import pytest

from tooletta import ToolCall
from tooletta.testing import EscapedMarkupSettings, check_model_formats, check_shortcut_reads
from tooletta.testing.conversation_properties import round_trip_property, template_property
from tooletta.testing.conversations import (
    CALL_SAMPLES,
    CONTENT_BESIDE_CALLS_SAMPLES,
    SAMPLE_TOOLS,
    ConversationTests,
    reasoning_history_conversations,
)
from tooletta.testing.role_orders import role_order_property

QWEN3 = "Qwen/Qwen3-8B"


def test_sample_names_are_the_samples_with_calls_and_with_content_beside_them() -> None:
    assert CALL_SAMPLES == (
        "tools_two_calls",
        "tools_no_system",
        "reasoning_multi_turn",
        "pending_call",
    )
    assert CONTENT_BESIDE_CALLS_SAMPLES == ("tools_two_calls", "tools_no_system", "pending_call")


def test_reasoning_history_calls_a_declared_tool() -> None:
    declared = {t["function"]["name"] for t in SAMPLE_TOOLS}
    for messages, uses_tools in reasoning_history_conversations().values():
        assert uses_tools
        assert {c.name for m in messages for c in m.tool_calls} <= declared


def test_extra_conversations_are_checked_beside_the_samples() -> None:
    class Probe(ConversationTests):
        model = QWEN3
        extra_conversations = reasoning_history_conversations()

    cases = Probe()._cases()
    assert "reasoning_history" in cases and set(CALL_SAMPLES) <= set(cases)


def test_escaped_markup_never_refuses() -> None:
    assert EscapedMarkupSettings().may_refuse([ToolCall("f", {"x": "<"})], "") is False
    assert EscapedMarkupSettings.markup_untyped and EscapedMarkupSettings.markup_nested


def test_check_model_formats_names_the_wrong_format() -> None:
    check_model_formats("hermes", {QWEN3: "qwen3"})
    with pytest.raises(AssertionError, match="qwen25"):
        check_model_formats("hermes", {QWEN3: "qwen25"})
    with pytest.raises(AssertionError, match="not 'llama3_json'"):
        check_model_formats("llama3_json", {QWEN3: "qwen3"})


def test_check_shortcut_reads_fails_where_no_call_is_read() -> None:
    check_shortcut_reads("pythonic", "[f(a=1)]")
    with pytest.raises(AssertionError):
        check_shortcut_reads("pythonic", "no calls here")


def test_the_properties_pass_on_a_format_and_fail_on_a_wrong_template(tmp_path: Path) -> None:
    round_trip_property(QWEN3, max_examples=5)()
    role_order_property(model=QWEN3, max_examples=5)()
    wrong = tmp_path / "wrong.jinja"
    wrong.write_text("{% for m in messages %}{{ m.content }}{% endfor %}", encoding="utf-8")
    with pytest.raises(AssertionError, match="differs from the template"):
        template_property(QWEN3, wrong, max_examples=5)()
