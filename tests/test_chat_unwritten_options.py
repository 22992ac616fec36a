"""``ChatFormat.unwritten_options``: a switch the template reads and the format does not write
is refused unless given as the template's own default (:mod:`tooletta.chat.switches`)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError
from tooletta.chat import ChatFormat
from tooletta.chat.switches import refuse_unwritten


class _Declared(ChatFormat):
    """A format declaring two unwritten switches (only its declarations are read here)."""

    name = "declared_fmt"
    unwritten_options: ClassVar[dict[str, Any]] = {"grounding": "disabled", "regen": True}


DECLARED = _Declared()


def test_the_default_chat_format_declares_none() -> None:
    assert dict(ChatFormat.unwritten_options) == {}
    refuse_unwritten(ChatFormat(), {"grounding": "enabled"})


def test_the_declared_value_and_other_names_pass() -> None:
    refuse_unwritten(DECLARED, {"grounding": "disabled", "regen": True, "anything": 3})


@pytest.mark.parametrize(
    ("name", "value"),
    [("grounding", "enabled"), ("grounding", None), ("regen", False), ("regen", 1)],
)
def test_another_value_is_refused_naming_option_and_format(name: str, value: Any) -> None:
    with pytest.raises(RenderError) as caught:
        refuse_unwritten(DECLARED, {name: value})
    text = str(caught.value)
    assert f"declared_fmt does not write the template's {name!r} option" in text
    assert "chat_template=" in text


@given(st.one_of(st.none(), st.booleans(), st.integers(), st.text(), st.floats(allow_nan=True)))
def test_only_the_declared_value_passes(value: Any) -> None:
    ok = value == "disabled"
    try:
        refuse_unwritten(DECLARED, {"grounding": value})
    except RenderError:
        assert not ok
    else:
        assert ok


class _Unequal:
    def __eq__(self, other: object) -> bool:
        raise ValueError("no")

    __hash__ = object.__hash__


def test_a_value_whose_equality_raises_is_refused_not_crashed() -> None:
    with pytest.raises(RenderError):
        refuse_unwritten(DECLARED, {"grounding": _Unequal()})


def test_a_long_value_is_cut_in_the_message() -> None:
    with pytest.raises(RenderError) as caught:
        refuse_unwritten(DECLARED, {"grounding": "x" * 500})
    assert len(str(caught.value)) < 300


def test_formats_without_declarations_ignore_unknown_switches() -> None:
    """Callers pass one set of options to every model: an unknown name renders as before."""
    messages = [Message("user", "hi")]
    plain = tooletta.render_conversation(messages, model="Qwen/Qwen3-8B")
    assert tooletta.render_conversation(messages, model="Qwen/Qwen3-8B", grounding="x") == plain
