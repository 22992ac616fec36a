"""Hypothesis strategies (calls, content, markup-like strings) and adversarial tokens."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import Any

from ..ir import ToolCall

__all__ = [
    "FOREIGN_TOKENS",
    "MARKUP_PUNCTUATION",
    "apply_edits",
    "calls_strategy",
    "content_strategy",
    "markup_strings",
    "mutated_texts",
]


FOREIGN_TOKENS = [
    "<tool_call>",
    "</tool_call>",
    "[TOOL_CALLS]",
    "[ARGS]",
    "<|python_tag|>",
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁sep｜>",
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "<arg_key>",
    "<arg_value>",
    "<function=f>",
    "<parameter=p>",
    "</parameter>",
    "<|channel|>",
    "<|message|>",
    "<|call|>",
    "<|START_ACTION|>",
    "<think>",
    "</think>",
    "<tool_calls>",
    "functools[",
    "<TOOLCALL>",
    "「末」",
]
"""Markers of other dialects, inserted by the bad-input law."""


def content_strategy(allowed: bool = True) -> Any:
    """Hypothesis strategy for content text (empty when the format has none)."""
    from hypothesis import strategies as st

    if not allowed:
        return st.just("")
    return st.one_of(
        st.just(""),
        st.text(
            alphabet=string.ascii_letters + string.digits + " .,!?'éü東京", min_size=1, max_size=40
        ).filter(lambda s: s.strip() != ""),
    )


MARKUP_PUNCTUATION = ("{", "}", '"', "\\", "\n", " ", "a", ">", "<")
"""Characters that trouble most formats' quoting, for a dialect's ``markup`` beside its own
tokens."""


def markup_strings(tokens: Sequence[str], *, filler: str | None = "", max_size: int = 6) -> Any:
    """Hypothesis strategy for strings glued from up to ``max_size`` pieces, each one of
    ``tokens`` or a short random text: from the alphabet ``filler``, any text when ``filler`` is
    ``None``, none when it is ``""``."""
    from hypothesis import strategies as st

    piece = st.sampled_from(list(tokens))
    if filler is None:
        piece = st.one_of(piece, st.text(max_size=4))
    elif filler:
        piece = st.one_of(piece, st.text(filler, max_size=3))
    return st.lists(piece, max_size=max_size).map("".join)


def calls_strategy(markers: Sequence[str] = (), ids: str = "none") -> Any:
    """Hypothesis strategy for lists of calls: unicode, escapes, nesting, empty arguments,
    markup-like strings (this dialect's markers included)."""
    from hypothesis import strategies as st

    tricky = st.sampled_from(
        [
            *markers,
            "</parameter>",
            "<",
            ">",
            "「末」",
            '"',
            "\\",
            "\n",
            "{",
            "}",
            "[",
            "]",
            "'",
            "\t",
            "ü",
            "東京",
            "🙂",
            "a b",
            "",
        ]
    )
    text = st.one_of(
        st.text(max_size=12),
        st.lists(st.one_of(tricky, st.text(string.ascii_letters, max_size=3)), max_size=4).map(
            "".join
        ),
    )
    scalar = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**53), 2**53),
        st.floats(allow_nan=False, allow_infinity=False, width=64).filter(
            lambda f: not (f == 0 and str(f).startswith("-"))
        ),
        text,
    )
    value = st.recursive(
        scalar,
        lambda inner: st.one_of(
            st.lists(inner, max_size=3),
            st.dictionaries(
                st.text(string.ascii_letters + "_ é", min_size=1, max_size=6), inner, max_size=3
            ),
        ),
        max_leaves=8,
    )
    key = st.from_regex(r"[a-z_][a-z0-9_]{0,11}", fullmatch=True)
    name = st.from_regex(r"[A-Za-z_][A-Za-z0-9_]{0,15}", fullmatch=True)
    call_id = (
        st.none()
        if ids == "none"
        else st.one_of(st.none(), st.from_regex(r"[A-Za-z0-9]{9}", fullmatch=True))
    )
    call = st.builds(
        lambda n, a, i: ToolCall(n, a, i),
        name,
        st.dictionaries(key, value, max_size=4),
        call_id,
    )
    # one tool name per call, so the schema tools_for derives types each value exactly
    return st.lists(call, min_size=1, max_size=4, unique_by=lambda c: c.name)


def apply_edits(text: str, edits: Sequence[tuple[int, str, str]]) -> str:
    """``text`` after each edit ``(position, op, token)`` in turn: ``"cut"`` truncates at the
    position (taken modulo the length plus one), ``"insert"`` puts ``token`` there,
    ``"delete"`` removes one to five characters there."""
    for at, op, token in edits:
        at %= len(text) + 1
        if op == "cut":
            text = text[:at]
        elif op == "insert":
            text = text[:at] + token + text[at:]
        else:
            text = text[:at] + text[at + 1 + len(token) % 5 :]
    return text


def mutated_texts(texts: Sequence[str], noise: Sequence[str], max_edits: int = 4) -> Any:
    """Hypothesis strategy for one of ``texts`` after up to ``max_edits`` random
    :func:`apply_edits` (cuts, insertions of one of ``noise``, deletions)."""
    from hypothesis import strategies as st

    edit = st.tuples(
        st.integers(0, 10_000),
        st.sampled_from(["cut", "insert", "delete"]),
        st.sampled_from(list(noise)),
    )
    return st.builds(apply_edits, st.sampled_from(list(texts)), st.lists(edit, max_size=max_edits))
