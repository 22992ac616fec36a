"""What every step of differential probing (:mod:`.infer`) shares: the state the steps fill in
(the chat spec so far, the calls' spec, what the history observations kept...), the last
assistant turn's body, and the helpers that locate sentinels and name the probe that failed."""

from __future__ import annotations

import re
from typing import Any

from ...errors import LearnError
from .history import (
    Observation,
)
from .oracle import Oracle

_TOKEN = re.compile(r"<\|[^|<>\s]+\|>|<[^<>\s]{1,40}>|\[[A-Z_]{2,40}\]")


def _fail(probe: str, reason: str) -> LearnError:
    return LearnError(f"probe {probe!r}: {reason}", probe=probe)


def _find(text: str, sentinel: str, probe: str) -> int:
    at = text.find(sentinel)
    if at < 0 or text.find(sentinel, at + 1) >= 0:
        raise _fail(probe, f"the template does not write {sentinel!r} exactly once")
    return at


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


class _Step:
    """The state the steps of the inference share, and the last assistant turn's body in a
    render."""

    def __init__(self, oracle: Oracle, bos_token: str):
        self.o = oracle
        self.bos_token = bos_token
        self.spec: dict[str, Any] = {}
        self.empty_block = ""
        self.result_strip: list[str | None] = ["", ""]
        self.calls_spec: dict[str, Any] = {}
        self.history_strip: dict[str, Any] | None = None
        self.result_id: str | None = None
        self.result_encoding: dict[str, Any] | None = None
        """How a tool result's text is encoded inside its wrap (``None``: as it is)."""
        self.empty_refused = False
        """The template refuses an empty first system message (raises): the learned format
        writes it as none, and the probe of it is left out (nothing to match)."""
        self.history: list[Observation] = []
        """What each history observation kept (:mod:`.history`), when the template writes
        reasoning."""

    def _user_after_system(self) -> str:
        """The header of a user turn right after the system turn: the user's, or ``""`` for
        a template that leaves it out there (spec ``headerless``: Hunyuan's hub text, whose
        system turn's opening stands for both)."""
        bare = self.spec.get("headerless")
        if bare and bare["role"] == "user" and "system" in bare["after"]:
            return ""
        return str(self.spec["turns"]["user"][0])

    def _body(self, text: str, probe: str, start: int = 0) -> str:
        """The last assistant turn's body in ``text`` (the conversation ends with it)."""
        h_a, f_a = self.spec["turns"]["assistant"]
        if self.spec.get("open_last"):
            f_a = ""
        if h_a:
            at = text.rfind(h_a, start)
        else:  # no assistant header (Hunyuan's hub text): after the footer of the turn before
            turns = self.spec["turns"]
            footers = [turns[r][1] for r in ("user", "tool") if r in turns and turns[r][1]]
            ends = [text.rfind(f, start) + len(f) for f in footers if text.rfind(f, start) >= 0]
            at = max(ends, default=start)
        if at < 0 or not text.endswith(f_a):
            raise _fail(probe, "the assistant turn is not written with its header and footer")
        return text[at + len(h_a) : len(text) - len(f_a)]
