"""Which known chat format a model's own Jinja template is: :func:`tooletta.chat.identify`.

The template is rendered on the fixed probe suite (:mod:`tooletta.chat.probes`) and so is
every candidate format; a format is named only when it writes every probe the template
renders byte for byte. Candidates are the installed formats whose role headers and end of
turn occur in the template's renders (a cheap prefilter); the others are never rendered.

What the caller does not say is found by probing, not asked:

* the form messages reach the template in (:class:`MessageForm`): call arguments as a dict
  or as JSON text, the content of a call-only turn as ``""`` or ``None``, reasoning under
  ``reasoning_content``, ``reasoning`` or ``thinking`` (the keys the template's source
  reads), call ids opaque or Kimi's ``functions.NAME:INDEX``, tool results as ``role: tool``
  messages or folded into the assistant message as ``tool_responses`` (tried when the
  template's source reads that key: :mod:`tooletta.chat.toolresponses`);
* the ``bos_token`` and ``eos_token`` the template reads, when not given: the template is
  rendered with a placeholder for each, bound per candidate to the text the format writes
  there (the same text in every probe), and reported in :attr:`tooletta.chat.Identification.tokens`.

**Templates known by heart.** A model row may declare the SHA-256 of the exact template
texts its format is verified against (``template_sha256`` of :class:`tooletta.rows.Model`).
Where a model's own template is wrong (it drops the content beside a call, loses a second
call...), the format writes what a correct template would, so it does not reproduce that
template on every probe. A template whose text has such a digest is still named as the
row's format (:attr:`Identification.known`), and the probes where they part are reported as
the format's documented differences (:attr:`Identification.differences`), not as a
mismatch, provided the format writes the first probe the template renders exactly as the
template does (``plain``, or for a template that needs tools its first probe with tools:
where the special tokens and the turn layout show, which no documented difference concerns;
a template given with other tokens than the format writes is not the verified text's
render) and at least as many probes as any verdict needs. A template edited in one
character has another digest: the probes alone decide, as for any template.

A probe the template raises on is skipped for every candidate (and listed). A tokenizer
config with named templates is read as transformers reads it (``tool_use`` for the probes
that declare tools, ``default`` for the others). Verdicts are cached by the template's hash,
the tokens given, the options and the installed formats.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import itertools
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

import msgspec

from ..errors import ToolettaError
from ..ir import Message, ToolCall
from ..rows import template_digest
from .format import ChatFormat
from .jinja import load_chat_template, render_jinja
from .probes import PROBE_SUITE_VERSION, Probe, option_values, probe_suite, read_switches
from .render import render_text

__all__ = [
    "Identification",
    "MessageForm",
    "NearMiss",
    "check_format",
    "identify",
    "known_formats",
    "verified_formats",
]

PINNED_TIME = datetime(2026, 11, 25, 23, 59, 59)
"""The time ``strftime_now`` gives while probing (the template and the candidates write the
same date; a template's output never depends on when it was identified)."""

_BOS = "\ue000"
_EOS = "\ue001"
_SENTINELS = {"bos_token": _BOS, "eos_token": _EOS}
_FORM_PROBES = ("one_call", "parallel_calls", "content_and_call")
"""The probes the call fields of a :class:`MessageForm` are chosen on."""
_MIN_MATCHED = 6
"""Fewer probes than this rendered by the template is too little evidence to name a format."""
_NEAR_KEPT = 8
_SNIPPET = 40


@dataclass(frozen=True)
class MessageForm:
    """How messages reach the template (see :func:`tooletta.chat.jinja.to_template_messages`):
    call arguments as JSON text (``string_arguments``) or a dict, a call-only turn's
    ``content`` (``""`` or ``None``), the key reasoning goes under, and the calls' ids
    (``call_ids``: ``"opaque"`` such as ``call00001``, or ``"functions"``: Kimi's
    ``functions.NAME:INDEX``, counted over the conversation), whether every text content is
    given as a list of text parts (``content_parts``: templates that read
    ``content[0]['text']``, MiniMax-M1's; tried only when the template raises on text), and
    the tool results (``tool_results``: ``"messages"``, each a ``role: tool`` message, or
    ``"tool_responses"``, folded into the assistant message that made the calls as llama.cpp
    does for Gemma 4: :mod:`tooletta.chat.toolresponses`)."""

    string_arguments: bool = False
    call_content: str | None = ""
    reasoning_key: str = "reasoning_content"
    call_ids: str = "opaque"
    content_parts: bool = False
    tool_results: str = "messages"

    def messages(self, messages: Sequence[Message]) -> tuple[Message, ...]:
        """``messages`` with their calls' ids (and the results' ``tool_call_id``) in this
        form's id style."""
        if self.call_ids == "opaque":
            return tuple(messages)
        renamed: dict[str, str] = {}
        out = []
        for m in messages:
            if m.tool_calls:
                calls = []
                for call in m.tool_calls:
                    new = f"functions.{call.name}:{len(renamed)}"
                    renamed[call.id or new] = new
                    calls.append(ToolCall(call.name, call.arguments, new))
                m = msgspec.structs.replace(m, tool_calls=calls)
            elif m.tool_call_id in renamed:
                m = msgspec.structs.replace(m, tool_call_id=renamed[m.tool_call_id])
            out.append(m)
        return tuple(out)

    def jinja_options(self) -> dict[str, Any]:
        """The keyword arguments :func:`~tooletta.chat.jinja.render_jinja` takes for it."""
        return {
            "string_arguments": self.string_arguments,
            "call_content": self.call_content,
            "reasoning_key": self.reasoning_key,
            "content_parts": self.content_parts,
            "tool_results": self.tool_results,
        }


@dataclass(frozen=True)
class NearMiss:
    """A candidate format that did not reproduce the template: the first probe where it
    differs, the offset of the first differing character, and the text around it in the
    template's render and in the format's (``format_text`` holds the error when the format
    refused the probe). ``matched``: how many probes it wrote right before that one."""

    format: str
    probe: str
    offset: int
    template_text: str
    format_text: str
    matched: int

    def describe(self) -> str:
        """One line: which format, which probe, where, and both texts."""
        return (
            f"{self.format} differs on probe {self.probe!r} at {self.offset}: "
            f"template {self.template_text!r}, format {self.format_text!r}"
        )


@dataclass(frozen=True)
class Identification:
    """The verdict of :func:`tooletta.chat.identify`.

    ``format``: the name of a format that reproduces the template on every probe it renders
    (``render_conversation(dialect=format)`` accepts it), or ``None``. ``dialect``: that
    format's tool-call dialect. ``options``: the options the verdict holds under (the ones
    :func:`tooletta.chat.identify` was given). ``matched``: the probes compared;
    ``skipped``: the probes the template raised on (probe -> the error). ``near``:
    near-misses, closest first.
    ``also``: other formats that reproduce it as well. ``tokens``: the ``bos_token`` /
    ``eos_token`` the template reads (given, or bound to what the format writes there).
    ``form``: the message form the template takes. ``switches``: the option names the
    template reads that were probed and that the format declares; ``ignored_switches``: the
    ones the template reads and the format does not declare (the verdict holds with them
    unset: rendering with one of them set needs the template). ``suite_version``:
    :data:`~tooletta.chat.probes.PROBE_SUITE_VERSION`.

    ``known``: the template's exact text is one a model row declares its format verified
    against (``template_sha256`` of :class:`tooletta.rows.Model`; see the module docs), and
    ``verified_by`` names that row (plugin, pattern, fixture and source). ``differences``:
    for a known template, the probes where the format writes what a correct template would
    and the template does not (each as a :class:`NearMiss`, in suite order): the format's
    documented differences, not a mismatch (``matched`` then lists the other probes).
    """

    format: str | None
    dialect: str | None
    options: Mapping[str, Any]
    matched: tuple[str, ...]
    skipped: Mapping[str, str]
    near: tuple[NearMiss, ...]
    also: tuple[str, ...] = ()
    tokens: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    form: MessageForm = MessageForm()
    switches: tuple[str, ...] = ()
    ignored_switches: tuple[str, ...] = ()
    template_hash: str = ""
    suite_version: int = PROBE_SUITE_VERSION
    known: bool = False
    verified_by: str = ""
    differences: tuple[NearMiss, ...] = ()

    def __bool__(self) -> bool:
        """Whether a format was identified."""
        return self.format is not None

    def first_difference(self) -> str:
        """The closest near-miss as one line (``""`` when there is none)."""
        return self.near[0].describe() if self.near else ""


_CACHE: dict[tuple[Any, ...], Identification] = {}
_CACHE_SIZE = 128


def identify(
    template: Any,
    *,
    bos_token: str | None = None,
    eos_token: str | None = None,
    **options: Any,
) -> Identification:
    """Which known format reproduces ``template`` byte for byte on the probe suite.

    ``template``: Jinja text, a path to a ``chat_template.jinja`` or ``tokenizer_config.json``,
    or that config as a dict (its ``bos_token``/``eos_token`` are read). ``bos_token`` /
    ``eos_token``: the special tokens the template reads (not given: found per candidate,
    see the module docs). ``options``: template switches every probe is rendered with.
    Raises :class:`~tooletta.ToolettaError` when the template cannot be read or compiled
    (rendering needs jinja2).
    """
    return _cached(template, bos_token, eos_token, options, None)


def check_format(
    template: Any,
    fmt: ChatFormat,
    dialect: Any,
    *,
    bos_token: str | None = None,
    eos_token: str | None = None,
    **options: Any,
) -> Identification:
    """:func:`tooletta.chat.identify` with one candidate, ``fmt`` (writing calls with
    ``dialect``), and no prefilter: its ``format`` is ``fmt.name`` when ``fmt`` reproduces
    ``template`` on the probe suite, else ``None`` with ``fmt``'s first difference in
    ``near`` (the check behind :class:`~tooletta.TemplateMismatchError`)."""
    only = _Candidate(fmt.name, fmt, dialect, ())
    return _cached(template, bos_token, eos_token, options, only)


def _cached(
    template: Any,
    bos_token: str | None,
    eos_token: str | None,
    options: Mapping[str, Any],
    only: _Candidate | None,
) -> Identification:
    """The verdict on ``template``, from the cache or computed. A tokenizer config with named
    templates is read as transformers reads it: its ``tool_use`` template renders the probes
    that declare tools, its ``default`` one the others."""
    text, tokens = load_chat_template(template, tools=True)
    plain = load_chat_template(template, tools=False)[0] if _is_config(template) else text
    given = {
        "bos_token": bos_token if bos_token is not None else tokens.get("bos_token"),
        "eos_token": eos_token if eos_token is not None else tokens.get("eos_token"),
    }
    both = text if plain == text else f"{text}\0{plain}"
    digest = hashlib.sha256(both.encode("utf-8", "surrogatepass")).hexdigest()
    key: tuple[Any, ...] = (digest, given["bos_token"], given["eos_token"], _options_key(options))
    key += _registry_state()  # a format registered since (a plugin, a learned one) may fit
    if only is not None:
        key += (type(only.fmt),)
    found = _CACHE.get(key)
    if found is None:
        found = _Identifier(text, given, options, digest, only, plain).run()
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = found
    return found


def _registry_state() -> tuple[int, int, int]:
    from ..plugins import get_registry

    registry = get_registry()
    return id(registry), len(registry.entries), len(registry.models)


def verified_formats(*texts: str) -> dict[str, str]:
    """The formats some model row declares verified against every one of ``texts`` (the
    exact template texts, see :func:`tooletta.rows.template_digest`): format name -> the
    row(s) saying so (plugin, pattern, fixture, source), first-party rows first."""
    from ..plugins import get_registry

    wanted = {template_digest(t) for t in texts}
    digests: dict[str, set[str]] = {}
    rows: dict[str, list[str]] = {}
    for entry in get_registry().models:
        row = entry.row
        name = row.chat_name
        if name is None or not row.template_sha256:
            continue
        digests.setdefault(name, set()).update(row.template_sha256)
        if wanted & set(row.template_sha256):
            rows.setdefault(name, []).append(
                f"plugin {entry.plugin!r} row {row.patterns[0]!r} ({row.template}"
                + (f"; {row.source}" if row.source else "")
                + ")"
            )
    return {n: "; ".join(rows[n]) for n, d in digests.items() if wanted <= d and n in rows}


def _is_config(template: Any) -> bool:
    """Whether ``template`` is a tokenizer config (a dict, or a path to a ``.json`` file)."""
    if isinstance(template, Mapping):
        return True
    if isinstance(template, str) and ("{" in template or "\n" in template):
        return False
    return isinstance(template, (str, os.PathLike)) and str(template).endswith(".json")


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in options.items()))


@dataclass(frozen=True)
class _Candidate:
    name: str
    fmt: ChatFormat
    dialect: Any
    markers: tuple[str, ...]


_FORMATS: dict[tuple[int, int, int], tuple[_Candidate, ...]] = {}


def known_formats() -> tuple[tuple[str, ChatFormat, Any], ...]:
    """Every installed chat format that ``render_conversation(dialect=name)`` resolves to
    itself: ``(name, format, dialect object)``, in the registry's order."""
    return tuple((c.name, c.fmt, c.dialect) for c in _candidates())


def _candidates() -> tuple[_Candidate, ...]:
    from ..plugins import get_registry
    from .lookup import chat_formats_of, resolve_format

    key = _registry_state()
    cached = _FORMATS.get(key)
    if cached is not None:
        return cached
    out: list[_Candidate] = []
    seen: set[type] = set()
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            if type(fmt) in seen:
                continue
            seen.add(type(fmt))
            try:
                resolved, obj = resolve_format(None, fmt.name)
            except ToolettaError:
                continue
            if not isinstance(resolved, type(fmt)):  # a third party's comes back guarded
                continue  # the name means something else: never answer it
            out.append(_Candidate(fmt.name, resolved, obj, _markers(resolved)))
    _FORMATS.clear()
    _FORMATS[key] = tuple(out)
    return _FORMATS[key]


def _markers(fmt: ChatFormat) -> tuple[str, ...]:
    """The fixed text a template of this format writes: its user and assistant headers and
    its end of turn (stripped); all must occur in the template's renders."""
    turns = getattr(fmt, "turns", {})
    found = [turns[r].header.strip() for r in ("user", "assistant") if r in turns]
    found.append(fmt.end_of_turn.strip())
    return tuple(m for m in found if m)


def _reasoning_keys(source: str) -> list[str]:
    keys = [k for k in ("reasoning_content", "reasoning", "thinking") if _reads_key(source, k)]
    return keys or ["reasoning_content"]


def _reads_key(source: str, key: str) -> bool:
    """Whether ``source`` reads ``key`` (a word) of a value: ``.key`` or ``['key`` (spaces
    allowed after the bracket, either quote), the key not running on into a longer word:
    ``re.search(r"(?:\\.|\\[\\s*['\"])key\\b")``, each occurrence of the key found by
    ``str.find`` (the regular expression scans the whole source character by character)."""
    at = source.find(key)
    while at >= 0:
        if not _WORD_CHAR.match(source, at + len(key)) and _reads_before(source, at):
            return True
        at = source.find(key, at + 1)
    return False


def _reads_before(source: str, at: int) -> bool:
    """Whether the text before ``at`` ends with ``.`` or with ``[``, spaces and a quote."""
    if at == 0:
        return False
    if source[at - 1] == ".":
        return True
    if source[at - 1] not in "'\"":
        return False
    before = at - 2
    while before >= 0 and source[before].isspace():
        before -= 1
    return before >= 0 and source[before] == "["


_WORD_CHAR = re.compile(r"\w")


def _dimensions(source: str) -> dict[str, list[Any]]:
    """Each field of :class:`MessageForm` and the values to try for it, the likeliest
    first (pruned by what the template's source reads)."""
    return {
        "string_arguments": [False, True],
        "call_content": ["", None] if re.search(r"\bnone\b", source, re.IGNORECASE) else [""],
        "reasoning_key": _reasoning_keys(source),
        "call_ids": ["opaque", "functions"],
        "tool_results": _tool_results(source),
    }


def _tool_results(source: str) -> list[str]:
    """The tool-result forms to try: ``role: tool`` messages, and results on the assistant
    message when the template's source reads ``tool_responses`` and never tests a message's
    role against ``tool`` (one that does reads the results as messages already: Gemma 4's
    official template reads both)."""
    from .toolresponses import TOOL_RESPONSES

    reads = _reads_key(source, TOOL_RESPONSES)
    return ["messages", TOOL_RESPONSES] if reads and not _ROLE_TOOL.search(source) else ["messages"]


_ROLE_TOOL = re.compile(r"""role['"]?\]?\s*[!=]=\s*['"]tool['"]|['"]tool['"]\s*[!=]=""")
"""A test of a message's role against ``tool`` in a template's source."""


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
        from .jinja import _compile

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
                    string_arguments=form.string_arguments,
                    call_content=form.call_content,
                    reasoning_key=form.reasoning_key,
                    content_parts=form.content_parts,
                    tool_results=form.tool_results,
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


_KEYS = {_BOS: "bos_token", _EOS: "eos_token"}


def _bind(expected: str, native: str, bound: Mapping[str, str]) -> dict[str, str] | None:
    """The placeholder bindings (extending ``bound``) under which ``expected`` is
    ``native``, or ``None``."""
    for key, value in bound.items():
        expected = expected.replace(_SENTINELS[key], value)
    if _BOS not in expected and _EOS not in expected:
        return dict(bound) if expected == native else None
    parts = re.split(f"([{_BOS}{_EOS}])", expected)
    pattern = []
    opened: dict[str, None] = {}  # in the order they occur (a set's order varies by run)
    for part in parts:
        if part in _KEYS:
            group = _KEYS[part]
            pattern.append(f"(?P={group})" if group in opened else f"(?P<{group}>[^\\n]{{0,64}}?)")
            opened[group] = None
        elif part:
            pattern.append(re.escape(part))
    match = re.fullmatch("".join(pattern), native, re.DOTALL)
    if match is None:
        return None
    return {**bound, **{g: match.group(g) for g in opened}}


def _fill(expected: str, bound: Mapping[str, str], fmt: ChatFormat) -> str:
    """``expected`` with its placeholders filled (bound, or the format's own tokens), to show
    where it differs."""
    guesses = {"bos_token": fmt.bos, "eos_token": fmt.end_of_turn, **bound}
    for key, sentinel in _SENTINELS.items():
        expected = expected.replace(sentinel, guesses[key])
    return expected


def _near(name: str, probe: str, expected: str, native: str, matched: int) -> NearMiss:
    at = _common_prefix(expected, native)
    start = max(0, at - _SNIPPET // 2)
    return NearMiss(
        name,
        probe,
        at,
        expected[start : at + _SNIPPET],
        native[start : at + _SNIPPET],
        matched,
    )


def _common_prefix(a: str, b: str) -> int:
    """The length of the longest common prefix of ``a`` and ``b``: the offset of their first
    differing character, or the shorter one's length (a binary search comparing slices, not
    a loop over the characters: renders share thousands of characters before they part)."""
    low, high = 0, min(len(a), len(b))  # a[:low] == b[:low]; the prefix is at most high
    while low < high:
        middle = (low + high + 1) // 2
        if a[low:middle] == b[low:middle]:
            low = middle
        else:
            high = middle - 1
    return low
