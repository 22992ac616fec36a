"""The template's renders of the probe suite, per message form: each probe rendered once per
form that changes its messages."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import ToolettaError
from ..jinja import render_jinja
from ..probes import Probe
from .result import MessageForm

_FORM_PROBES = ("one_call", "parallel_calls", "content_and_call")
"""The probes the call fields of a :class:`MessageForm` are chosen on."""

_Rendered = dict[str, "str | ToolettaError"]


def _shape(probe: Probe) -> tuple[bool, bool, bool]:
    """Whether ``probe``'s messages have calls, a call-only turn and reasoning (what decides
    which parts of a :class:`MessageForm` change them)."""
    calls = any(m.tool_calls for m in probe.messages)
    bare = calls and any(m.tool_calls and m.content == "" for m in probe.messages)
    return calls, bare, any(m.reasoning for m in probe.messages)


def _form_key(shape: tuple[bool, bool, bool], form: MessageForm) -> tuple[Any, ...]:
    """The parts of ``form`` that change what the messages of a probe of ``shape`` (see
    :func:`_shape`) look like."""
    calls, bare, thought = shape
    return (
        form.string_arguments if calls else None,
        form.call_content if bare else "",
        form.reasoning_key if thought else None,
        form.call_ids if calls else None,
        form.content_parts,
        form.tool_results if calls else None,
    )


class _TemplateRenders:
    """The template's renders of ``suite``: ``source`` for the probes that declare tools,
    ``plain`` for the others, with ``tokens`` and the ``variables`` every probe is rendered
    with (its own options over them), cached per probe and per the parts of the message form
    that change its messages."""

    def __init__(
        self,
        source: str,
        plain: str,
        tokens: Mapping[str, str],
        variables: Mapping[str, Any],
        suite: Sequence[Probe],
    ) -> None:
        self.source = source
        self.plain = plain
        self.tokens = tokens
        self.variables = variables
        self.suite = suite
        self.renders: dict[tuple[str, tuple[Any, ...]], str | ToolettaError] = {}
        self.shapes: dict[str, tuple[bool, bool, bool]] = {}  # per probe name: _shape

    def render(self, probe: Probe, form: MessageForm) -> str | ToolettaError:
        """The template's text for ``probe`` under ``form``, or the error it raised."""
        shape = self.shapes.get(probe.name)
        if shape is None:
            shape = self.shapes[probe.name] = _shape(probe)
        key = (probe.name, _form_key(shape, form))
        found = self.renders.get(key)
        if found is None:
            try:
                found = render_jinja(
                    self.source if probe.tools else self.plain,
                    form.messages(probe.messages),
                    tools=list(probe.tools) or None,
                    add_generation_prompt=probe.add_generation_prompt,
                    tokens=self.tokens,
                    **form.jinja_options(),
                    **{**self.variables, **probe.options},
                )
            except ToolettaError as exc:
                found = exc
            self.renders[key] = found
        return found

    def written(self, form: MessageForm) -> tuple[str | None, ...]:
        """The template's renders of :data:`_FORM_PROBES` under ``form`` (``None``: it
        raised)."""
        suite = {p.name: p for p in self.suite}
        got = (self.render(suite[n], form) for n in _FORM_PROBES)
        return tuple(r if isinstance(r, str) else None for r in got)

    def base(self, form: MessageForm) -> _Rendered:
        """The template's renders of the probes without switches, under ``form``."""
        return {p.name: self.render(p, form) for p in self.suite if not p.options}


def _errors(rendered: Mapping[str, str | ToolettaError]) -> dict[str, str]:
    return {n: str(r) for n, r in rendered.items() if isinstance(r, ToolettaError)}
