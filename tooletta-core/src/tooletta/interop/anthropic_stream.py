"""Assemble an Anthropic Messages stream (server-sent events) into the final message.

Text arrives as ``text_delta`` fragments and tool inputs as ``input_json_delta`` fragments
(``partial_json``) that are concatenated and decoded when the block stops (ECOSYSTEM.md §6).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Any

import msgspec

from ..engine.jsonread import decode_bounded
from ..engine.reader import BlockError
from ..shapes._util import as_dict, without_none

__all__ = ["AnthropicStreamAssembler", "assemble_anthropic_events"]

_ALWAYS_SET = frozenset({"stop_reason", "stop_sequence", "stop_details"})
"""``message_delta`` fields set even to ``None`` (as the SDK does); others only when given."""


class AnthropicStreamAssembler:
    """Feed Anthropic stream events one by one; :attr:`.message` is the message so far.

    Events are dicts or SDK event objects: ``message_start``, ``content_block_start``,
    ``content_block_delta`` (``text_delta``, ``input_json_delta``, ``thinking_delta``,
    ``signature_delta``, ``citations_delta``), ``content_block_stop``, ``message_delta``,
    ``message_stop`` and ``ping``. An ``error`` event, or a tool input that is not a JSON
    object when its block stops, raises ``ValueError``. As in the SDK, a ``message_delta``'s
    usage updates the totals only with the counts it gives, so SDK objects (whose dumps hold
    ``None`` for every count not sent) assemble like the wire's JSON.
    """

    def __init__(self) -> None:
        self.message: dict[str, Any] = {"role": "assistant", "content": []}
        """The message so far (the whole message once the stream has ended)."""
        self._json: dict[int, list[str]] = {}

    def feed(self, event: Any) -> None:
        """Apply one event (a malformed one raises ``ValueError``)."""
        ev = as_dict(event, "stream event")
        try:
            self._apply(ev, ev.get("type"))
        except (KeyError, IndexError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed {ev.get('type')!r} event: {exc!r}") from None

    def _apply(self, ev: dict[str, Any], kind: Any) -> None:
        if kind == "message_start":
            self.message = copy.deepcopy(as_dict(ev["message"], "message"))
            self.message.setdefault("content", [])
        elif kind == "content_block_start":
            self._start(ev["index"], copy.deepcopy(as_dict(ev["content_block"], "block")))
        elif kind == "content_block_delta":
            self._delta(ev["index"], as_dict(ev["delta"], "delta"))
        elif kind == "content_block_stop":
            self._stop(ev["index"])
        elif kind == "message_delta":
            delta = as_dict(ev.get("delta") or {}, "delta")
            for key, value in delta.items():
                if value is not None or key in _ALWAYS_SET:
                    self.message[key] = value
            if ev.get("usage") is not None:
                usage = self.message.get("usage")
                if not isinstance(usage, dict):
                    usage = self.message["usage"] = {}
                # totals so far: a None (an SDK dump's unset field) keeps message_start's value
                usage.update(without_none(as_dict(ev["usage"], "usage")))
        elif kind == "error":
            raise ValueError(f"stream error: {ev.get('error')}")
        # message_stop and ping carry nothing to keep

    def _start(self, index: int, block: dict[str, Any]) -> None:
        blocks = self.message["content"]
        if not isinstance(index, int) or not 0 <= index <= len(blocks):
            raise ValueError(f"content block {index!r} starts out of order")
        if index == len(blocks):
            blocks.append(block)
        else:
            blocks[index] = block
        if block.get("type") in ("tool_use", "server_tool_use"):
            self._json[index] = []

    def _delta(self, index: int, delta: dict[str, Any]) -> None:
        block = self.message["content"][index]
        kind = delta.get("type")
        if kind == "text_delta":
            block["text"] = block.get("text", "") + delta["text"]
        elif kind == "input_json_delta":
            self._json[index].append(delta["partial_json"])
        elif kind == "thinking_delta":
            block["thinking"] = block.get("thinking", "") + delta["thinking"]
        elif kind == "signature_delta":
            block["signature"] = delta["signature"]
        elif kind == "citations_delta":
            block.setdefault("citations", []).append(delta["citation"])

    def _stop(self, index: int) -> None:
        parts = self._json.pop(index, None)
        if not parts:
            return  # no fragments: the start block's input stands
        text = "".join(parts)
        try:
            value = decode_bounded(text)
        except (msgspec.DecodeError, UnicodeError, BlockError) as exc:
            raise ValueError(f"tool_use block {index}: input is not valid JSON: {exc}") from None
        if not isinstance(value, dict):
            raise ValueError(f"tool_use block {index}: input must be a JSON object")
        self.message["content"][index]["input"] = value


def assemble_anthropic_events(events: Iterable[Any]) -> dict[str, Any]:
    """The final Anthropic message of a whole stream of events."""
    assembler = AnthropicStreamAssembler()
    for event in events:
        assembler.feed(event)
    return assembler.message
