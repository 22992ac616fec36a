"""Assemble an OpenAI Responses stream (server-sent events) into the final response.

Items are announced by ``response.output_item.added`` and filled by deltas (message text,
reasoning text and summaries, refusals, call arguments); ``*.done`` events carry each finished
value and ``response.output_item.done`` the finished item, which wins over what the deltas
added up to. ``response.completed`` (or ``.incomplete`` / ``.failed``) ends the stream; its
``output`` is used when it holds the items, else the items assembled here are. Events the
assembler has no use for (built-in tools' progress, ``keepalive``...) are skipped.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

from ..shapes._util import as_dict

__all__ = ["ResponsesStreamAssembler", "assemble_responses_events"]

_LIFECYCLE = frozenset({"response.created", "response.queued", "response.in_progress"})
_FINAL = frozenset({"response.completed", "response.incomplete", "response.failed"})
_TEXT_DELTAS = {
    "response.output_text.delta": ("content", "text"),
    "response.reasoning_text.delta": ("content", "text"),
    "response.refusal.delta": ("content", "refusal"),
    "response.reasoning_summary_text.delta": ("summary", "text"),
}
_TEXT_DONE = {
    "response.output_text.done": ("content", "text", "text"),
    "response.reasoning_text.done": ("content", "text", "text"),
    "response.refusal.done": ("content", "refusal", "refusal"),
    "response.reasoning_summary_text.done": ("summary", "text", "text"),
}


class ResponsesStreamAssembler:
    """Feed Responses stream events one by one; :attr:`response` is the response so far.

    Events are dicts or SDK event objects (read through ``model_dump``). An ``error`` event,
    or a delta for an item that was never announced, raises ``ValueError``.
    """

    def __init__(self) -> None:
        self.response: dict[str, Any] = {"object": "response", "output": []}
        """The response so far (the whole response once the stream has ended)."""
        self._items: dict[int, dict[str, Any]] = {}

    def feed(self, event: Any) -> None:
        """Apply one event."""
        ev = as_dict(event, "stream event")
        try:
            self._apply(ev, ev.get("type"))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed {ev.get('type')!r} event: {exc!r}") from None

    def _apply(self, ev: dict[str, Any], kind: Any) -> None:
        if kind in _LIFECYCLE or kind in _FINAL:
            response = copy.deepcopy(as_dict(ev.get("response") or {}, "response"))
            if kind in _FINAL and response.get("output"):
                self.response = response
                return
            response["output"] = self._output()
            self.response = response
        elif kind == "response.output_item.added" or kind == "response.output_item.done":
            self._items[ev["output_index"]] = copy.deepcopy(as_dict(ev["item"], "item"))
            self.response["output"] = self._output()
        elif kind == "response.content_part.added" or kind == "response.content_part.done":
            self._part(ev, "content", ev["content_index"], as_dict(ev["part"], "part"))
        elif kind == "response.reasoning_summary_part.added":
            self._part(ev, "summary", ev["summary_index"], as_dict(ev["part"], "part"))
        elif kind in _TEXT_DELTAS:
            where, key = _TEXT_DELTAS[kind]
            part = self._get_part(ev, where, key)
            part[key] = (part.get(key) or "") + ev["delta"]
        elif kind in _TEXT_DONE:
            where, key, field = _TEXT_DONE[kind]
            self._get_part(ev, where, key)[key] = ev[field]
        elif kind == "response.function_call_arguments.delta":
            item = self._item(ev)
            item["arguments"] = (item.get("arguments") or "") + ev["delta"]
        elif kind == "response.function_call_arguments.done":
            self._item(ev)["arguments"] = ev["arguments"]
        elif kind == "error":
            raise ValueError(f"stream error: {ev.get('message') or ev.get('error')}")

    def _output(self) -> list[dict[str, Any]]:
        return [self._items[i] for i in sorted(self._items)]

    def _item(self, ev: dict[str, Any]) -> dict[str, Any]:
        item = self._items.get(ev.get("output_index", -1))
        if item is None:
            raise ValueError(
                f"{ev.get('type')} for output item {ev.get('output_index')}, "
                "which was never announced"
            )
        return item

    def _part(self, ev: dict[str, Any], where: str, index: int, part: dict[str, Any]) -> None:
        parts = self._item(ev).get(where)
        if not isinstance(parts, list):
            parts = self._item(ev)[where] = []
        if not isinstance(index, int) or not 0 <= index <= len(parts):
            raise ValueError(f"{ev.get('type')}: part {index!r} out of order")
        if index == len(parts):
            parts.append(copy.deepcopy(part))
        else:
            parts[index] = copy.deepcopy(part)

    def _get_part(self, ev: dict[str, Any], where: str, key: str) -> dict[str, Any]:
        index = ev.get("summary_index" if where == "summary" else "content_index", 0)
        if not isinstance(index, int) or index < 0:
            raise ValueError(f"{ev.get('type')}: bad part index {index!r}")
        item = self._item(ev)
        parts = item.get(where)
        if not isinstance(parts, list) or index >= len(parts) or not parts[index]:
            self._part(ev, where, index, {"type": _part_kind(item, where, key), key: ""})
            parts = item[where]
        part = parts[index]
        if not isinstance(part, dict):
            raise ValueError(f"{ev.get('type')}: part {index} is not an object")
        return part


def _part_kind(item: dict[str, Any], where: str, key: str) -> str:
    """The type of a part a delta arrives for before its ``content_part.added``."""
    if where == "summary":
        return "summary_text"
    if item.get("type") == "reasoning":
        return "reasoning_text"
    return "refusal" if key == "refusal" else "output_text"


def assemble_responses_events(events: Iterable[Any]) -> dict[str, Any]:
    """The final response of a whole stream of events; read its items with
    :func:`~tooletta.interop.read_messages` (``response["output"]``)."""
    assembler = ResponsesStreamAssembler()
    for event in events:
        assembler.feed(event)
    return assembler.response
