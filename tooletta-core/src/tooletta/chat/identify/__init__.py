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

The package's modules, one job each: :mod:`~tooletta.chat.identify.result` (the verdict and
its parts), :mod:`~tooletta.chat.identify.candidates` (the installed formats compared),
:mod:`~tooletta.chat.identify.verified` (templates known by heart),
:mod:`~tooletta.chat.identify.source` (what the template's source reads),
:mod:`~tooletta.chat.identify.renders` (the template's renders of the probes, per message
form), :mod:`~tooletta.chat.identify.forms` (the message forms it takes),
:mod:`~tooletta.chat.identify.identifier` (one identification run: the candidates compared,
the verdict), :mod:`~tooletta.chat.identify.placeholders` (the unknown special tokens) and
:mod:`~tooletta.chat.identify.difference` (the near-miss report); this one holds the entry
points and the verdict cache.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any

from ..format import ChatFormat
from ..jinja import load_chat_template
from .candidates import _Candidate, _registry_state, known_formats
from .difference import _common_prefix as _common_prefix
from .identifier import PINNED_TIME as PINNED_TIME
from .identifier import _Identifier as _Identifier
from .result import Identification, MessageForm, NearMiss
from .source import _reads_key as _reads_key
from .source import _tool_results as _tool_results
from .verified import verified_formats

__all__ = [
    "Identification",
    "MessageForm",
    "NearMiss",
    "check_format",
    "identify",
    "known_formats",
    "verified_formats",
]

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


def _is_config(template: Any) -> bool:
    """Whether ``template`` is a tokenizer config (a dict, or a path to a ``.json`` file)."""
    if isinstance(template, Mapping):
        return True
    if isinstance(template, str) and ("{" in template or "\n" in template):
        return False
    return isinstance(template, (str, os.PathLike)) and str(template).endswith(".json")


def _options_key(options: Mapping[str, Any]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted((k, repr(v)) for k, v in options.items()))
