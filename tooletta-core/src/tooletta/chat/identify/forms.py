"""The message forms a template takes (:class:`~tooletta.chat.MessageForm`), found by
rendering it on the probes that tell them apart, the likeliest first."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import ToolettaError
from .renders import _FORM_PROBES, _errors, _Rendered, _TemplateRenders
from .result import MessageForm


def _forms(template: _TemplateRenders, dimensions: Mapping[str, list[Any]]) -> list[MessageForm]:
    """The message forms the template takes, the likeliest first. The call fields
    (arguments, a call-only turn's content, ids) are tried together on the probes
    :data:`_FORM_PROBES` (a value the template writes as it writes the first value of
    its field is dropped first), the reasoning key on ``reasoning_last``; only the values under
    which the template raises least are kept (a template that raises on dict arguments
    takes JSON text, never the reverse), and of those that it writes alike, the first;
    then only the forms under which it raises on the fewest probes without switches."""
    dimensions = {name: list(values) for name, values in dimensions.items()}
    suite = {p.name: p for p in template.suite}
    call_fields = ("string_arguments", "call_content", "call_ids", "tool_results")
    parts = _content_parts(template)
    base = _pruning_base(template, MessageForm(content_parts=parts), dimensions, call_fields)
    written_base = template.written(base)
    for field_name in call_fields:  # a field whose other values change nothing: dropped
        first, *others = dimensions[field_name]
        dimensions[field_name] = [first] + [
            v
            for v in others
            if v == getattr(base, field_name)
            or template.written(dataclasses.replace(base, **{field_name: v})) != written_base
        ]
    combos = list(itertools.product(*(dimensions[f] for f in call_fields)))
    failures: list[int] = []
    renders: list[tuple[str | None, ...]] = []
    for combo in combos:
        form = MessageForm(**dict(zip(call_fields, combo)), content_parts=parts)
        got = tuple(template.render(suite[n], form) for n in _FORM_PROBES)
        failures.append(sum(isinstance(r, ToolettaError) for r in got))
        renders.append(tuple(r if isinstance(r, str) else None for r in got))
    calls: list[tuple[Any, ...]] = []
    written: set[tuple[str | None, ...]] = set()
    for combo, fails, render in zip(combos, failures, renders):
        if fails == min(failures) and render not in written:  # a form the template
            written.add(render)  # writes as an earlier one is not tried again
            calls.append(combo)
    keys = dimensions["reasoning_key"]
    if len(keys) > 1:
        raised = [
            isinstance(
                template.render(
                    suite["reasoning_last"], MessageForm(reasoning_key=k, content_parts=parts)
                ),
                ToolettaError,
            )
            for k in keys
        ]
        keys = [k for k, r in zip(keys, raised) if r == min(raised)]
    forms = [
        MessageForm(**dict(zip(call_fields, combo)), reasoning_key=key, content_parts=parts)
        for combo, key in itertools.product(calls, keys)
    ]
    errors = [len(_errors(template.base(f))) for f in forms]
    return [f for f, e in zip(forms, errors) if e == min(errors)]


def _pruning_base(
    template: _TemplateRenders,
    default: MessageForm,
    dimensions: Mapping[str, list[Any]],
    fields: Sequence[str],
) -> MessageForm:
    """The form each call field's other values are compared under (a value the template
    writes there as it writes the form itself changes nothing and is dropped):
    ``default``, or when the template raises under it on a probe of
    :data:`_FORM_PROBES`, the first form differing from it in one field under which it
    raises on the fewest (a template that raises on dict arguments raises alike under
    every other value of the other fields: compared there, they would all be dropped
    and never tried with JSON text)."""
    best, fewest = default, template.written(default).count(None)
    for field_name in fields:
        if not fewest:
            break
        for value in dimensions[field_name][1:]:
            form = dataclasses.replace(default, **{field_name: value})
            failures = template.written(form).count(None)
            if failures < fewest:
                best, fewest = form, failures
    return best


def _content_parts(template: _TemplateRenders) -> bool:
    """Whether the template takes every text content as a list of text parts: only when,
    given text, it raises on a probe or drops a message's text, and given parts it
    raises on fewer probes, or on as many and drops fewer texts (a template that reads
    ``content[0]['text']`` fails on text, one that iterates the parts writes nothing)."""
    text = template.base(MessageForm())
    text_errors, text_dropped = len(_errors(text)), _dropped(template, text)
    if not text_errors and not text_dropped:
        return False
    form = MessageForm(content_parts=True)
    parts: _Rendered = {}
    parts_errors = 0
    for probe in template.suite:
        if probe.options:
            continue
        parts[probe.name] = rendered = template.render(probe, form)
        parts_errors += isinstance(rendered, ToolettaError)
        if parts_errors > text_errors:  # parts cannot win: the rest is not rendered
            return False
    if parts_errors != text_errors:
        return parts_errors < text_errors
    return _dropped(template, parts) < text_dropped


def _dropped(template: _TemplateRenders, rendered: _Rendered) -> int:
    """How many message texts the renders ``rendered`` (the probes without switches)
    do not hold."""
    suite = {p.name: p for p in template.suite}
    return sum(
        m.content not in text
        for name, text in rendered.items()
        if isinstance(text, str)
        for m in suite[name].messages
        if isinstance(m.content, str)
    )
