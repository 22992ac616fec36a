"""The closed loop: a learned format must reproduce every probe render byte for byte and read
every probe back (one-shot, and its calls under every chunking of the stream).

Anything short raises :class:`~tooletta.LearnError` whose reason names the probe and the first
difference. Nothing here calls Jinja but through the oracle: the learned side uses only the
declarative renderer and parser of :mod:`tooletta.chat` and the dialect's engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ...errors import LearnError, ToolettaError
from ...ir import Message, ToolCall
from ..format import ChatFormat
from ..parse import parse_format
from ..render import render_format
from .oracle import Oracle
from .probes import Probe

__all__ = ["check_probe", "check_stream", "chunkings", "first_difference", "verify"]


def first_difference(want: str, got: str) -> str:
    """Where ``got`` first differs from ``want``, with a little context of each."""
    n = 0
    while n < len(want) and n < len(got) and want[n] == got[n]:
        n += 1
    lo = max(0, n - 20)
    return (
        f"at offset {n} the template writes {want[lo : n + 30]!r}, "
        f"the learned format {got[lo : n + 30]!r}"
    )


def _comparable(messages: Sequence[Message]) -> list[tuple[Any, ...]]:
    return [
        (
            m.role,
            m.content if isinstance(m.content, str) else json.dumps(m.content),
            m.reasoning,
            [(c.name, c.arguments, c.id) for c in m.tool_calls],
        )
        for m in messages
    ]


def check_probe(fmt: ChatFormat, dialect: Any, oracle: Oracle, probe: Probe) -> None:
    """Render ``probe`` both ways, compare, and read the template's text back."""
    options = dict(probe.options)
    try:
        want = oracle.render(probe.messages, probe.tools, probe.prompt, **options)
    except LearnError:
        if probe.optional:  # the template refuses this conversation: nothing to match
            return
        raise
    try:
        got = render_format(
            fmt, dialect, probe.messages, probe.tools, probe.prompt, options, segments=False
        ).text
    except ToolettaError as exc:
        raise LearnError(f"probe {probe.name!r}: the learned format refuses it: {exc}") from None
    if got != want:
        raise LearnError(f"probe {probe.name!r}: {first_difference(want, got)}", probe=probe.name)
    if not probe.read:
        return
    try:
        read = parse_format(fmt, dialect, want, probe.tools)
    except (ToolettaError, ValueError, IndexError, KeyError) as exc:
        raise LearnError(
            f"probe {probe.name!r}: the learned format cannot read the template's text: {exc}",
            probe=probe.name,
        ) from None
    expected = _comparable(fmt.expressible(probe.messages))
    if _comparable(read) != expected:
        raise LearnError(
            f"probe {probe.name!r}: read back as {_comparable(read)!r}, expected {expected!r}",
            probe=probe.name,
        )


def chunkings(text: str) -> Iterable[list[str]]:
    """The splits a stream check feeds: every cut in two, every cut in three around the
    markers' edges (bounded), and one character at a time."""
    n = len(text)
    for i in range(n + 1):
        yield [text[:i], text[i:]]
    yield list(text)
    step = max(1, n // 40)
    for i in range(0, n, step):
        for j in range(i, n, step):
            yield [text[:i], text[i:j], text[j:]]


def _streamed(dialect: Any, chunks: Sequence[str]) -> tuple[str, str, list[ToolCall]]:
    parser = dialect.stream()
    updates = [parser.feed(c) for c in chunks]
    updates.append(parser.finish())
    content, reasoning = [], []
    names: dict[int, str] = {}
    ids: dict[int, str | None] = {}
    args: dict[int, list[str]] = {}
    for u in updates:
        content.append(u.content)
        reasoning.append(u.reasoning)
        for d in u.calls:
            args.setdefault(d.index, []).append(d.arguments)
            if d.name is not None:
                names[d.index] = d.name
            if d.id is not None:
                ids[d.index] = d.id
    calls = [
        ToolCall(names.get(i, ""), json.loads("".join(args[i]) or "{}"), ids.get(i))
        for i in sorted(args)
    ]
    return "".join(content), "".join(reasoning), calls


def check_stream(dialect: Any, text: str, name: str) -> None:
    """Every chunking of ``text`` streams to what one-shot parse reads."""
    whole = dialect.parse(text)
    want = (whole.content, whole.reasoning, list(whole.calls))
    for chunks in chunkings(text):
        try:
            got = _streamed(dialect, chunks)
        except (ToolettaError, ValueError) as exc:
            raise LearnError(f"probe {name!r}: streaming fails: {exc}", probe=name) from None
        if got != want:
            cut = [len(c) for c in chunks]
            raise LearnError(
                f"probe {name!r}: streamed in chunks of {cut} it reads {got!r}, one-shot {want!r}",
                probe=name,
            )


def sample_probes(with_tools: bool, with_system: bool) -> list[Probe]:
    """The kit's sample conversations (:func:`tooletta.testing.samples.sample_conversations`:
    everyday chats with calls, results, reasoning and a follow-up) as further probes, with
    ids, each with and without a generation prompt."""
    from ..samples import SAMPLE_TOOLS, sample_conversations

    out = []
    for name, (messages, uses_tools) in sample_conversations(ids=True).items():
        if uses_tools and not with_tools:
            continue
        if not with_system and any(m.role == "system" for m in messages):
            continue
        tools = list(SAMPLE_TOOLS) if uses_tools else []
        for prompt in (False, True):
            label = f"sample {name}" + ("+prompt" if prompt else "")
            out.append(Probe(label, list(messages), tools, prompt, variant=True, optional=True))
    return out


def verify(
    fmt: ChatFormat,
    dialect: Any,
    oracle: Oracle,
    probes: Sequence[Probe],
    switches: Mapping[str, Sequence[Any]],
    deviations: list[str] | None = None,
) -> int:
    """The closed loop over ``probes`` (and each prompt probe under each switch value);
    returns the number of checks passed. A variant probe
    (:attr:`~tooletta.chat.learn.probes.Probe.variant`) that fails
    is the template contradicting itself: refused, or recorded in ``deviations`` when a list
    is given (the learned format keeps the consistent form); so is a sample conversation
    that fails (refused, or recorded when lenient)."""
    checks = 0
    for probe in probes:
        try:
            check_probe(fmt, dialect, oracle, probe)
        except LearnError as exc:
            if not probe.variant:
                raise
            if deviations is None:
                if probe.optional:  # a sample conversation beyond the probes
                    raise LearnError(
                        f"{exc.reason} (a sample conversation the probes pass on: the template "
                        "writes it otherwise; learn(..., lenient=True) keeps the learned form "
                        "and records the difference)",
                        probe=probe.name,
                    ) from None
                raise LearnError(
                    f"{exc.reason} (the template writes this differently than the same turns "
                    "without the added message: it contradicts itself; learn(..., "
                    "lenient=True) keeps the consistent form and records the difference)",
                    probe=probe.name,
                ) from None
            deviations.append(exc.reason)
            continue
        checks += 1
        if probe.prompt:
            for name, values in switches.items():
                for value in values:
                    varied = Probe(
                        f"{probe.name}[{name}={value!r}]",
                        probe.messages,
                        probe.tools,
                        True,
                        {**probe.options, name: value},
                        probe.read,
                    )
                    check_probe(fmt, dialect, oracle, varied)
                    checks += 1
        for m in probe.messages:
            if m.role == "assistant" and m.tool_calls:
                content = m.content if isinstance(m.content, str) else ""
                text = dialect.render(m.tool_calls, content=content)
                check_stream(dialect, text, probe.name)
                checks += 1
    return checks
