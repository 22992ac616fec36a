"""OpenAI Responses streaming, written: tooletta stream updates to Responses event dicts.

What the wire carries (ECOSYSTEM.md §2; the SDK's ``ResponseStreamEvent``): every event has a
``sequence_number`` (0, 1, 2...). ``response.created`` and ``response.in_progress`` carry the
response with an empty ``output``; each output item is announced by
``response.output_item.added`` and completed by ``response.output_item.done``; the response
ends with ``response.completed``, whose ``output`` holds every finished item. Within items:

- reasoning: a ``reasoning`` item with one ``reasoning_text`` content part
  (``response.content_part.added``, ``response.reasoning_text.delta`` ... ``.done``,
  ``response.content_part.done``). OpenAI's own models stream only summaries; raw reasoning
  text is how open-weight servers (vLLM, gpt-oss) stream a model's reasoning.
- text: a ``message`` item with one ``output_text`` part (``response.output_text.delta``
  ... ``.done``).
- a call: a ``function_call`` item (``arguments: ""``, then
  ``response.function_call_arguments.delta`` ... ``.done``).
"""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Iterable, Mapping
from typing import Any

from ..ir import StreamUpdate
from ..shapes._util import stable_token
from ._segments import SegmentWriter, Step, all_events

__all__ = ["ResponsesEventWriter", "updates_to_responses_events"]


class ResponsesEventWriter(SegmentWriter):
    """Turns the :class:`~tooletta.StreamUpdate` s of one response into Responses events.

    ``response_id`` names the response (default ``resp_`` + 24 random hex digits), ``model``
    and ``created_at`` are echoed; ``response`` adds fields to every response object (the
    request's ``tools``, ``instructions``...). Item ids are derived from ``response_id``:
    ``rs_…``, ``msg_…``, ``fc_…``; a call whose first delta has no id gets a ``call_`` id
    the same way. An id the source sends later is recorded in :attr:`late_ids`, calls later
    reported malformed in :attr:`discarded`. ``reasoning=False`` leaves reasoning out.
    """

    def __init__(
        self,
        *,
        response_id: str | None = None,
        model: str = "",
        created_at: int | None = None,
        response: Mapping[str, Any] | None = None,
        reasoning: bool = True,
    ) -> None:
        self.response_id = response_id or "resp_" + uuid.uuid4().hex[:24]
        self.model = model
        self.created_at = int(time.time()) if created_at is None else created_at
        self.fields = dict(response or {})
        super().__init__(reasoning=reasoning)
        self._sequence = 0
        self._output: list[dict[str, Any]] = []  # finished items
        self._item: dict[str, Any] | None = None  # the open item

    def _event(self, kind: str, **fields: Any) -> dict[str, Any]:
        event = {"type": kind, **fields, "sequence_number": self._sequence}
        self._sequence += 1
        return event

    def _response(self, status: str) -> dict[str, Any]:
        return {
            "id": self.response_id,
            "object": "response",
            "created_at": self.created_at,
            "status": status,
            "model": self.model,
            "output": copy.deepcopy(self._output) if status != "in_progress" else [],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "error": None,
            "incomplete_details": None,
            **self.fields,
        }

    def _opening(self) -> list[dict[str, Any]]:
        return [
            self._event("response.created", response=self._response("in_progress")),
            self._event("response.in_progress", response=self._response("in_progress")),
        ]

    def _where(self) -> dict[str, Any]:
        assert self._item is not None
        return {"item_id": self._item["id"], "output_index": len(self._output)}

    def _events(self, step: Step) -> list[dict[str, Any]]:
        if step.action == "open":
            return self._open(step)
        if step.action == "close":
            return self._close()
        item = self._item
        assert item is not None
        if step.kind == "call":
            item["arguments"] += step.text
            return [
                self._event(
                    "response.function_call_arguments.delta", delta=step.text, **self._where()
                )
            ]
        item["content"][0]["text"] += step.text
        kind = "response.output_text.delta"
        extra: dict[str, Any] = {"logprobs": []}
        if step.kind == "reasoning":
            kind, extra = "response.reasoning_text.delta", {}
        return [self._event(kind, content_index=0, delta=step.text, **extra, **self._where())]

    def _open(self, step: Step) -> list[dict[str, Any]]:
        seed = f"{self.response_id}:{len(self._output)}"
        part: dict[str, Any] | None = None
        if step.kind == "reasoning":
            item: dict[str, Any] = {
                "type": "reasoning",
                "id": "rs_" + stable_token(seed, 24),
                "summary": [],
                "content": [],
                "status": "in_progress",
            }
            part = {"type": "reasoning_text", "text": ""}
        elif step.kind == "text":
            item = {
                "type": "message",
                "id": "msg_" + stable_token(seed, 24),
                "role": "assistant",
                "status": "in_progress",
                "content": [],
            }
            part = {"type": "output_text", "text": "", "annotations": [], "logprobs": []}
        else:
            call_id = step.call_id
            if call_id is None:
                call_id = "call_" + stable_token(f"{self.response_id}:call:{step.index}", 24)
            item = {
                "type": "function_call",
                "id": "fc_" + stable_token(seed, 24),
                "call_id": call_id,
                "name": step.name,
                "arguments": "",
                "status": "in_progress",
            }
        out = [
            self._event(
                "response.output_item.added",
                output_index=len(self._output),
                item=copy.deepcopy(item),
            )
        ]
        self._item = item
        if part is not None:
            out.append(
                self._event(
                    "response.content_part.added", content_index=0, part=dict(part), **self._where()
                )
            )
            item["content"].append(part)
        return out

    def _close(self) -> list[dict[str, Any]]:
        item = self._item
        assert item is not None
        where = self._where()
        out = []
        if item["type"] == "function_call":
            out.append(
                self._event(
                    "response.function_call_arguments.done",
                    arguments=item["arguments"],
                    name=item["name"],
                    **where,
                )
            )
        else:
            part = item["content"][0]
            if item["type"] == "reasoning":
                out.append(
                    self._event(
                        "response.reasoning_text.done", content_index=0, text=part["text"], **where
                    )
                )
            else:
                out.append(
                    self._event(
                        "response.output_text.done",
                        content_index=0,
                        text=part["text"],
                        logprobs=[],
                        **where,
                    )
                )
            out.append(
                self._event("response.content_part.done", content_index=0, part=dict(part), **where)
            )
        item["status"] = "completed"
        out.append(
            self._event(
                "response.output_item.done",
                output_index=where["output_index"],
                item=copy.deepcopy(item),
            )
        )
        self._output.append(item)
        self._item = None
        return out

    def finish(self, update: StreamUpdate | None = None) -> list[dict[str, Any]]:
        """The events of a last update (``parser.finish()``'s), then the open item's end and
        ``response.completed`` with every item."""
        out = self._finishing(update)
        out.append(self._event("response.completed", response=self._response("completed")))
        return out


def updates_to_responses_events(
    updates: Iterable[StreamUpdate], **options: Any
) -> list[dict[str, Any]]:
    """All events of a whole stream of updates, ``response.completed`` included.

    ``options`` are :class:`ResponsesEventWriter`'s (``response_id``, ``model``,
    ``created_at``, ``response``, ``reasoning``).
    """
    return all_events(ResponsesEventWriter(**options), updates)
