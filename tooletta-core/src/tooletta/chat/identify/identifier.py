"""One identification run: the template rendered on the probe suite in each message form worth
trying, the candidates compared with it probe by probe, and the verdict."""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

from ...errors import ToolettaError
from ..jinja import render_jinja
from ..probes import Probe, option_values, probe_suite, read_switches
from ..render import render_text
from .candidates import _Candidate, _candidates
from .difference import _SNIPPET, _near
from .placeholders import _BOS, _EOS, _SENTINELS, _bind, _fill
from .result import Identification, MessageForm, NearMiss
from .source import _dimensions
from .verified import verified_formats

PINNED_TIME = datetime(2026, 11, 25, 23, 59, 59)
"""The time ``strftime_now`` gives while probing (the template and the candidates write the
same date; a template's output never depends on when it was identified)."""
_FORM_PROBES = ("one_call", "parallel_calls", "content_and_call")
"""The probes the call fields of a :class:`MessageForm` are chosen on."""
_MIN_MATCHED = 6
"""Fewer probes than this rendered by the template is too little evidence to name a format."""
_NEAR_KEPT = 8


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


def _pinned(fmt: str) -> str:
    return PINNED_TIME.strftime(fmt)


_Rendered = dict[str, "str | ToolettaError"]


class _Identifier:
    """One identification: the template's renders per form, the candidates' per probe."""

    def __init__(
        self,
        source: str,
        given: Mapping[str, str | None],
        options: Mapping[str, Any],
        digest: str,
        only: _Candidate | None = None,
        plain: str | None = None,
    ) -> None:
        self.source = source
        self.plain = plain if plain is not None else source
        self.scan = source if self.plain == source else f"{source}\n{self.plain}"
        self.digest = digest
        self.options = dict(options)
        self.base = {"strftime_now": _pinned, **options}
        self.tokens = {k: v if v is not None else _SENTINELS[k] for k, v in given.items()}
        self.only = only
        self.candidates = _candidates() if only is None else (only,)
        names = {n for c in self.candidates for n in c.fmt.options} - {"strftime_now"}
        switches = [s for s in read_switches(self.scan, names) if s not in options]
        self.values = option_values(switches, [c.fmt.options for c in self.candidates])
        self.suite = probe_suite(self.values)
        self.renders: dict[tuple[str, tuple[Any, ...]], str | ToolettaError] = {}
        self.shapes: dict[str, tuple[bool, bool, bool]] = {}  # per probe name: _shape
        self.native: dict[tuple[str, str, str], str | ToolettaError] = {}
        self.known = verified_formats(self.source, self.plain)

    def run(self) -> Identification:
        from ..jinja import _compile

        _compile(self.source)  # a template that does not compile is an error, not a verdict
        _compile(self.plain)
        near: dict[str, NearMiss] = {}
        seen: set[tuple[Any, ...]] = set()
        default = MessageForm(  # results folded when the template reads no tool message
            reasoning_key=self.dimensions["reasoning_key"][0],
            tool_results=self.dimensions["tool_results"][-1],
        )
        suite = {p.name: p for p in self.suite}
        if not any(
            isinstance(self._template(suite[n], default), ToolettaError) for n in _FORM_PROBES
        ):  # the likeliest form, which no other form can beat: tried first, alone
            found = self._try(default, near, seen)
            if found is not None:
                return found
        forms = self._forms()
        for form in forms:
            found = self._try(form, near, seen)
            if found is not None:
                return found
        for candidate in self.candidates:
            if candidate.name in self.known:
                found = self._known(candidate, [default, *forms])
                if found is not None:
                    return found
        ordered = sorted(near.values(), key=lambda n: (-n.matched, -n.offset, n.format))
        return Identification(
            format=None,
            dialect=None,
            options=MappingProxyType(self.options),
            matched=(),
            skipped=MappingProxyType(_errors(self._base(forms[0]))),
            near=tuple(ordered[:_NEAR_KEPT]),
            form=forms[0],
            switches=tuple(self.values),
            template_hash=self.digest,
        )

    @functools.cached_property
    def dimensions(self) -> dict[str, list[Any]]:
        """:func:`_dimensions` of the template's source (its regular expressions scan the
        whole source: run once)."""
        return _dimensions(self.scan)

    def _written(self, form: MessageForm) -> tuple[str | None, ...]:
        """The template's renders of :data:`_FORM_PROBES` under ``form`` (``None``: it
        raised)."""
        suite = {p.name: p for p in self.suite}
        got = (self._template(suite[n], form) for n in _FORM_PROBES)
        return tuple(r if isinstance(r, str) else None for r in got)

    def _base(self, form: MessageForm) -> _Rendered:
        """The template's renders of the probes without switches, under ``form``."""
        return {p.name: self._template(p, form) for p in self.suite if not p.options}

    def _try(
        self, form: MessageForm, near: dict[str, NearMiss], seen: set[tuple[Any, ...]]
    ) -> Identification | None:
        """The verdict when a candidate writes every probe as the template does under
        ``form``; else ``None``, with each candidate's near-miss kept in ``near``. The
        switch probes are rendered only for a candidate that got that far."""
        base = self._base(form)
        texts = {n: r for n, r in base.items() if isinstance(r, str)}
        signature = tuple(texts.items())
        if len(texts) < _MIN_MATCHED or signature in seen:
            return None
        seen.add(signature)
        joined = "".join(texts.values())
        winners: list[tuple[_Candidate, dict[str, str], tuple[str, ...]]] = []
        for candidate in self._prefiltered(joined):
            outcome = self._compare(candidate, form)
            if isinstance(outcome, NearMiss):
                known = near.get(candidate.name)
                if known is None or outcome.matched > known.matched:
                    near[candidate.name] = outcome
            else:
                winners.append((candidate, *outcome))
        return self._verdict(winners, form) if winners else None

    def _forms(self) -> list[MessageForm]:
        """The message forms the template takes, the likeliest first. The call fields
        (arguments, a call-only turn's content, ids) are tried together on the probes
        :data:`_FORM_PROBES` (a value the template writes as it writes the first value of
        its field is dropped first), the reasoning key on ``reasoning_last``; only the values under
        which the template raises least are kept (a template that raises on dict arguments
        takes JSON text, never the reverse), and of those that it writes alike, the first;
        then only the forms under which it raises on the fewest probes without switches."""
        dimensions = {name: list(values) for name, values in self.dimensions.items()}
        suite = {p.name: p for p in self.suite}
        call_fields = ("string_arguments", "call_content", "call_ids", "tool_results")
        parts = self._content_parts()
        base = self._pruning_base(MessageForm(content_parts=parts), dimensions, call_fields)
        written_base = self._written(base)
        for field_name in call_fields:  # a field whose other values change nothing: dropped
            first, *others = dimensions[field_name]
            dimensions[field_name] = [first] + [
                v
                for v in others
                if v == getattr(base, field_name)
                or self._written(dataclasses.replace(base, **{field_name: v})) != written_base
            ]
        combos = list(itertools.product(*(dimensions[f] for f in call_fields)))
        failures: list[int] = []
        renders: list[tuple[str | None, ...]] = []
        for combo in combos:
            form = MessageForm(**dict(zip(call_fields, combo)), content_parts=parts)
            got = tuple(self._template(suite[n], form) for n in _FORM_PROBES)
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
                    self._template(
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
        errors = [len(_errors(self._base(f))) for f in forms]
        return [f for f, e in zip(forms, errors) if e == min(errors)]

    def _pruning_base(
        self, default: MessageForm, dimensions: Mapping[str, list[Any]], fields: Sequence[str]
    ) -> MessageForm:
        """The form each call field's other values are compared under (a value the template
        writes there as it writes the form itself changes nothing and is dropped):
        ``default``, or when the template raises under it on a probe of
        :data:`_FORM_PROBES`, the first form differing from it in one field under which it
        raises on the fewest (a template that raises on dict arguments raises alike under
        every other value of the other fields: compared there, they would all be dropped
        and never tried with JSON text)."""
        best, fewest = default, self._written(default).count(None)
        for field_name in fields:
            if not fewest:
                break
            for value in dimensions[field_name][1:]:
                form = dataclasses.replace(default, **{field_name: value})
                failures = self._written(form).count(None)
                if failures < fewest:
                    best, fewest = form, failures
        return best

    def _content_parts(self) -> bool:
        """Whether the template takes every text content as a list of text parts: only when,
        given text, it raises on a probe or drops a message's text, and given parts it
        raises on fewer probes, or on as many and drops fewer texts (a template that reads
        ``content[0]['text']`` fails on text, one that iterates the parts writes nothing)."""
        text = self._base(MessageForm())
        text_errors, text_dropped = len(_errors(text)), self._dropped(text)
        if not text_errors and not text_dropped:
            return False
        form = MessageForm(content_parts=True)
        parts: _Rendered = {}
        parts_errors = 0
        for probe in self.suite:
            if probe.options:
                continue
            parts[probe.name] = rendered = self._template(probe, form)
            parts_errors += isinstance(rendered, ToolettaError)
            if parts_errors > text_errors:  # parts cannot win: the rest is not rendered
                return False
        if parts_errors != text_errors:
            return parts_errors < text_errors
        return self._dropped(parts) < text_dropped

    def _dropped(self, rendered: _Rendered) -> int:
        """How many message texts the renders ``rendered`` (the probes without switches)
        do not hold."""
        suite = {p.name: p for p in self.suite}
        return sum(
            m.content not in text
            for name, text in rendered.items()
            if isinstance(text, str)
            for m in suite[name].messages
            if isinstance(m.content, str)
        )

    def _verdict(
        self,
        winners: Sequence[tuple[_Candidate, dict[str, str], tuple[str, ...]]],
        form: MessageForm,
    ) -> Identification:
        winners = sorted(winners, key=lambda w: w[0].name not in self.known)  # stable
        best, bound, matched = winners[0]
        tokens = {k: v for k, v in self.tokens.items() if v not in _SENTINELS.values()}
        tokens.update(bound)
        rendered = {p.name: self._template(p, form) for p in self.suite}
        return Identification(
            format=best.name,
            dialect=best.dialect.info.name,
            options=MappingProxyType(self.options),
            matched=matched,
            skipped=MappingProxyType(_errors(rendered)),
            near=(),
            also=tuple(c.name for c, _, _ in winners[1:]),
            tokens=MappingProxyType(tokens),
            form=form,
            switches=tuple(s for s in self.values if s in best.fmt.options),
            ignored_switches=tuple(s for s in self.values if s not in best.fmt.options),
            template_hash=self.digest,
            known=best.name in self.known,
            verified_by=self.known.get(best.name, ""),
        )

    def _known(self, candidate: _Candidate, forms: Sequence[MessageForm]) -> Identification | None:
        """The verdict naming ``candidate``, a format a row declares verified against this
        exact template, with the probes it writes otherwise as its differences: under the
        form in which it writes the most probes as the template does; ``None`` when it does
        not write the first probe the template renders so, or fewer than
        :data:`_MIN_MATCHED` probes."""
        best: tuple[MessageForm, dict[str, str], list[str], list[NearMiss]] | None = None
        for form in dict.fromkeys(forms):
            beat = -1 if best is None else len(best[2])
            bound, matched, missed = self._outcomes(candidate, form, stop=False, beat=beat)
            if best is None or len(matched) > len(best[2]):
                best = (form, bound, matched, missed)
        if best is None:
            return None
        form, bound, matched, missed = best
        first = next((p.name for p in self.suite if isinstance(self._template(p, form), str)), "")
        if first not in matched or len(matched) < _MIN_MATCHED:
            return None
        tokens = {k: v for k, v in self.tokens.items() if v not in _SENTINELS.values()}
        tokens.update(bound)
        rendered = {p.name: self._template(p, form) for p in self.suite}
        declared = candidate.fmt.options
        return Identification(
            format=candidate.name,
            dialect=candidate.dialect.info.name,
            options=MappingProxyType(self.options),
            matched=tuple(matched),
            skipped=MappingProxyType(_errors(rendered)),
            near=(),
            tokens=MappingProxyType(tokens),
            form=form,
            switches=tuple(s for s in self.values if s in declared),
            ignored_switches=tuple(s for s in self.values if s not in declared),
            template_hash=self.digest,
            known=True,
            verified_by=self.known[candidate.name],
            differences=tuple(missed),
        )

    def _template(self, probe: Probe, form: MessageForm) -> str | ToolettaError:
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
                    **{**self.base, **probe.options},
                )
            except ToolettaError as exc:
                found = exc
            self.renders[key] = found
        return found

    def _native(
        self, candidate: _Candidate, probe: Probe, form: MessageForm
    ) -> str | ToolettaError:
        key = (candidate.name, probe.name, form.call_ids)
        found = self.native.get(key)
        if found is None:
            try:
                found = render_text(
                    candidate.fmt,
                    candidate.dialect,
                    list(form.messages(probe.messages)),
                    list(probe.tools),
                    probe.add_generation_prompt,
                    {**self.base, **probe.options},
                )
            except ToolettaError as exc:
                found = exc
            except Exception as exc:  # a format's hook failing on a probe: not this template
                found = ToolettaError(f"{type(exc).__name__}: {exc}")
            self.native[key] = found
        return found

    def _prefiltered(self, joined: str) -> list[_Candidate]:
        """The candidates whose markers all occur in the template's renders (its end of turn
        may be the ``eos_token`` placeholder instead)."""
        if self.only is not None:
            return [self.only]
        eos = _EOS in joined
        found: dict[str, bool] = {}  # formats share markers: each one searched for once

        def occurs(marker: str) -> bool:
            got = found.get(marker)
            if got is None:
                got = found[marker] = marker in joined
            return got

        return [
            c
            for c in self.candidates
            if all(occurs(m) or (eos and m == c.fmt.end_of_turn.strip()) for m in c.markers)
        ]

    def _compare(
        self, candidate: _Candidate, form: MessageForm
    ) -> tuple[dict[str, str], tuple[str, ...]] | NearMiss:
        """The tokens bound and the probes compared when ``candidate`` writes every probe
        the template renders under ``form`` as it does (switch probes only for the switches
        it declares), or the first difference."""
        bound, matched, missed = self._outcomes(candidate, form, stop=True)
        return missed[0] if missed else (bound, tuple(matched))

    def _outcomes(
        self, candidate: _Candidate, form: MessageForm, *, stop: bool, beat: int = -1
    ) -> tuple[dict[str, str], list[str], list[NearMiss]]:
        """``candidate`` against the template under ``form``, probe by probe (switch probes
        only for the switches it declares; probes the template raises on skipped): the tokens
        bound, the probes it writes as the template does, and where it differs on the others
        (``stop``: only up to the first difference). ``beat``: a count of probes written
        right that is all that matters to the caller; the comparison ends, with what it has
        so far, as soon as it cannot exceed it (the probes left are not rendered)."""
        bound: dict[str, str] = {}
        matched: list[str] = []
        missed: list[NearMiss] = []
        declared = candidate.fmt.options
        for at, probe in enumerate(self.suite):
            if len(matched) + len(self.suite) - at <= beat:
                break  # even this probe and every one after it written right cannot beat it
            if any(k not in declared for k in probe.options):
                continue
            expected = self._template(probe, form)
            if not isinstance(expected, str):
                continue
            native = self._native(candidate, probe, form)
            if isinstance(native, ToolettaError):
                snippet = expected[:_SNIPPET]
                miss = NearMiss(candidate.name, probe.name, 0, snippet, str(native), len(matched))
            else:
                if _BOS in expected or _EOS in expected:
                    bound_now = _bind(expected, native, bound)
                    if bound_now is not None:
                        bound = bound_now
                        matched.append(probe.name)
                        continue
                    expected = _fill(expected, bound, candidate.fmt)
                if expected == native:
                    matched.append(probe.name)
                    continue
                miss = _near(candidate.name, probe.name, expected, native, len(matched))
            missed.append(miss)
            if stop:
                break
        return bound, matched, missed


def _errors(rendered: Mapping[str, str | ToolettaError]) -> dict[str, str]:
    return {n: str(r) for n, r in rendered.items() if isinstance(r, ToolettaError)}
