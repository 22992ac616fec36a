"""The renderer's fallback for templates written for llama.cpp's engine
(:mod:`tooletta.chat.enginefallback`): used only when Hugging Face's semantics raise on a
list method changing a list the template built, or on ``tojson`` of a generator."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tooletta import Message, RenderError, ToolCall
from tooletta.chat import enginefallback
from tooletta.chat.enginefallback import engine_construct, input_lists
from tooletta.chat.jinja import render_jinja

MESSAGES = [Message("user", "Hi"), Message("assistant", "Hello")]
TOOLS: list[dict[str, Any]] = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object"}}},
    {"type": "function", "function": {"name": "search", "parameters": {"type": "object"}}},
]

APPENDS = (
    "{% set ns = namespace(roles=[]) %}"
    "{% for m in messages %}{% set _ = ns.roles.append(m.role) %}{% endfor %}"
    "{{ ns.roles | join(',') }}"
)
"""Changes a list it built (what llama.cpp's copy of Kimi-K2-Thinking does)."""

GENERATOR = "{{ tools | map(attribute='function') | tojson(indent=2) }}"
"""``tojson`` of a generator (what llama.cpp's ``llama-cpp-deepseek-r1.jinja`` does)."""


def test_a_list_the_template_built_may_be_changed() -> None:
    assert render_jinja(APPENDS, MESSAGES) == "user,assistant"


def test_without_the_fallback_hugging_face_semantics_refuse_it() -> None:
    with pytest.raises(RenderError, match="SecurityError: access to attribute 'append'"):
        render_jinja(APPENDS, MESSAGES, engine_fallback=False)


@pytest.mark.parametrize(
    "template",
    [
        "{% set _ = messages.append(messages[0]) %}{{ messages | length }}",
        "{% set _ = tools.pop() %}{{ tools | length }}",
        "{% set _ = messages[2].tool_calls.append(1) %}x",
    ],
)
def test_a_list_the_template_was_given_is_never_changed(template: str) -> None:
    """Only the template's own lists: its inputs stay immutable, in the fallback too."""
    call = Message("assistant", "", tool_calls=[ToolCall("search", {"q": "x"})])
    with pytest.raises(RenderError, match=r"rendered as llama\.cpp's engine would, it fails too"):
        render_jinja(template, [*MESSAGES, call], tools=TOOLS)


def test_tojson_of_a_generator_writes_its_items() -> None:
    text = render_jinja(GENERATOR, MESSAGES, tools=TOOLS)
    assert text == json.dumps([t["function"] for t in TOOLS], indent=2)


def test_without_the_fallback_a_generator_is_refused_as_transformers_does() -> None:
    with pytest.raises(RenderError, match="generator is not JSON serializable"):
        render_jinja(GENERATOR, MESSAGES, tools=TOOLS, engine_fallback=False)


@pytest.mark.parametrize(
    "template",
    [
        "{{ 1 + 'a' }}",  # another TypeError
        "{{ messages.__len__() }}",  # another sandbox refusal
        "{% set d = {} %}{% set _ = d.update({'a': 1}) %}{{ d }}",  # a dict, not a list
        "{{ raise_exception('no') }}",
    ],
)
def test_other_failures_are_not_rendered_again(
    template: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(template: str) -> Any:
        raise AssertionError("the fallback was used")

    monkeypatch.setattr(enginefallback, "compile_fallback", never)
    with pytest.raises(RenderError) as caught:
        render_jinja(template, MESSAGES)
    assert "llama.cpp's engine" not in str(caught.value)


@settings(max_examples=40, deadline=None)
@given(
    texts=st.lists(st.text(max_size=8), min_size=1, max_size=4),
    indent=st.sampled_from([None, 2]),
)
def test_a_template_hugging_face_renders_is_never_rendered_otherwise(
    texts: list[str], indent: int | None
) -> None:
    """The fallback is tried only after a failure: a template that renders is untouched."""
    template = (
        "{% set ns = namespace(n=0) %}{% for m in messages %}{% set ns.n = ns.n + 1 %}"
        "{{ m.content | tojson(indent=" + repr(indent) + ") }}{% endfor %}"
        "{{ tools | list | tojson }}{{ ns.n }}"
    )
    messages = [Message("user", t) for t in texts]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(enginefallback, "compile_fallback", _never)
        text = render_jinja(template, messages, tools=TOOLS)
    assert text == render_jinja(template, messages, tools=TOOLS, engine_fallback=False)


def _never(template: str) -> Any:
    raise AssertionError("the fallback was used")


def test_the_constructs_recognised() -> None:
    from jinja2.exceptions import SecurityError

    assert engine_construct(
        SecurityError("access to attribute 'append' of 'list' object is unsafe.")
    )
    assert not engine_construct(
        SecurityError("access to attribute 'update' of 'dict' object is unsafe.")
    )
    assert engine_construct(TypeError("Object of type generator is not JSON serializable"))
    assert not engine_construct(TypeError("Object of type set is not JSON serializable"))
    assert not engine_construct(ValueError("Object of type generator is not JSON serializable"))


def test_input_lists_reach_nested_lists() -> None:
    inner: list[int] = [1]
    outer = [{"a": (inner,)}]
    found = input_lists(outer)
    assert id(inner) in found and id(outer) in found
