"""OpenAI Chat Completions streaming: tooletta stream updates to ``chat.completion.chunk``
dicts, and chunks back to a completion exactly as the OpenAI SDK accumulates them.

What the wire carries (ECOSYSTEM.md §1.2): the first chunk has ``delta.role: "assistant"``;
each call opens with one delta holding ``index``, ``id``, ``type: "function"`` and
``function: {"name", "arguments": ""}``; later deltas carry only ``index`` and argument
fragments; the last chunk has an empty ``delta`` and ``finish_reason`` ``"tool_calls"`` or
``"stop"``. Clients concatenate every string field, so nothing is ever sent twice.
"""

from __future__ import annotations

import copy
import time
import uuid
from collections.abc import Iterable
from typing import Any, Literal

from ..ir import StreamUpdate
from ..shapes._util import as_dict, stable_token

__all__ = ["ChunkWriter", "accumulate_delta", "assemble_chunks", "updates_to_chunks"]


class ChunkWriter:
    """Turns the :class:`~tooletta.StreamUpdate` s of one response into OpenAI chunks.

    ``ids="generate"`` (default) gives every call an id on its opening delta, as OpenAI does:
    the source's id when the first delta has one, else ``call_`` + 24 alphanumerics derived
    from ``completion_id`` and the call's index. An id the source sends later cannot be sent
    any more (clients would concatenate it); it is recorded in :attr:`late_ids`.
    ``ids="source"`` sends ids exactly as the source gives them, once, possibly after the
    opening delta (still assembled right by the SDK), and never invents one.

    Calls a parser later reports malformed (``unparsed`` with an ``index``) cannot be taken
    back from a client; their indexes are recorded in :attr:`discarded`. Reasoning text goes
    in ``delta[reasoning_key]`` (vLLM/DeepSeek's ``reasoning_content``); ``None`` drops it.
    """

    def __init__(
        self,
        *,
        completion_id: str | None = None,
        model: str = "",
        created: int | None = None,
        ids: Literal["generate", "source"] = "generate",
        reasoning_key: str | None = "reasoning_content",
    ) -> None:
        self.completion_id = completion_id or "chatcmpl-" + uuid.uuid4().hex[:24]
        self.model = model
        self.created = int(time.time()) if created is None else created
        self.ids = ids
        self.reasoning_key = reasoning_key
        self.late_ids: dict[int, str] = {}
        """The ids the source sent after a call's opening delta (so not sent on), by call index."""
        self.discarded: list[int] = []
        """The indexes of the calls a parser reported malformed after their deltas were sent."""
        self._slots: dict[int, int] = {}  # source index -> output index
        self._id_sent: set[int] = set()
        self._started = False
        self._finished = False

    def _chunk(self, delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
        if not self._started:
            delta = {"role": "assistant", **delta}
            delta.setdefault("content", None)
            self._started = True
        return {
            "id": self.completion_id,
            "object": "chat.completion.chunk",
            "created": self.created,
            "model": self.model,
            "choices": [
                {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
            ],
        }

    def write(self, update: StreamUpdate) -> list[dict[str, Any]]:
        """The chunks for one update (none when it carries nothing)."""
        if self._finished:
            raise ValueError("the stream is finished")
        out = []
        if update.reasoning and self.reasoning_key:
            out.append(self._chunk({self.reasoning_key: update.reasoning}))
        if update.content:
            out.append(self._chunk({"content": update.content}))
        pending: tuple[int, list[str]] | None = None  # argument fragments to merge
        for d in update.calls:
            opens = d.index not in self._slots
            sends_id = not opens and d.id is not None and d.index not in self._id_sent
            if pending is not None and (pending[0] != d.index or opens or sends_id):
                out.append(self._args(*pending))
                pending = None
            if opens:
                out.append(self._open(d.index, d.name or "", d.id))
            elif sends_id and d.id is not None:
                self._id_sent.add(d.index)
                out.append(self._tool_delta(d.index, {"id": d.id}))
            elif d.id is not None:
                self.late_ids[d.index] = d.id
            if d.arguments:
                if pending is None:
                    pending = (d.index, [])
                pending[1].append(d.arguments)
        if pending is not None:
            out.append(self._args(*pending))
        for rec in update.unparsed:
            if rec.index is not None and rec.index in self._slots:
                self.discarded.append(rec.index)
        return out

    def _tool_delta(self, index: int, fields: dict[str, Any]) -> dict[str, Any]:
        return self._chunk({"tool_calls": [{"index": self._slots[index], **fields}]})

    def _open(self, index: int, name: str, call_id: str | None) -> dict[str, Any]:
        self._slots[index] = len(self._slots)
        fields: dict[str, Any] = {}
        if call_id is None and self.ids == "generate":
            call_id = "call_" + stable_token(f"{self.completion_id}:{index}", 24)
        if call_id is not None:
            fields["id"] = call_id
            self._id_sent.add(index)
        fields["type"] = "function"
        fields["function"] = {"name": name, "arguments": ""}
        return self._tool_delta(index, fields)

    def _args(self, index: int, fragments: list[str]) -> dict[str, Any]:
        return self._tool_delta(index, {"function": {"arguments": "".join(fragments)}})

    def finish(self, update: StreamUpdate | None = None) -> list[dict[str, Any]]:
        """The chunks of a last update (``parser.finish()``'s) and the closing chunk."""
        out = self.write(update) if update is not None else []
        if not self._started:
            out.append(self._chunk({"content": ""}))
        reason = "tool_calls" if self._slots else "stop"
        out.append(self._chunk({}, reason))
        self._finished = True
        return out


def updates_to_chunks(updates: Iterable[StreamUpdate], **options: Any) -> list[dict[str, Any]]:
    """All chunks of a whole stream of updates, closing chunk included.

    ``options`` are :class:`ChunkWriter`'s (``completion_id``, ``model``, ``created``,
    ``ids``, ``reasoning_key``).
    """
    writer = ChunkWriter(**options)
    out = []
    for update in updates:
        out.extend(writer.write(update))
    out.extend(writer.finish())
    return out


def accumulate_delta(acc: dict[str, Any], delta: dict[str, Any]) -> dict[str, Any]:
    """Merge one delta into ``acc`` in place, exactly as the OpenAI SDK does
    (``openai/lib/streaming/_deltas.py``): strings and numbers add up, dicts merge, list
    entries merge by their ``index`` (used as the list position), and only ``index`` and
    ``type`` are overwritten. Returns ``acc``. One difference: a ``None`` never replaces a
    value. The SDK feeds this function ``to_dict(exclude_unset=True)`` dumps, where ``None``
    is rare; an SDK chunk's ``model_dump()`` holds ``None`` for every field not sent, and
    letting ``type: None`` overwrite ``"function"`` would break the assembled message.

    Raises ``TypeError``/``RuntimeError`` where the SDK does (a list entry that is not a
    dict, or has no ``index``).
    """
    for key, delta_value in delta.items():
        if key not in acc:
            if isinstance(delta_value, list) and delta_value:
                acc[key] = _normalize_indexed_list(delta_value)
            else:
                acc[key] = delta_value
            continue
        acc_value = acc[key]
        if acc_value is None:
            acc[key] = delta_value
            continue
        if delta_value is None:
            continue  # not sent (an SDK dump's unset field): never replaces a value
        if key in ("index", "type"):
            acc[key] = delta_value
            continue
        if _addable(acc_value, delta_value):
            acc_value += delta_value
        elif isinstance(acc_value, dict) and isinstance(delta_value, dict):
            acc_value = accumulate_delta(acc_value, delta_value)
        elif isinstance(acc_value, list) and isinstance(delta_value, list):
            if all(isinstance(x, (str, int, float)) for x in acc_value):
                acc_value.extend(delta_value)
                continue
            for entry in delta_value:
                _merge_entry(acc_value, entry)
        acc[key] = acc_value
    return acc


def _addable(a: Any, b: Any) -> bool:
    """Strings concatenate and numbers add, as in the SDK."""
    both_text = isinstance(a, str) and isinstance(b, str)
    return both_text or (isinstance(a, (int, float)) and isinstance(b, (int, float)))


def _merge_entry(acc_list: list[Any], entry: Any) -> None:
    if not isinstance(entry, dict):
        raise TypeError(f"Unexpected list delta entry is not a dictionary: {entry}")
    try:
        index = entry["index"]
    except KeyError as exc:
        raise RuntimeError(f"Expected list delta entry to have an `index` key; {entry}") from exc
    if not isinstance(index, int):
        raise TypeError(f"Unexpected, list delta entry `index` value is not an integer; {index}")
    try:
        acc_entry = acc_list[index]
    except IndexError:
        acc_list.insert(index, entry)
    else:
        if not isinstance(acc_entry, dict):
            raise TypeError("not handled yet")
        acc_list[index] = accumulate_delta(acc_entry, entry)


def _normalize_indexed_list(items: list[Any]) -> list[Any]:
    """Merge entries of one list delta that share an ``index`` (as the SDK does)."""
    by_index: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    for item in items:
        if not isinstance(item, dict):
            return items
        idx = item.get("index")
        if not isinstance(idx, int):
            return items
        if idx not in by_index:
            by_index[idx] = item
            order.append(idx)
        else:
            by_index[idx] = accumulate_delta(by_index[idx], item)
    return [by_index[i] for i in order]


def assemble_chunks(chunks: Iterable[Any]) -> dict[str, Any]:
    """The ``chat.completion`` a stream of chunks adds up to, as the SDK's stream state builds
    it: each choice's ``message`` is its first delta, then :func:`accumulate_delta` of every
    later one; ``finish_reason`` is the last one given. Chunks are dicts or SDK objects; they
    are not modified.
    """
    snapshot: dict[str, Any] | None = None
    for raw in chunks:
        chunk = copy.deepcopy(as_dict(raw, "chunk"))
        choices = chunk.get("choices") or []
        if snapshot is None:
            snapshot = {**chunk, "object": "chat.completion", "choices": []}
        elif chunk.get("usage") is not None:
            snapshot["usage"] = chunk["usage"]
        for choice in choices:
            index = choice["index"]
            delta = choice.get("delta") or {}
            have = [c for c in snapshot["choices"] if c["index"] == index]
            if not have:
                rest = {k: v for k, v in choice.items() if k != "delta"}
                snapshot["choices"].append({**rest, "message": delta})
                continue
            target = have[0]
            accumulate_delta(target["message"], delta)
            if choice.get("finish_reason"):
                target["finish_reason"] = choice["finish_reason"]
    if snapshot is None:
        raise ValueError("no chunks")
    return snapshot
