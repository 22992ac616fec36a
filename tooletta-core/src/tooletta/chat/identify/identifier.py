"""One identification run: the template rendered on the probe suite in each message form worth
trying, the candidates compared with it probe by probe, and the verdict."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from datetime import datetime
from types import MappingProxyType
from typing import Any

import msgspec

from ...errors import ToolettaError
from ..notools import writes_tools
from ..probes import Probe, option_values, probe_suite, read_switches
from ..render import render_text
from .candidates import _Candidate, _candidates
from .difference import _SNIPPET, _near
from .forms import _forms
from .placeholders import _BOS, _EOS, _SENTINELS, _bind, _fill
from .renders import _FORM_PROBES, _errors, _TemplateRenders
from .result import Identification, MessageForm, NearMiss
from .source import _dimensions
from .verified import verified_formats

PINNED_TIME = datetime(2026, 11, 25, 23, 59, 59)
"""The time ``strftime_now`` gives while probing (the template and the candidates write the
same date; a template's output never depends on when it was identified)."""
_MIN_MATCHED = 6
"""Fewer probes than this rendered by the template is too little evidence to name a format."""
_NEAR_KEPT = 8


def _pinned(fmt: str) -> str:
    return PINNED_TIME.strftime(fmt)


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
        self.template = _TemplateRenders(
            self.source, self.plain, self.tokens, self.base, self.suite
        )
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
            isinstance(self.template.render(suite[n], default), ToolettaError) for n in _FORM_PROBES
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
            skipped=MappingProxyType(_errors(self.template.base(forms[0]))),
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

    def _forms(self) -> list[MessageForm]:
        """The message forms the template takes, the likeliest first
        (:func:`~tooletta.chat.identify.forms._forms` of its renders)."""
        return _forms(self.template, self.dimensions)

    def _try(
        self, form: MessageForm, near: dict[str, NearMiss], seen: set[tuple[Any, ...]]
    ) -> Identification | None:
        """The verdict when a candidate writes every probe as the template does under
        ``form``; else ``None``, with each candidate's near-miss kept in ``near``. The
        switch probes are rendered only for a candidate that got that far."""
        base = self.template.base(form)
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

    def _verdict(
        self,
        winners: Sequence[tuple[_Candidate, dict[str, str], tuple[str, ...]]],
        form: MessageForm,
    ) -> Identification:
        winners = sorted(winners, key=lambda w: w[0].name not in self.known)  # stable
        best, bound, matched = winners[0]
        tokens = {k: v for k, v in self.tokens.items() if v not in _SENTINELS.values()}
        tokens.update(bound)
        rendered = {p.name: self.template.render(p, form) for p in self.suite}
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
        first = next(
            (p.name for p in self.suite if isinstance(self.template.render(p, form), str)), ""
        )
        if first not in matched or len(matched) < _MIN_MATCHED:
            return None
        tokens = {k: v for k, v in self.tokens.items() if v not in _SENTINELS.values()}
        tokens.update(bound)
        rendered = {p.name: self.template.render(p, form) for p in self.suite}
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

    def _tools_written(
        self, candidate: _Candidate, probe: Probe, form: MessageForm, expected: str, matched: int
    ) -> NearMiss | None:
        """Where the template's render of ``probe`` (``expected``), a probe with tools, parts
        from its render of the probe without them (no tools declared, no calls, no results:
        :func:`_without_tools`), for a ``candidate`` that writes no tools (it refuses the
        probe); ``None`` when they are the same text (the template writes none of them
        either: it ignores the declarations and drops the calls)."""
        bare = self.template.render(_without_tools(probe), form)
        if isinstance(bare, ToolettaError):
            snippet = expected[:_SNIPPET]
            return NearMiss(candidate.name, probe.name, 0, snippet, str(bare), matched)
        if bare == expected:
            return None
        return _near(candidate.name, probe.name, expected, bare, matched)

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
        tool_free = not writes_tools(candidate.fmt)
        for at, probe in enumerate(self.suite):
            if len(matched) + len(self.suite) - at <= beat:
                break  # even this probe and every one after it written right cannot beat it
            if any(k not in declared for k in probe.options):
                continue
            expected = self.template.render(probe, form)
            if not isinstance(expected, str):
                continue
            if tool_free and _with_tools(probe):  # the format refuses it: the template
                miss = self._tools_written(candidate, probe, form, expected, len(matched))
                if miss is None:  # must write none of its tools either
                    continue
                missed.append(miss)
                if stop:
                    break
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


def _with_tools(probe: Probe) -> bool:
    """Whether ``probe`` declares tools or holds calls or tool results."""
    return bool(probe.tools) or any(m.tool_calls or m.role == "tool" for m in probe.messages)


def _without_tools(probe: Probe) -> Probe:
    """``probe`` without its tools: no declarations, the tool results left out, the calls
    taken off their turns (a turn keeps its content); a distinct name, so that its render is
    cached apart."""
    messages = tuple(
        msgspec.structs.replace(m, tool_calls=[]) if m.tool_calls else m
        for m in probe.messages
        if m.role != "tool"
    )
    return Probe(
        f"{probe.name} (no tools)",
        messages,
        (),
        probe.add_generation_prompt,
        probe.options,
    )
