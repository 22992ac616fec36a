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
from typing import Any

from ...ir import ToolCall

__all__ = ["CallObjects", "call_object"]


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
        "_trailer",
    )

    def __init__(self, spec: Mapping[str, Any], *, markers: bool = True):
        """Read ``spec`` once; ``markers=False``: the objects alone (the marker, ``head``,
        ``tail``, ``between`` and ``trailer`` keys are not read)."""
        ascii_ = bool(spec["ensure_ascii"])
        key_sep, item_sep = str(spec["key_sep"]), str(spec["item_sep"])
        self._args: Callable[[Any], str] = json.JSONEncoder(
            ensure_ascii=ascii_, separators=tuple(spec["args_separators"])
        ).encode
        """The arguments as ``json.dumps(arguments, ensure_ascii=..., separators=...)``."""
        self._name: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=ascii_).encode
        """The name as ``json.dumps(name, ensure_ascii=...)``."""
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
        if self._args_first:
            return (
                self._before
                + self._args(call.arguments)
                + self._mid
                + self._name(call.name)
                + self._after
            )
        return (
            self._before
            + self._name(call.name)
            + self._mid
            + self._args(call.arguments)
            + self._after
        )

    def calls(self, calls: Sequence[ToolCall]) -> str:
        """The calls, each in its markers, joined by the learned separator, then the trailer."""
        if len(calls) == 1:
            return self.block(calls[0]) + self._trailer
        block = self.block
        return self._between.join([block(call) for call in calls]) + self._trailer


def call_object(call: ToolCall, spec: Mapping[str, Any]) -> str:
    """One call as the JSON object the template writes (``spec``: the ``json`` dialect spec)."""
    return CallObjects(spec, markers=False).block(call)
