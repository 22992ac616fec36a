"""Writing a learned format's calls as the JSON objects its template writes.

A ``json`` calls spec (:class:`~tooletta.chat.learn.specschema.JsonCallsSpec`) says how a
template writes each call: ``{"name": ..., "arguments": {...}}`` with its key names, order,
separators and ASCII escaping, between an opening and a closing marker, the calls joined by a
separator. :class:`CallObjects` reads the spec once: every piece of text that does not depend
on the call (markers, quoted keys, separators, braces) is joined ahead, and the two values are
encoded by JSON encoders configured once for the spec (building a ``json.JSONEncoder`` is what
a ``json.dumps`` call with separators pays every time). The text is what ``json.dumps`` writes
with the spec's options, byte for byte.

``msgspec`` is not used: it has neither custom separators nor ``ensure_ascii``, and writes some
values otherwise (``NaN``, floats such as ``1e+16``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from json.encoder import encode_basestring, encode_basestring_ascii
from typing import Any

from ...ir import ToolCall

__all__ = ["CallObjects", "arguments_encoder", "call_object"]


def arguments_encoder(ascii_: bool, separators: tuple[str, str]) -> Callable[[Any], str]:
    """A function writing a value as ``json.dumps(value, ensure_ascii=ascii_,
    separators=separators)`` does, byte for byte.

    ``JSONEncoder.encode`` builds CPython's C encoder again for every value; where the json
    module has that C encoder (``json.encoder.c_make_encoder``), it is built here once, as
    ``JSONEncoder.iterencode`` builds it, but without the reference-cycle bookkeeping (its
    ``markers`` dict, which would be shared across calls and threads): a value holding
    itself raises ``RecursionError`` instead of ``ValueError`` (the API refuses such values
    before, as nested too deeply). Elsewhere: ``JSONEncoder.encode`` of an encoder made once.
    """
    encoder = json.JSONEncoder(ensure_ascii=ascii_, separators=separators)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return encoder.encode
    one_shot = make(
        None,  # markers: no cycle bookkeeping
        encoder.default,
        encode_basestring_ascii if ascii_ else encode_basestring,
        None,  # indent
        encoder.key_separator,
        encoder.item_separator,
        False,  # sort_keys
        False,  # skipkeys
        True,  # allow_nan
    )
    join = "".join

    def encode(value: Any) -> str:
        return join(one_shot(value, 0))

    return encode


class CallObjects:
    """The calls of a ``json`` calls spec as its template writes them (see the module doc).

    Made once per spec (a learned dialect makes it once); later changes to the mapping it
    was made from are not seen.
    """

    __slots__ = (
        "_after",
        "_args",
        "_args_first",
        "_before",
        "_between",
        "_mid",
        "_name",
        "_string",
        "_trailer",
    )

    def __init__(self, spec: Mapping[str, Any], *, markers: bool = True):
        """Read ``spec`` once; ``markers=False``: the objects alone (the marker, ``head``,
        ``tail``, ``between`` and ``trailer`` keys are not read)."""
        ascii_ = bool(spec["ensure_ascii"])
        key_sep, item_sep = str(spec["key_sep"]), str(spec["item_sep"])
        self._args = arguments_encoder(ascii_, tuple(spec["args_separators"]))
        """The arguments as ``json.dumps(arguments, ensure_ascii=..., separators=...)``."""
        self._string: Callable[[str], str] = (
            encode_basestring_ascii if ascii_ else encode_basestring
        )
        """A name (a ``str``) as ``json.dumps(name, ensure_ascii=...)``."""
        self._name: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=ascii_).encode
        """Any other name as ``json.dumps(name, ensure_ascii=...)`` (the API refuses such
        names before: this keeps a direct ``render`` writing what ``json.dumps`` writes)."""
        name_key = json.dumps(spec["name_key"]) + key_sep  # keys: always ASCII-escaped
        args_key = json.dumps(spec["args_key"]) + key_sep
        self._args_first = bool(spec["args_first"])
        first, second = (args_key, name_key) if self._args_first else (name_key, args_key)
        opening = str(spec["open"]) + str(spec["head"]) if markers else ""
        self._before = opening + "{" + first
        """The text before the first value: the opening marker, the head and the first key."""
        self._mid = item_sep + second
        """The text between the two values: the item separator and the second key."""
        self._after = "}" + (str(spec["tail"]) + str(spec["close"]) if markers else "")
        """The text after the second value: the tail and the closing marker."""
        self._between = str(spec["between"]) if markers else ""
        self._trailer = str(spec["trailer"]) if markers else ""

    def block(self, call: ToolCall) -> str:
        """``call`` as its JSON object in the learned markers (with the head and the tail)."""
        name = call.name
        name = self._string(name) if type(name) is str else self._name(name)
        if self._args_first:
            return self._before + self._args(call.arguments) + self._mid + name + self._after
        return self._before + name + self._mid + self._args(call.arguments) + self._after

    def calls(self, calls: Sequence[ToolCall]) -> str:
        """The calls, each in its markers, joined by the learned separator, then the trailer."""
        if len(calls) == 1:
            return self.block(calls[0]) + self._trailer
        block = self.block
        return self._between.join([block(call) for call in calls]) + self._trailer


def call_object(call: ToolCall, spec: Mapping[str, Any]) -> str:
    """One call as the JSON object the template writes (``spec``: the ``json`` dialect spec)."""
    return CallObjects(spec, markers=False).block(call)
