"""``ChatFormat.unwritten_options``: a switch the template reads and the format does not write
is refused unless given as the template's own default (:mod:`tooletta.chat.switches`)."""

from __future__ import annotations

from typing import Any, ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import Message, RenderError
from tooletta.chat import ChatFormat, FirstMessageKeys, Neutral, each_role
from tooletta.chat.chatml import chatml
from tooletta.chat.guard import format_problem
from tooletta.chat.switches import refuse_unwritten, refuse_unwritten_fields


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


class _Fields(ChatFormat):
    """A format declaring a system message key it does not write."""

    name = "fields_fmt"
    unwritten_fields: ClassVar[dict[str, dict[str, Any]]] = {"system": {"current_date": None}}


FIELDS = _Fields()


def test_a_message_key_given_set_is_refused_naming_message_key_and_format() -> None:
    messages = [Message("user", "hi"), Message("system", "x", extra={"current_date": "today"})]
    with pytest.raises(RenderError) as caught:
        refuse_unwritten_fields(FIELDS, messages)
    assert "message 1: fields_fmt does not write the template's 'current_date' key" in str(
        caught.value
    )


def test_a_message_key_unset_or_on_another_role_passes() -> None:
    refuse_unwritten_fields(
        FIELDS,
        [
            Message("system", "x", extra={"current_date": None, "other": 1}),
            Message("user", "x", extra={"current_date": "today"}),
            Message("system", "y"),
        ],
    )


def test_a_bad_declaration_is_refused_by_the_guard() -> None:
    class Good(ChatFormat):
        name = "good_fmt"
        turns: ClassVar[Any] = each_role(chatml)
        unwritten_options: ClassVar[Any] = {"grounding": "disabled"}
        unwritten_fields: ClassVar[Any] = {"system": {"current_date": None}}

    class Bad(Good):
        name = "bad_fmt"
        unwritten_fields: ClassVar[Any] = {"system": ["current_date"]}

    class BadOptions(Good):
        name = "bad_options"
        unwritten_options: ClassVar[Any] = ["grounding"]

    assert format_problem(Good()) is None
    assert "unwritten_fields" in (format_problem(Bad()) or "")
    assert "unwritten_options" in (format_problem(BadOptions()) or "")


class _Several(ChatFormat):
    """A format declaring switches with several neutral values, and one with none."""

    name = "several_fmt"
    unwritten_options: ClassVar[dict[str, Any]] = {
        "skip": Neutral(False, None, ""),
        "given": Neutral(),
        "single": "disabled",
    }


SEVERAL = _Several()


@pytest.mark.parametrize(
    ("name", "value"), [("skip", False), ("skip", None), ("skip", ""), ("single", "disabled")]
)
def test_each_neutral_value_passes(name: str, value: Any) -> None:
    refuse_unwritten(SEVERAL, {name: value})


@pytest.mark.parametrize(
    ("name", "value"),
    [("skip", True), ("skip", 0), ("skip", "x"), ("given", None), ("given", False)],
)
def test_a_value_outside_the_neutral_ones_is_refused(name: str, value: Any) -> None:
    """``0`` is not ``False`` (a bool only to a bool); ``Neutral()``: any value given."""
    with pytest.raises(RenderError, match=f"several_fmt does not write the template's '{name}'"):
        refuse_unwritten(SEVERAL, {name: value})


def test_the_refusal_names_the_neutral_values() -> None:
    with pytest.raises(RenderError) as caught:
        refuse_unwritten(SEVERAL, {"skip": True})
    assert "as without it or with False, None or ''" in str(caught.value)
    with pytest.raises(RenderError) as caught:
        refuse_unwritten(SEVERAL, {"given": 1})
    assert "as without it)" in str(caught.value)


def test_neutral_is_a_read_only_value() -> None:
    assert Neutral(1, None) == Neutral(1, None) != Neutral(None, 1)
    assert hash(Neutral("a")) == hash(Neutral("a"))
    assert repr(Neutral(None, "")) == "Neutral(None, '')"
    with pytest.raises(AttributeError):
        Neutral().values = (1,)


class _First(ChatFormat):
    """A format declaring system keys read on the first message only."""

    name = "first_fmt"
    unwritten_fields: ClassVar[dict[str, Any]] = {
        "system": FirstMessageKeys(current_date=Neutral(None, ""))
    }


def test_first_message_keys_are_refused_on_the_first_message_only() -> None:
    first = _First()
    later = [Message("system", "a"), Message("system", "b", extra={"current_date": "today"})]
    refuse_unwritten_fields(first, later)  # the template does not read it there
    refuse_unwritten_fields(first, [Message("system", "a", extra={"current_date": ""})])
    with pytest.raises(RenderError, match="message 0: first_fmt does not write"):
        refuse_unwritten_fields(first, [Message("system", "a", extra={"current_date": "x"})])
    assert dict(FirstMessageKeys(a=1)) == {"a": 1}
    assert repr(FirstMessageKeys(a=1)) == "FirstMessageKeys(a=1)"
    assert format_problem(type("G", (_First,), {"turns": each_role(chatml)})()) is None
