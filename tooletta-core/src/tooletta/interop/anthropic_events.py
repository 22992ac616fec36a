"""Anthropic Messages streaming, written: tooletta stream updates to server-sent event dicts.

What the wire carries (Anthropic's streaming docs; the SDK's ``RawMessageStreamEvent``):
``message_start`` (the message with empty ``content``), then per content block
``content_block_start`` / ``content_block_delta`` ... / ``content_block_stop``, then
``message_delta`` (``stop_reason``, output ``usage``) and ``message_stop``. Reasoning is a
``thinking`` block (``thinking_delta``), text a ``text`` block (``text_delta``), each call a
``tool_use`` block whose input arrives as ``input_json_delta`` fragments. Blocks follow one
another: the stream of a tooletta parser maps onto them one part at a time.

A thinking block's ``signature`` is Anthropic's proof that Anthropic produced it; no other
server can make one, so the block keeps the empty signature it starts with (no
``signature_delta``). Clients read such a stream like Anthropic's; to send the turn back to
Anthropic's API, leave that reasoning out (``messages_to_anthropic(..., reasoning="native")``).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any, Literal

from ..ir import StreamUpdate
from ..shapes._util import stable_token
from ._segments import SegmentWriter, Step, all_events

__all__ = ["AnthropicEventWriter", "updates_to_anthropic_events"]


class AnthropicEventWriter(SegmentWriter):
    """Turns the :class:`~tooletta.StreamUpdate` s of one response into Anthropic events.

    ``message_id`` names the message (default ``msg_`` + 24 random alphanumerics), ``model``
    is echoed, ``input_tokens`` goes in ``message_start``'s usage. A call whose first delta
    has no id gets ``toolu_`` + 24 alphanumerics derived from ``message_id`` and its index;
    an id the source sends later cannot be sent any more and is recorded in
    :attr:`late_ids`. Calls the parser later reports malformed cannot be taken back; their
    indexes are recorded in :attr:`discarded`. ``reasoning=False`` leaves reasoning out.
    """

    def __init__(
        self,
        *,
        message_id: str | None = None,
        model: str = "",
        input_tokens: int = 0,
        reasoning: bool = True,
    ) -> None:
        self.message_id = message_id or "msg_" + uuid.uuid4().hex[:24]
        self.model = model
        self.input_tokens = input_tokens
        super().__init__(reasoning=reasoning)
        self._blocks = 0  # content blocks started

    def _opening(self) -> list[dict[str, Any]]:
        message: dict[str, Any] = {
            "id": self.message_id,
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": [],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": {"input_tokens": self.input_tokens, "output_tokens": 0},
        }
        return [{"type": "message_start", "message": message}]

    def _events(self, step: Step) -> list[dict[str, Any]]:
        return [self._event(step)]

    def _event(self, step: Step) -> dict[str, Any]:
        index = self._blocks - 1
        if step.action == "close":
            return {"type": "content_block_stop", "index": index}
        if step.action == "open":
            self._blocks += 1
            block: dict[str, Any]
            if step.kind == "reasoning":
                block = {"type": "thinking", "thinking": "", "signature": ""}
            elif step.kind == "text":
                block = {"type": "text", "text": ""}
            else:
                call_id = step.call_id
                if call_id is None:
                    call_id = "toolu_" + stable_token(f"{self.message_id}:{step.index}", 24)
                block = {"type": "tool_use", "id": call_id, "name": step.name, "input": {}}
            return {"type": "content_block_start", "index": index + 1, "content_block": block}
        if step.kind == "reasoning":
            delta = {"type": "thinking_delta", "thinking": step.text}
        elif step.kind == "text":
            delta = {"type": "text_delta", "text": step.text}
        else:
            delta = {"type": "input_json_delta", "partial_json": step.text}
        return {"type": "content_block_delta", "index": index, "delta": delta}

    def finish(
        self,
        update: StreamUpdate | None = None,
        *,
        output_tokens: int = 0,
        stop_reason: Literal["end_turn", "tool_use", "max_tokens", "stop_sequence"] | None = None,
    ) -> list[dict[str, Any]]:
        """The events of a last update (``parser.finish()``'s), then the block stop,
        ``message_delta`` and ``message_stop``.

        ``stop_reason`` defaults to ``"tool_use"`` when the turn has calls, else
        ``"end_turn"``; ``output_tokens`` goes in the final usage.
        """
        out = self._finishing(update)
        if stop_reason is None:
            stop_reason = "tool_use" if self._segments.calls else "end_turn"
        out.append(
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            }
        )
        out.append({"type": "message_stop"})
        return out


def updates_to_anthropic_events(
    updates: Iterable[StreamUpdate], **options: Any
) -> list[dict[str, Any]]:
    """All events of a whole stream of updates, ``message_stop`` included.

    ``options`` are :class:`AnthropicEventWriter`'s (``message_id``, ``model``,
    ``input_tokens``, ``reasoning``).
    """
    return all_events(AnthropicEventWriter(**options), updates)
