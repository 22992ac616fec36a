"""Conversation laws: a chat format renders what the model's own template renders, byte for
byte, and parses back what it rendered.

Use it from a plugin's tests with the model's template vendored as a fixture::

    class TestQwen3Chat(ConversationTests):
        model = "Qwen/Qwen3-8B"
        template = Path(__file__).parent / "templates" / "Qwen3.jinja"

The sample conversations cover a system message or none, tool declarations, reasoning, two
calls in one turn, tool results, a second user turn, non-ASCII text and JSON escapes. Where a
model's template raises on a valid conversation or loses data, the format does what a correct
template would: list those conversations in ``differences`` (name -> reason), and document
them in the family's docs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, ClassVar

import msgspec

from .. import api
from ..chat import clock
from ..chat.api import render_spans
from ..chat.jinja import render_jinja
from ..chat.lookup import resolve_format
from ..chat.messages import read_conversation, read_tool_definitions, text_of
from ..ir import Message, ToolCall

__all__ = [
    "FROZEN_TIME",
    "PROBE_TOOLS",
    "SAMPLE_TOOLS",
    "ConversationTests",
    "check_conversation_round_trip",
    "check_matches_template",
    "list_content_conversations",
    "random_conversations",
    "sample_conversations",
]

SAMPLE_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string", "description": "City name"},
                    "days": {"type": "integer"},
                },
                "required": ["city"],
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "description": "Local time in a timezone.",
            "parameters": {
                "type": "object",
                "properties": {"tz": {"type": "string"}},
                "required": ["tz"],
            },
        },
    },
]
"""Two tool definitions (OpenAI Chat shape) the sample conversations call."""


FROZEN_TIME = datetime(2026, 11, 25, 23, 59, 59)
"""The time ``strftime_now`` gives while the kit compares two renders of one conversation
(a second and a midnight apart on purpose: a template writing either still agrees)."""


def _call(name: str, arguments: dict[str, Any], call_id: str | None) -> ToolCall:
    return ToolCall(name, arguments, call_id)


def sample_conversations(*, ids: bool = False) -> dict[str, tuple[list[Message], bool]]:
    """Named sample conversations: ``name -> (messages, uses_tools)``. ``ids=True`` gives
    calls ids (``call_1``...) and results the matching ``tool_call_id``."""

    def cid(n: int) -> str | None:
        return f"call_{n}" if ids else None

    weather = _call("get_weather", {"city": "Paris", "days": 2}, cid(1))
    time = _call("get_time", {"tz": "Europe/Paris"}, cid(2))
    tokyo = _call("get_weather", {"city": "東京"}, cid(3))
    system = Message("system", "You are a helpful assistant.")
    ask = Message("user", "What's the weather in Paris, and the time there?")
    results = [
        Message("tool", '{"temp": 18, "sky": "clear"}', tool_call_id=cid(1), name="get_weather"),
        Message("tool", "14:05", tool_call_id=cid(2), name="get_time"),
    ]
    answer = Message("assistant", "It is 18 °C and clear in Paris; the time is 14:05.")
    calls_turn = Message("assistant", "Let me check both.", tool_calls=[weather, time])
    thinking_calls = Message(
        "assistant",
        "",
        tool_calls=[weather, time],
        reasoning="The user wants weather and time; call both tools.",
    )
    follow = Message("user", 'And in Tokyo? Reply with "quotes" \\ and a newline\nplease.')
    tokyo_turn = Message("assistant", "", tool_calls=[tokyo])
    tokyo_result = Message("tool", '{"temp": 22}', tool_call_id=cid(3), name="get_weather")
    tokyo_answer = Message(
        "assistant", "東京: 22 °C.", reasoning="One more call was needed; now answer."
    )
    return {
        "plain": ([Message("user", "Hello!"), Message("assistant", "Hi! How can I help?")], False),
        "system_plain": (
            [system, Message("user", "Hello!"), Message("assistant", "Hi there.")],
            False,
        ),
        "tools_two_calls": ([system, ask, calls_turn, *results, answer], True),
        "tools_no_system": ([ask, calls_turn, *results, answer], True),
        "reasoning_multi_turn": (
            [
                system,
                ask,
                thinking_calls,
                *results,
                answer,
                follow,
                tokyo_turn,
                tokyo_result,
                tokyo_answer,
            ],
            True,
        ),
        "pending_call": ([ask, calls_turn], True),
    }


def list_content_conversations(*, ids: bool = False) -> dict[str, list[Message]]:
    """For each role (``system``, ``user``, ``assistant``, ``tool``), a conversation in
    which a message of that role has its content as a list of two text parts (the OpenAI /
    Hugging Face multimodal shape)."""

    def parts(*texts: str) -> list[dict[str, str]]:
        return [{"type": "text", "text": t} for t in texts]

    tools_case, _ = sample_conversations(ids=ids)["tools_two_calls"]
    first_result = next(i for i, m in enumerate(tools_case) if m.role == "tool")
    tool = list(tools_case)
    tool[first_result] = msgspec.structs.replace(
        tool[first_result], content=parts('{"temp": 18,', ' "sky": "clear"}')
    )
    return {
        "system": [
            Message("system", parts("You are helpful.", "Be brief.")),
            Message("user", "Hello!"),
            Message("assistant", "Hi."),
        ],
        "user": [
            Message("user", parts("Look at this:", "what is 2 + 2?")),
            Message("assistant", "4."),
        ],
        "assistant": [
            Message("user", "Hello!"),
            Message("assistant", parts("Hi!", "How can I help?")),
        ],
        "tool": tool,
    }


PROBE_TOOLS: list[dict[str, Any]] = [
    {
        "type": "function",
        "function": {
            "name": "probe",
            "description": "Look something up.",
            "parameters": {
                "type": "object",
                "properties": {
                    "s": {"type": "string"},
                    "n": {"type": "integer"},
                    "b": {"type": "boolean"},
                    "o": {"type": "object"},
                },
                "required": ["s"],
            },
        },
    }
]
"""The tool :func:`random_conversations` calls (its arguments typed by this schema)."""


def random_conversations(*, trimmed: bool = True) -> Any:
    """A hypothesis strategy of conversations calling :data:`PROBE_TOOLS`.

    An optional system message, then one or two rounds of a user message, zero to two
    assistant turns with calls (content and reasoning optional, one or two calls, a result for
    each) and an answer. Texts hold no ``<``, ``>`` or ``\\r`` (so no markup by accident);
    ``trimmed``: no whitespace at either end of a text either, as the round-trip law needs
    (formats that trim or join texts cannot give those ends back). Needs hypothesis.
    """
    from hypothesis import strategies as st

    chars = st.characters(codec="utf-8", exclude_categories=("Cs", "Cc"), exclude_characters="<>\r")
    text = st.text(st.one_of(chars, st.sampled_from(" \n")), max_size=12)
    if trimmed:
        text = text.map(str.strip)
    some = text.filter(bool)
    scalar = st.one_of(
        st.text(chars, max_size=8).map(lambda t: {"s": t}),
        st.integers(-1000, 1000).map(lambda n: {"n": n}),
        st.booleans().map(lambda b: {"b": b}),
        st.dictionaries(st.text(chars, min_size=1, max_size=4), st.integers(), max_size=2).map(
            lambda o: {"o": o}
        ),
    )
    arguments = st.lists(scalar, min_size=1, max_size=3).map(
        lambda parts: {"s": "x", **{k: v for part in parts for k, v in part.items()}}
    )
    calls = st.lists(arguments.map(lambda a: ToolCall("probe", a)), min_size=1, max_size=2)

    def step(parts: tuple[str, str, list[ToolCall], list[str]]) -> list[Message]:
        content, reasoning, called, results = parts
        turn = Message("assistant", content, tool_calls=called, reasoning=reasoning)
        return [turn, *(Message("tool", r) for r in results[: len(called)])]

    tool_step = st.tuples(text, text, calls, st.lists(some, min_size=2, max_size=2)).map(step)
    answer = st.tuples(some, text).map(lambda p: Message("assistant", p[0], reasoning=p[1]))
    round_ = st.tuples(some, st.lists(tool_step, max_size=2), answer).map(
        lambda p: [Message("user", p[0]), *(m for s in p[1] for m in s), p[2]]
    )
    none: list[Message] = []
    system = st.one_of(st.just(none), some.map(lambda t: [Message("system", t)]))
    return st.tuples(system, st.lists(round_, min_size=1, max_size=2)).map(
        lambda p: [*p[0], *(m for r in p[1] for m in r)]
    )


def _comparable(messages: Sequence[Message]) -> list[Message]:
    return [
        Message(
            role=m.role,
            content=text_of(m.content),
            tool_calls=[ToolCall(c.name, c.arguments, c.id) for c in m.tool_calls],
            reasoning=m.reasoning,
        )
        for m in messages
    ]


def check_matches_template(
    template: str,
    messages: Sequence[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Sequence[Any] | None = None,
    tokens: Mapping[str, str] | None = None,
    add_generation_prompt: bool = False,
    string_arguments: bool = False,
    **options: Any,
) -> None:
    """``render_conversation`` equals the Jinja ``template`` rendered with Hugging Face's
    semantics, byte for byte (the assertion shows where they part). ``string_arguments``:
    the template receives call arguments as JSON text (templates that concatenate them)."""
    native = api.render_conversation(
        messages,
        model=model,
        dialect=dialect,
        tools=tools,
        add_generation_prompt=add_generation_prompt,
        **options,
    )
    expected = render_jinja(
        template,
        read_conversation(messages),
        tools=read_tool_definitions(tools),
        add_generation_prompt=add_generation_prompt,
        tokens=tokens,
        string_arguments=string_arguments,
        **options,
    )
    if native != expected:
        at = next(
            (i for i, (a, b) in enumerate(zip(native, expected)) if a != b),
            min(len(native), len(expected)),
        )
        raise AssertionError(
            f"differs from the template at {at}:\n"
            f"  native:   {native[max(0, at - 60) : at + 60]!r}\n"
            f"  template: {expected[max(0, at - 60) : at + 60]!r}"
        )


def check_conversation_round_trip(
    messages: Sequence[Any],
    *,
    model: str | None = None,
    dialect: str | None = None,
    tools: Sequence[Any] | None = None,
    **options: Any,
) -> None:
    """``parse_conversation(render_conversation(m)) == m``, for what the format carries."""
    fmt, _ = resolve_format(model, dialect)
    read = read_conversation(messages)
    text = render_spans(read, model=model, dialect=dialect, tools=tools, **options).text
    back = api.parse_conversation(text, model=model, dialect=dialect, tools=tools)
    want = _comparable(fmt.expressible(read))
    got = _comparable(back)
    assert got == want, f"round trip lost data:\n  got:  {got}\n  want: {want}"


class ConversationTests:
    """Conversation laws for one chat format, checked against the model's own template.

    Set ``model`` (an HF model id the format answers to) or ``dialect``, and ``template`` (the
    vendored template's path). ``tokens`` are the special tokens the template reads
    (``bos_token``...), ``options`` template switches to test with (each dict is one run),
    ``ids`` whether the format carries call ids, ``differences`` the sample conversations on
    which the template itself is wrong (name -> why), checked for round trip only.
    ``string_arguments``: the template takes call arguments as JSON text, the OpenAI wire
    form (DeepSeek's own templates concatenate them and raise on a dict). ``tools``: the
    tool definitions the samples that use tools declare (:data:`SAMPLE_TOOLS` by default; a
    template that reads more of a schema, such as a description for every parameter, sets
    definitions it can render). ``list_content``: the roles whose content the template
    writes from a list of text parts (``{"type": "text", "text": ...}``) rather than from a
    string: each gets a conversation of :func:`list_content_conversations` compared with the
    template (templates that print a list's Python ``repr`` or only its first part are not
    listed: the format writes the parts' text, as a correct template would).
    """

    model: ClassVar[str | None] = None
    dialect: ClassVar[str | None] = None
    template: ClassVar[Path]
    tokens: ClassVar[Mapping[str, str]] = {}
    options: ClassVar[Sequence[Mapping[str, Any]]] = ({},)
    ids: ClassVar[bool] = False
    differences: ClassVar[Mapping[str, str]] = {}
    string_arguments: ClassVar[bool] = False
    tools: ClassVar[Sequence[Mapping[str, Any]]] = SAMPLE_TOOLS
    list_content: ClassVar[Sequence[str]] = ()

    def test_list_content(self) -> None:
        """Content given as a list of text parts renders as the template writes it, for the
        roles in ``list_content``, and reads back as that text."""
        template = self._template() if self.list_content else ""
        cases = list_content_conversations(ids=self.ids)
        for role in self.list_content:
            messages = cases[role]
            for opts in self.options:
                with clock.frozen(FROZEN_TIME):
                    check_matches_template(
                        template,
                        messages,
                        model=self.model,
                        dialect=self.dialect,
                        tools=self.tools if role == "tool" else None,
                        tokens=self.tokens,
                        string_arguments=self.string_arguments,
                        **opts,
                    )
            check_conversation_round_trip(
                messages,
                model=self.model,
                dialect=self.dialect,
                tools=self.tools if role == "tool" else None,
            )

    def _template(self) -> str:
        return self.template.read_text(encoding="utf-8")

    def _cases(self) -> dict[str, tuple[list[Message], bool]]:
        return sample_conversations(ids=self.ids)

    def test_matches_template(self) -> None:
        """Every sample conversation (with and without a generation prompt, each options
        set) renders exactly as the template does."""
        template = self._template()
        with clock.frozen(FROZEN_TIME):
            self._match_all(template)

    def _match_all(self, template: str) -> None:
        for name, (messages, uses_tools) in self._cases().items():
            if name in self.differences:
                continue
            for opts in self.options:
                for prompt in (False, True):
                    try:
                        check_matches_template(
                            template,
                            messages,
                            model=self.model,
                            dialect=self.dialect,
                            tools=self.tools if uses_tools else None,
                            tokens=self.tokens,
                            add_generation_prompt=prompt,
                            string_arguments=self.string_arguments,
                            **opts,
                        )
                    except AssertionError as exc:
                        raise AssertionError(f"{name} {opts} prompt={prompt}: {exc}") from None

    def test_round_trip(self) -> None:
        """``parse_conversation(render_conversation(m))`` gives ``m`` back (what it carries)."""
        for name, (messages, uses_tools) in self._cases().items():
            try:
                check_conversation_round_trip(
                    messages,
                    model=self.model,
                    dialect=self.dialect,
                    tools=self.tools if uses_tools else None,
                )
            except AssertionError as exc:
                raise AssertionError(f"{name}: {exc}") from None

    def test_render_model_turn(self) -> None:
        """``render(calls, model=..., content=..., reasoning=...)`` is the text the template
        writes for a final assistant turn, between the generation prompt and end of turn
        (with the reasoning the template keeps for that turn: a template that drops the last
        turn's reasoning from history writes it without)."""
        if self.model is None:
            return
        fmt, _ = resolve_format(self.model, self.dialect)
        with clock.frozen(FROZEN_TIME):
            self._render_model_turns(fmt)

    def _render_model_turns(self, fmt: Any) -> None:
        for name, (messages, uses_tools) in self._cases().items():
            last = messages[-1]
            if last.role != "assistant" or name in self.differences:
                continue
            tools = self.tools if uses_tools else None
            spans = render_spans(messages, model=self.model, dialect=self.dialect, tools=tools)
            start, end = spans.generated_spans()[-1][1]
            turn = spans.text[start:end]
            for token in (fmt.end_of_turn, *fmt.end_tokens):
                if token and turn.endswith(token):
                    turn = turn[: -len(token)]
                    break
            kept = fmt.keeps_reasoning(len(messages) - 1, messages)
            got = api.render(
                last.tool_calls,
                self.dialect,
                model=self.model,
                content=fmt.text(last.content),
                reasoning=last.reasoning if kept else "",
            )
            assert got == turn, f"{name}: {got!r} != {turn!r}"


def replace(message: Message, **changes: Any) -> Message:
    """A copy of ``message`` with ``changes`` (for building conversations in tests)."""
    return msgspec.structs.replace(message, **changes)
