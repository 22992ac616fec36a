"""Atheris target for the conversation layer: the conversation law of issue 22.

Each input picks a chat format and a mode:

* ``0`` random message lists: roles (the four, ``developer``, unknown ones, lists, dicts,
  numbers), contents (any format's markup, hostile strings, raw bytes with invalid ones as
  lone surrogates, lists of parts, ``None``, numbers), calls on any role with odd names,
  ids, keys and values (bytes, tuples, sets, NaN, long integers, deep nesting), given as
  :class:`~tooletta.Message` objects or as chat dicts;
* ``1`` the one-oddity matrix: a well-formed conversation with one of
  :data:`tooletta.testing.oddities.ODDITIES`;
* ``2`` mutated renders: a sample conversation's text cut, sliced, doubled or with markup
  inserted, for ``parse_conversation``.

Checked (:mod:`tooletta.testing.conversation_law`): ``render_conversation`` raises only a
``ToolettaError`` or writes a text that reads back as the same messages (what the format
carries of them); ``parse_conversation`` returns messages or raises a ``ToolettaError``.

Run (see README.md)::

    uv pip install atheris
    uv run --no-sync python fuzz/fuzz_conversations.py -max_total_time=600 -timeout=10

Without atheris, :func:`one_input` is a plain function (the test suite replays inputs).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_engine import Provider  # the engine target's byte reader (its folder is on the path)

_state: dict[str, Any] = {}

_ROLES: tuple[Any, ...] = (
    "user",
    "assistant",
    "tool",
    "system",
    "assistant",
    "tool",
    "user",
    "developer",
    "function",
    "narrator",
    ["user"],
    {"role": "user"},
    5,
)
_HOSTILE = ("", " ", "\n", "\x00", "\ud800", "é", "{", "}", "[", "]", '"', "\\", "<", ">")


def _setup() -> dict[str, Any]:
    if not _state:
        import tooletta
        from tooletta.chat import chat_formats_of
        from tooletta.chat.markup import dialect_markers
        from tooletta.plugins import get_registry
        from tooletta.testing import conversation_law, oddities
        from tooletta.testing.conversations import PROBE_TOOLS, SAMPLE_TOOLS, sample_conversations

        formats: dict[str, Any] = {}
        for entry in get_registry().ordered():
            for fmt in chat_formats_of(entry.dialect):
                formats.setdefault(fmt.name, (fmt, entry.dialect))
        names = sorted(formats)
        markup = {n: (*f.markup(), *dialect_markers(d)) for n, (f, d) in formats.items()}
        every = tuple(sorted({t for tokens in markup.values() for t in tokens}))
        renders: dict[str, list[str]] = {}
        for name in names:
            texts = []
            for messages, uses_tools in sample_conversations().values():
                tools = SAMPLE_TOOLS if uses_tools else None
                try:
                    texts.append(tooletta.render_conversation(messages, dialect=name, tools=tools))
                except tooletta.ToolettaError:
                    continue
            renders[name] = texts
        _state.update(
            names=names,
            markup=markup,
            every=every,
            renders=renders,
            law=conversation_law,
            oddities=oddities,
            probe=PROBE_TOOLS,
            sample=SAMPLE_TOOLS,
        )
    return _state


class _Builder:
    """Turns the fuzzer's bytes into message lists for one format."""

    def __init__(self, p: Provider, markup: tuple[str, ...], every: tuple[str, ...]) -> None:
        self.p = p
        self.markup = markup or ("<|x|>",)
        self.every = every or self.markup

    def text(self) -> str:
        kind = self.p.byte() % 8
        if kind == 0:
            return ""
        if kind == 1:
            return self.markup[self.p.u16() % len(self.markup)]
        if kind == 2:
            return self.every[self.p.u16() % len(self.every)]
        if kind == 3:
            return _HOSTILE[self.p.byte() % len(_HOSTILE)]
        if kind == 4:
            return self.p.take(self.p.byte() % 24).decode("utf-8", "surrogateescape")
        return "".join(self.word() for _ in range(1 + self.p.byte() % 3))

    def word(self) -> str:
        words = ("Hi", "ok", "Paris", "12:00", " the ", "\n", "x y", "é", "data")
        return words[self.p.byte() % len(words)]

    def value(self, depth: int = 0) -> Any:
        kind = self.p.byte() % 16
        scalars: tuple[Any, ...] = (None, True, False, 0, -7, 2.5, float("nan"), 10**4400)
        if kind < 8:
            return scalars[kind]
        if kind < 11:
            return self.text()
        if kind == 11:
            return b"x"
        if kind == 12:
            return (1, 2)
        if kind == 13:
            nested: Any = 1
            for _ in range(600 if self.p.byte() % 2 else 40):
                nested = [nested]
            return nested
        if depth > 3:
            return 1
        if kind == 14:
            return [self.value(depth + 1) for _ in range(self.p.byte() % 3)]
        return {self.key(): self.value(depth + 1) for _ in range(self.p.byte() % 3)}

    def key(self) -> Any:
        kind = self.p.byte() % 10
        if kind == 0:
            return 1
        if kind == 1:
            return self.text()
        return ("s", "n", "b", "o", "city", "k", "x", "a")[kind % 8]

    def call_id(self) -> Any:
        kind = self.p.byte() % 8
        return (None, "c1", "call_2", 5, "c\ud800", self.text(), "c1", None)[kind]

    def calls(self) -> list[Any]:
        from tooletta import ToolCall

        out = []
        for _ in range(self.p.byte() % 3):
            name = "probe" if self.p.byte() % 3 else self.text()
            arguments = {self.key(): self.value() for _ in range(self.p.byte() % 4)}
            if self.p.byte() % 8 == 0:
                arguments = self.value()
            out.append(ToolCall(name, arguments, self.call_id()))
        return out

    def messages(self) -> list[Any]:
        from tooletta import Message

        out: list[Any] = []
        as_dicts = self.p.byte() % 2 == 0
        for _ in range(self.p.byte() % 8):
            role = _ROLES[self.p.byte() % len(_ROLES)]
            content: Any = self.text()
            pick = self.p.byte() % 12
            if pick == 0:
                content = [{"type": "text", "text": self.text()}, self.text()]
            elif pick == 1:
                content = None
            elif pick == 2:
                content = 5
            calls = self.calls() if role == "assistant" or self.p.byte() % 8 == 0 else []
            reasoning = self.text() if self.p.byte() % 3 == 0 else ""
            call_id = self.call_id() if role == "tool" else None
            if as_dicts:
                out.append(_as_dict(role, content, calls, reasoning, call_id))
            else:
                out.append(Message(role, content, calls, call_id, reasoning=reasoning))
        return out


def _as_dict(role: Any, content: Any, calls: list[Any], reasoning: str, call_id: Any) -> Any:
    message: dict[str, Any] = {"role": role, "content": content}
    if calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in calls
        ]
    if reasoning:
        message["reasoning_content"] = reasoning
    if call_id is not None:
        message["tool_call_id"] = call_id
    return message


def build(data: bytes) -> tuple[str, int, Any, bool]:
    """The format, mode, input (messages, or a text for mode 2) and generation prompt an
    input stands for."""
    s = _setup()
    p = Provider(data)
    name = s["names"][p.byte() % len(s["names"])]
    mode = p.byte() % 3
    prompt = p.byte() % 2 == 1
    builder = _Builder(p, s["markup"][name], s["every"])
    if mode == 0:
        return name, mode, builder.messages(), prompt
    if mode == 1:
        from tooletta import Message, ToolCall

        base = [
            Message("system", "Be brief."),
            Message("user", "Look it up."),
            Message("assistant", "On it.", [ToolCall("probe", {"s": "x"}, "c1")], reasoning="r"),
            Message("tool", "found", tool_call_id="c1"),
            Message("assistant", "Found."),
        ]
        oddities = s["oddities"].ODDITIES
        odd = oddities[list(oddities)[p.byte() % len(oddities)]]
        tokens = s["markup"][name] or ("<|x|>",)
        return name, mode, odd(base, p.u16(), tokens[p.u16() % len(tokens)]), prompt
    texts = s["renders"][name] or [""]
    text = texts[p.byte() % len(texts)]
    for _ in range(1 + p.byte() % 3):
        size = len(text) + 1
        i, j = sorted((p.u16() * 7 % size, p.u16() * 13 % size))
        edit = p.byte() % 4
        if edit == 0:
            text = text[:j]
        elif edit == 1:
            text = text[:i] + text[j:]
        elif edit == 2:
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i] + builder.text() + text[i:]
    return name, mode, text, prompt


def one_input(data: bytes) -> None:
    """Check the conversation law on what ``data`` stands for (raises on a violation)."""
    name, mode, item, prompt = build(data)
    law = _state["law"]
    if mode == 2:
        law.check_parse_total(item, dialect=name, tools=_state["sample"])
        return
    law.check_conversation_law(
        item, dialect=name, tools=_state["probe"], add_generation_prompt=prompt
    )


def main() -> None:
    """Fuzz :func:`one_input` with atheris (``fuzzmain.run``)."""
    import fuzzmain

    fuzzmain.run(one_input, _setup)


if __name__ == "__main__":
    main()
