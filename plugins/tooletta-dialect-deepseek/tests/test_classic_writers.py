"""The V3 and V3.1 writers (one Python call per plainly named call) write what the writers
they replaced wrote, kept here as the reference: the same text, or the same error (type and
message), for any names and arguments."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tooletta_dialect_deepseek.classic import (
    CALL_BEGIN,
    CALL_END,
    CALLS_BEGIN,
    CALLS_END,
    EOS,
    SEP,
    DeepSeekV3Dialect,
    DeepSeekV31Dialect,
    args_json,
)

import tooletta
from tooletta import ToolCall


def _old_v3(dialect: Any, calls: list[ToolCall]) -> str:
    """``DeepSeekV3Dialect.render_calls`` before (a list of parts joined by ``\\n``)."""
    parts = []
    for c in calls:
        dialect.check_name(c.name)
        parts.append(
            f"{CALL_BEGIN}function{SEP}{c.name}\n```json\n{args_json(c.arguments)}\n```{CALL_END}"
        )
    return CALLS_BEGIN + "\n".join(parts) + CALLS_END


def _old_v31(dialect: Any, calls: list[ToolCall]) -> str:
    """``DeepSeekV31Dialect.render_calls`` before."""
    parts = []
    for c in calls:
        dialect.check_name(c.name)
        parts.append(f"{CALL_BEGIN}{c.name}{SEP}{args_json(c.arguments)}{CALL_END}")
    return CALLS_BEGIN + "".join(parts) + CALLS_END


WRITERS = [(DeepSeekV3Dialect(), _old_v3), (DeepSeekV31Dialect(), _old_v31)]
TOKENS = [CALLS_BEGIN, CALL_BEGIN, SEP, CALL_END, CALLS_END, EOS, "<think>", "</think>"]
PIECES = [*TOKENS, "<", "{", "}", "`", "```", "\n", " ", "\t", "-", ".", ":", "_", "a", "Z", "9"]
PIECES += ["é", "東", "\u2028", "\x00", '"', "\\"]

_piece_text = st.lists(st.sampled_from(PIECES), max_size=5).map("".join)
_names = st.one_of(
    st.from_regex(r"[A-Za-z0-9_.:\-]{1,12}", fullmatch=True),  # plain: checked at a glance
    _piece_text,
    st.text(max_size=6),
    st.sampled_from([" f", "f ", "{f", "f\n", "f```", "get_weather", "a.b-c:d"]),
)
_values = st.recursive(
    st.one_of(
        _piece_text,
        st.text(max_size=6),
        st.integers(),
        st.floats(),
        st.booleans(),
        st.none(),
        st.sampled_from([math.nan, math.inf, b"x", -0.0, 2**64]),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(_piece_text, inner, max_size=3)
    ),
    max_leaves=8,
)
_calls = st.lists(
    st.builds(ToolCall, _names, st.dictionaries(_piece_text, _values, max_size=3)), max_size=3
)


def _outcome(write: Any) -> tuple[str, str]:
    try:
        return ("text", write())
    except tooletta.ToolettaError as exc:
        return (type(exc).__name__, str(exc))
    except Exception as exc:  # a raw error must be the same one too
        return (f"raw {type(exc).__name__}", str(exc))


@pytest.mark.parametrize(("dialect", "old"), WRITERS, ids=["deepseek_v3", "deepseek_v31"])
def test_writers_write_what_the_old_writers_wrote(dialect: Any, old: Any) -> None:
    @settings(
        max_examples=400,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(_calls, st.sampled_from(["", "Hi", "a <b>"]))
    def check(calls: list[ToolCall], content: str) -> None:
        assert _outcome(lambda: dialect.render_calls(calls)) == _outcome(
            lambda: old(dialect, calls)
        )
        assert _outcome(lambda: dialect.render(calls, content=content)) == _outcome(
            lambda: (
                dialect.check_content(content) or content + old(dialect, calls)
                if calls
                else dialect.check_content(content) or content
            )
        )

    check()


@pytest.mark.parametrize(("dialect", "old"), WRITERS, ids=["deepseek_v3", "deepseek_v31"])
@pytest.mark.parametrize(
    "name", ["", " f", "f ", "{f", "f\n", "f```", "f<｜tool▁sep｜>", "a<think>", 5, None]
)
def test_names_the_glance_leaves_to_check_name(dialect: Any, old: Any, name: Any) -> None:
    """Every name the plain-name glance does not pass is refused, or written, as before
    (a name that is not a string too: the same raw error)."""
    calls = [ToolCall(name, {"s": f"x{EOS}<y"})]
    assert _outcome(lambda: dialect.render_calls(calls)) == _outcome(lambda: old(dialect, calls))


@pytest.mark.parametrize("dialect", [d for d, _ in WRITERS], ids=["deepseek_v3", "deepseek_v31"])
def test_end_of_turn_in_a_value_is_escaped(dialect: Any) -> None:
    """The inlined ``args_json``: ``<`` written ``\\u003c`` only when the value holds the
    end-of-turn token."""
    text = dialect.render_calls([ToolCall("f", {"a": f"<{EOS}"}), ToolCall("g", {"a": "<b"})])
    assert EOS not in text and "\\u003c" in text
    assert '"<b"' in text


@pytest.mark.parametrize(("dialect", "old"), WRITERS, ids=["deepseek_v3", "deepseek_v31"])
def test_values_json_cannot_write_fail_as_before(dialect: Any, old: Any) -> None:
    """An integer too long to write (kept out of the strategy: hypothesis cannot print it),
    NaN, bytes and nesting too deep: the same error, after the calls before them."""
    deep: Any = 1
    for _ in range(2000):
        deep = [deep]
    for value in (10**5000, math.nan, b"x", deep):
        calls = [ToolCall("f", {}), ToolCall("g", {"v": value})]
        got = _outcome(lambda calls=calls: dialect.render_calls(calls))
        assert got[0] == "RenderError"
        assert got == _outcome(lambda calls=calls: old(dialect, calls))
