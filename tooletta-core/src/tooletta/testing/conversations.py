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
from ..chat.format import Conversation
from ..chat.jinja import render_jinja
from ..chat.lookup import resolve_format
from ..chat.messages import read_conversation, read_tool_definitions
from ..errors import ToolettaError
from ..ir import Message
from .conversation_law import _comparable, refused_for_tools
from .conversation_law_tests import ConversationLawTests
from .samples import (
    CALL_SAMPLES,
    CONTENT_BESIDE_CALLS_SAMPLES,
    PROBE_TOOLS,
    SAMPLE_TOOLS,
    list_content_conversations,
    random_conversations,
    reasoning_history_conversations,
    sample_conversations,
)

__all__ = [
    "CALL_SAMPLES",
    "CONTENT_BESIDE_CALLS_SAMPLES",
    "FROZEN_TIME",
    "PROBE_TOOLS",
    "SAMPLE_TOOLS",
    "ConversationTests",
    "check_conversation_round_trip",
    "check_matches_template",
    "check_prompt_forms",
    "list_content_conversations",
    "random_conversations",
    "reasoning_history_conversations",
    "sample_conversations",
]

FROZEN_TIME = datetime(2026, 11, 25, 23, 59, 59)
"""The time ``strftime_now`` gives while the kit compares two renders of one conversation
(a second and a midnight apart on purpose: a template writing either still agrees)."""


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
    allow_markup: bool = False,
    tool_results: str = "messages",
    **options: Any,
) -> None:
    """``render_conversation`` equals the Jinja ``template`` rendered with Hugging Face's
    semantics, byte for byte (the assertion shows where they part). ``string_arguments``:
    the template receives call arguments as JSON text (templates that concatenate them).
    ``allow_markup``: the messages hold the format's markup on purpose (inline reasoning a
    template cuts), written as is. ``tool_results``: the template reads results folded into
    the assistant message (``"tool_responses"``, :mod:`tooletta.chat.toolresponses`). A
    format writing no tools must refuse one with tools instead (``refused_for_tools``)."""
    if refused_for_tools(messages, model=model, dialect=dialect, tools=tools):
        return
    native = api.render_conversation(
        messages,
        model=model,
        dialect=dialect,
        tools=tools,
        add_generation_prompt=add_generation_prompt,
        allow_markup=allow_markup,
        **options,
    )
    expected = render_jinja(
        template,
        read_conversation(messages),
        tools=read_tool_definitions(tools),
        add_generation_prompt=add_generation_prompt,
        tokens=tokens,
        string_arguments=string_arguments,
        tool_results=tool_results,
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
    add_generation_prompt: bool = False,
    allow_markup: bool = False,
    **options: Any,
) -> None:
    """``parse_conversation(render_conversation(m)) == m``, for what the format carries
    (rendered with ``options`` and, when asked, the generation prompt: parse reads both
    without being told them; ``allow_markup`` as in :func:`check_matches_template`; its tools
    refused instead by a format writing none, ``refused_for_tools``)."""
    fmt, obj = resolve_format(model, dialect)
    read = read_conversation(messages)
    if refused_for_tools(read, model=model, dialect=dialect, tools=tools):
        return
    text = render_spans(
        read,
        model=model,
        dialect=dialect,
        tools=tools,
        add_generation_prompt=add_generation_prompt,
        allow_markup=allow_markup,
        **options,
    ).text
    back = api.parse_conversation(text, model=model, dialect=dialect, tools=tools)
    ctx = Conversation(
        read,
        read_tool_definitions(tools),
        {**fmt.options, **options},
        obj,
        add_generation_prompt,
    )
    want = _comparable(fmt.expressible_for(read, ctx))
    got = _comparable(back)
    assert got == want, f"round trip lost data:\n  got:  {got}\n  want: {want}"


def check_prompt_forms(
    template: str,
    *,
    model: str | None = None,
    dialect: str | None = None,
    tokens: Mapping[str, str] | None = None,
    **options: Any,
) -> None:
    """Under ``options`` (a template switch), every sample conversation and each of them
    without its last message (the prompt after a user turn or after tool results), with and
    without a generation prompt, renders as ``template`` does (:func:`check_matches_template`)
    and reads back without being told the switch (:func:`check_conversation_round_trip`);
    the clock frozen at :data:`FROZEN_TIME`."""
    with clock.frozen(FROZEN_TIME):
        for name, (messages, uses_tools) in sample_conversations().items():
            tools = SAMPLE_TOOLS if uses_tools else None
            for cut in (messages, messages[:-1]):
                for prompt in (False, True):
                    try:
                        check_matches_template(
                            template,
                            cut,
                            model=model,
                            dialect=dialect,
                            tools=tools,
                            tokens=tokens,
                            add_generation_prompt=prompt,
                            **options,
                        )
                        check_conversation_round_trip(
                            cut,
                            model=model,
                            dialect=dialect,
                            tools=tools,
                            add_generation_prompt=prompt,
                            **options,
                        )
                    except AssertionError as exc:
                        where = f"{name} ({len(cut)} messages), prompt={prompt}"
                        raise AssertionError(f"{where}: {exc}") from exc


class ConversationTests(ConversationLawTests):
    """Conversation laws for one chat format, checked against the model's own template.

    Set ``model`` (an HF model id the format answers to) or ``dialect``, and ``template`` (the
    vendored template's path). ``tokens`` are the special tokens the template reads
    (``bos_token``...), ``options`` template switches to test with (each dict is one run),
    ``ids`` whether the format carries call ids, ``differences`` the sample conversations on
    which the template itself is wrong (name -> why), checked for round trip only.
    ``string_arguments``: the template takes call arguments as JSON text, the OpenAI wire
    form (DeepSeek's own templates concatenate them and raise on a dict). ``tools``: the
    tool definitions the samples that use tools declare
    (:data:`~tooletta.chat.samples.SAMPLE_TOOLS` by default; a template that reads more
    of a schema, such as a description for every parameter, sets definitions it can render).
    ``list_content``: the roles whose content the template
    writes from a list of text parts (``{"type": "text", "text": ...}``) rather than from a
    string: each gets a conversation of
    :func:`~tooletta.chat.samples.list_content_conversations` compared with the template
    (templates that print a list's Python ``repr`` or only its first part are not listed:
    the format writes the parts' text, as a correct template would).
    ``allow_markup``: the class's own sample conversations hold the format's markup on
    purpose (reasoning inline in the content, which the template cuts) and are rendered with
    ``allow_markup=True``. ``tool_results``: ``"tool_responses"`` for a template that reads
    tool results folded into the assistant message, as llama.cpp feeds Gemma 4 templates
    (:mod:`tooletta.chat.toolresponses`). ``extra_conversations``: the format's own
    conversations (name -> (messages, whether they declare ``tools``)), checked beside the
    samples by every test (:func:`~tooletta.testing.samples.reasoning_history_conversations`
    for a template that keeps or drops past reasoning).
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
    allow_markup: ClassVar[bool] = False
    tool_results: ClassVar[str] = "messages"
    extra_conversations: ClassVar[Mapping[str, tuple[list[Message], bool]]] = {}

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
                        tool_results=self.tool_results,
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
        return {**sample_conversations(ids=self.ids), **self.extra_conversations}

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
                            tool_results=self.tool_results,
                            allow_markup=self.allow_markup,
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
                    allow_markup=self.allow_markup,
                )
            except AssertionError as exc:
                raise AssertionError(f"{name}: {exc}") from None

    def test_prompt_round_trip(self) -> None:
        """Every sample conversation, and each without its last message (a prompt: the text
        up to the generation prompt), rendered with a generation prompt under every options
        set reads back: ``parse_conversation``, which is not told the options, reads the
        prompt any of them writes as no message."""
        with clock.frozen(FROZEN_TIME):
            for opts in self.options:
                for name, (messages, uses_tools) in self._cases().items():
                    for cut in (messages, messages[:-1]):
                        try:
                            check_conversation_round_trip(
                                cut,
                                model=self.model,
                                dialect=self.dialect,
                                tools=self.tools if uses_tools else None,
                                add_generation_prompt=True,
                                allow_markup=self.allow_markup,
                                **opts,
                            )
                        except (AssertionError, ToolettaError) as exc:
                            raise AssertionError(
                                f"{name} ({len(cut)} messages) {opts}: {exc}"
                            ) from None

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
            if refused_for_tools(messages, model=self.model, dialect=self.dialect, tools=tools):
                continue
            spans = render_spans(
                messages,
                model=self.model,
                dialect=self.dialect,
                tools=tools,
                allow_markup=self.allow_markup,
            )
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
