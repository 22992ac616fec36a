"""``Reasoning.off_when`` and ``Reasoning.blank_empty``: the ways templates read a thinking
switch and write blank reasoning that core declares (Kimi K2.5, Kimi K3, Qwen3.6), instead of a
``Reasoning`` subclass a plugin would otherwise write (which a third party's registration
check refuses: ``type(reasoning) is Reasoning``)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tooletta.chat import Reasoning

_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.text(max_size=2))


@given(_VALUES)
def test_off_when_false_is_off_only_for_false(value: object) -> None:
    jinja_is_false = Reasoning(
        "<t>", "</t>", keep="all", switch="x", switched="none", off_when="false"
    )
    assert jinja_is_false.rule({"x": value}) == ("none" if value is False else "all")
    assert jinja_is_false.rule({}) == "all"


@given(_VALUES)
def test_off_when_falsy_reads_the_truth_value(value: object) -> None:
    truthy = Reasoning("<t>", "</t>", keep="all", switch="x", switched="none")
    assert truthy.rule({"x": value}) == ("all" if value else "none")


@given(_VALUES)
def test_off_when_not_true_is_on_only_for_true(value: object) -> None:
    """Qwen3.6's ``preserve_thinking is defined and preserve_thinking is true``: ``1`` and
    ``"yes"`` are not ``true``; not given is off."""
    jinja_is_true = Reasoning(
        "<t>", "</t>", keep="all", switch="x", switched="last", off_when="not_true"
    )
    assert jinja_is_true.rule({"x": value}) == ("all" if value is True else "last")
    assert jinja_is_true.rule({}) == "last"


@given(st.text(st.sampled_from(" \n\tab"), max_size=6))
def test_blank_empty_writes_blank_reasoning_as_an_empty_block(reasoning: str) -> None:
    channel = Reasoning("<t>", "</t>", strip="", blank_empty=True)
    written = channel.block(reasoning)
    assert written == "<t>" + (reasoning if reasoning.strip() else "") + "</t>"
    assert Reasoning("<t>", "</t>", strip="").block(reasoning) == "<t>" + reasoning + "</t>"


def test_first_party_formats_need_no_reasoning_subclass() -> None:
    from tooletta import catalog

    for info in catalog.list_dialects():
        for fmt in catalog.chat_formats_of(catalog.get_dialect(info.name)):
            assert fmt.reasoning is None or type(fmt.reasoning) is Reasoning, fmt.name
