"""The pattern engine behind imported templates (``tooletta.interop.hf._regex``).

It must agree with Python's :mod:`re` on whole text, and its answers on a prefix of the text
must never contradict the whole text's: a match reported early is the final one, a failure
reported early stays a failure. That is what makes streaming equal one-shot parsing.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooletta.interop.hf._regex import (
    FAIL,
    NEED,
    Match,
    PatternError,
    compile_pattern,
    invert,
    openers,
    parse,
)

PATTERNS = [
    r"<parameter=(?P<key>[^>\n]+)>\s*(?P<value>.*?)\s*</parameter>",
    r"(?P<key>\w+)=(?P<value>'[^']*'|[^,)]*)",
    r"a(?:bcd|b)",
    r"\s*<tool_call>",
    r"x+?y",
    r"(?:ab)*c",
    r"(?=.*?z)q",
    r"<arg_key>(?P<key>[^<]+)</arg_key>\s*\n<arg_value>(?P<value>.*?)</arg_value>",
    r"\$|a$",
    r"\bab\b",
    r"[^a-c]{2,3}",
    r"(?!ab)a.",
    r"a{,2}b",
    r"<(?P<key>[a-z]+)>(?P<value>[^<]*)</(?P=key)>",
    r"\}\s*(?:;\s*|<e>\s*|\Z)",
]
ALPHABET = "ab cdxyzq\n<>=/'parmetkyvlu_,);}e"
SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("source", PATTERNS)
def test_agrees_with_re_on_whole_text(source: str) -> None:
    ours = compile_pattern(source)
    theirs = re.compile(source, re.DOTALL)

    @SETTINGS
    @given(st.text(ALPHABET, max_size=16), st.integers(0, 16))
    def run(text: str, pos: int) -> None:
        pos = min(pos, len(text))
        want = theirs.match(text, pos)
        got = ours.match(text, pos, final=True)
        if want is None:
            assert got == FAIL, (text, pos, got)
        else:
            assert isinstance(got, Match), (text, pos, want)
            groups = {k: v for k, v in want.groupdict().items() if v is not None}
            assert (got.end, got.groups) == (want.end(), groups), (text, pos)

    run()


@pytest.mark.parametrize("source", PATTERNS)
def test_a_prefix_never_contradicts_the_whole(source: str) -> None:
    ours = compile_pattern(source)

    @SETTINGS
    @given(st.text(ALPHABET, max_size=16), st.integers(0, 16))
    def run(text: str, cut: int) -> None:
        cut = min(cut, len(text))
        whole = ours.match(text, 0, final=True)
        early = ours.match(text[:cut], 0, final=False)
        if isinstance(early, Match):
            assert isinstance(whole, Match), (text, cut)
            assert (early.end, early.groups) == (whole.end, whole.groups), (text, cut)
        elif early == FAIL:
            assert whole == FAIL, (text, cut)
        else:
            assert early == NEED

    run()


def test_search_holds_back_an_undecided_start() -> None:
    close = compile_pattern(r"</tool_call>\s*")
    assert close.search("abc</tool", 0, final=False) == (None, 3)
    m, _ = close.search("abc</tool_call> x", 0, final=False)
    assert isinstance(m, Match) and (m.start, m.end) == (3, 16)


@pytest.mark.parametrize(
    "source",
    [r"(?<=a)b", r"(\w)\1", r"(?i)a", r"a*+", r"a**", "[a", "(a", r"\q"],
)
def test_unsupported_or_invalid_patterns_raise(source: str) -> None:
    with pytest.raises(PatternError):
        parse(source)


def test_openers_are_the_literal_starts() -> None:
    starts = openers(parse(r"\s*(?:<\|tool_call_start\|>\[|,\s*)(?P<name>\w+)\("))
    assert [o.marker for o in starts.openers] == ["<|tool_call_start|>[", ","]
    ends = openers(parse(r"<\|user\|>\s*|$"), trim_end=True)
    assert [o.marker for o in ends.openers] == ["<|user|>"] and ends.at_end
    assert openers(parse(r"\A(?=\s*\[)")).openers[0].at_start
    with pytest.raises(PatternError):
        openers(parse(r"(?P<name>\w+)\("))


def test_invert_writes_what_the_pattern_reads() -> None:
    node = parse(r"\s*<tool_call>\s*<function=(?P<name>[^>\n]+)>")
    assert invert(node, {"name": "f"}) == "<tool_call><function=f>"
    assert invert(parse(r"<tool_call>(?P<name>\S+)\n?"), {"name": "f"}, fill=True) == (
        "<tool_call>f\n"
    )
    assert invert(node, {"name": "a>b"}) is None  # the group cannot hold it
