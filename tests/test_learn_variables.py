"""A learned format refuses a template variable it did not learn rather than render as if it
were not given: every variable the template reads (not only its reasoning switches) is fixed
at the values under which the template writes what it writes without it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import Message, RenderError
from tooletta.chat.jinja import render_jinja

GREETING = (
    "{% if greeting %}<|sys|>{{ greeting }}<|end|>{% endif %}"
    "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)
"""A template with a variable of its own (``greeting``: written when true)."""

SMOLLM3 = Path(__file__).parent / "fixtures" / "templates" / "HuggingFaceTB-SmolLM3-3B.jinja"


def test_a_variable_is_fixed_at_its_neutral_values() -> None:
    learned = tooletta.learn(GREETING, name="test-learn-greeting")
    assert learned.spec["chat"]["fixed"] == {"greeting": [None, False, "", 0]}
    messages = [Message("user", "hi")]
    plain = "<|user|>hi<|end|><|assistant|>"
    for value in (None, False, "", 0):
        got = tooletta.render_conversation(
            messages, dialect=learned.name, add_generation_prompt=True, greeting=value
        )
        assert got == plain == render_jinja(GREETING, messages, add_generation_prompt=True)
    with pytest.raises(RenderError, match="greeting"):
        tooletta.render_conversation(messages, dialect=learned.name, greeting="Hello.")


@pytest.fixture(scope="module")
def smollm3() -> Any:
    return tooletta.learn(SMOLLM3.read_text(encoding="utf-8"), name="test-learn-smollm3")


@pytest.mark.parametrize(
    "options",
    [{"custom_instructions": "Be a pirate."}, {"enable_thinking": None}],
    ids=repr,
)
def test_a_value_the_template_writes_otherwise_is_refused(
    smollm3: Any, options: dict[str, Any]
) -> None:
    """SmolLM3's template writes ``custom_instructions`` in its system turn, and
    ``enable_thinking=None`` as thinking off (``/no_think``): refused, not rendered as
    not given."""
    messages = [Message("user", "hi")]
    template = SMOLLM3.read_text(encoding="utf-8")
    assert render_jinja(template, messages, add_generation_prompt=True, **options) != (
        render_jinja(template, messages, add_generation_prompt=True)
    )
    with pytest.raises(RenderError, match=next(iter(options))):
        tooletta.render_conversation(
            messages, dialect=smollm3.name, add_generation_prompt=True, **options
        )


@pytest.mark.parametrize("options", [{}, {"custom_instructions": ""}, {"enable_thinking": True}])
def test_a_neutral_value_renders_as_the_template(smollm3: Any, options: dict[str, Any]) -> None:
    messages = [Message("system", "Be brief."), Message("user", "hi")]
    got = tooletta.render_conversation(
        messages, dialect=smollm3.name, add_generation_prompt=True, **options
    )
    template = SMOLLM3.read_text(encoding="utf-8")
    assert got == render_jinja(template, messages, add_generation_prompt=True, **options)


def test_none_that_changes_only_the_prompt_is_refused() -> None:
    """A reasoning switch whose ``None`` writes another generation prompt: the format cannot
    tell ``None`` given from not given, so ``None`` is refused."""
    template = (
        "{% for m in messages %}<|{{ m.role }}|>{{ m.content }}<|end|>{% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>"
        "{% if thinking is defined and thinking is none %}<none>{% endif %}{% endif %}"
    )
    learned = tooletta.learn(template, name="test-learn-none-prompt")
    assert None not in learned.spec["chat"]["fixed"]["thinking"]
    messages = [Message("user", "hi")]
    with pytest.raises(RenderError, match="thinking"):
        tooletta.render_conversation(
            messages, dialect=learned.name, add_generation_prompt=True, thinking=None
        )
