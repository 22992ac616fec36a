"""OpenAI Responses API items: messages, ``reasoning``, ``function_call`` and
``function_call_output``.

A call is an item of its own, ``{"type": "function_call", "id": "fc_…", "call_id": "call_…",
"name", "arguments": "<JSON>", "status"}``; results refer to ``call_id`` in
``{"type": "function_call_output", "call_id", "output"}`` (ECOSYSTEM.md §2). Reasoning is a
``reasoning`` item before the items it led to (:mod:`~tooletta.interop.reasoning`).

One assistant turn is a run of items: reasoning, then a message, then calls. Reading joins a
run into one :class:`~tooletta.Message` and keeps the items' ids in ``extra["item_ids"]``
(the API pairs a reasoning item with the item after it by id, and refuses one without the
other); a reasoning item after text or calls starts the next message, so writing gives the
items back in their order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from ._util import as_dict, stable_token, without_none
from .calls import from_responses_function_call, to_responses_function_call
from .ids import IdMapper, IdPolicy, ensure_ids
from .message import Message
from .reasoning import (
    ITEM_IDS,
    REASONING_ITEMS,
    ReasoningPolicy,
    check_policy,
    join_texts,
)

__all__ = [
    "add_responses_item",
    "is_responses_item",
    "read_responses_item",
    "reasoning_item_text",
    "responses_reasoning_items",
    "write_responses",
]

_ITEM_TYPES = frozenset({"message", "function_call", "function_call_output", "reasoning"})
_TEXT = frozenset({"input_text", "output_text"})
_TEXT_OR_PLAIN = _TEXT | {"text"}
_EMPTY: tuple[Any, ...] = (None, [], "")


def is_responses_item(data: dict[str, Any]) -> bool:
    """True for a Responses item: a typed item, or a message with Responses text parts."""
    if data.get("type") in _ITEM_TYPES or ("type" in data and "role" not in data):
        return True
    content = data.get("content")
    return isinstance(content, list) and any(
        isinstance(p, dict) and p.get("type") in _TEXT for p in content
    )


def _read_parts(content: Any) -> str | list[Any] | None:
    """Text parts (``input_text``, ``output_text``) become ``text`` parts, keeping their
    non-empty extras (``annotations``, ``logprobs``); only plain text parts join into text."""
    if not isinstance(content, list):
        return content  # type: ignore[no-any-return]
    parts = []
    for raw in content:
        p = as_dict(raw, "content part")
        if p.get("type") in _TEXT_OR_PLAIN:
            p = {"type": "text", **{k: v for k, v in p.items() if k != "type" and v not in _EMPTY}}
            p.setdefault("text", "")
        else:
            p = without_none(p)
        parts.append(p)
    plain = all(set(p) == {"type", "text"} and p["type"] == "text" for p in parts)
    if plain and all(isinstance(p["text"], str) for p in parts):
        return "".join(p["text"] for p in parts)
    return parts


def reasoning_item_text(item: dict[str, Any]) -> str:
    """The text of a ``reasoning`` item: its ``reasoning_text`` content when it has any (the
    raw reasoning open-weight servers return), else its summary; parts joined by a blank line."""
    for key in ("content", "summary"):
        parts = item.get(key)
        if isinstance(parts, list):
            text = join_texts(as_dict(p, "reasoning part").get("text") for p in parts)
            if text:
                return text
    return ""


def read_responses_item(obj: Any) -> Message:
    """Read one Responses item into a neutral message.

    A ``function_call`` item becomes an assistant message with one call, a ``reasoning`` item
    an assistant message with only reasoning (the item kept in ``extra["reasoning_items"]``);
    :func:`~tooletta.interop.read_messages` joins them with the items of the same turn. Other
    item types (built-in tool calls) raise ``ValueError``.
    """
    item = without_none(as_dict(obj, "Responses item"))
    kind = item.get("type", "message")
    item_id = item.get("id") if isinstance(item.get("id"), str) else None
    if kind == "function_call":
        call = from_responses_function_call(item)
        ids = {ITEM_IDS: {"calls": [item_id]}} if item_id is not None else {}
        return Message(role="assistant", tool_calls=[call], extra=ids)
    if kind == "reasoning":
        return Message(
            role="assistant", reasoning=reasoning_item_text(item), extra={REASONING_ITEMS: [item]}
        )
    if kind == "function_call_output":
        call_id = item.get("call_id")
        if not isinstance(call_id, str):
            raise ValueError("a function_call_output item needs call_id")
        return Message(role="tool", content=_read_parts(item.get("output")), tool_call_id=call_id)
    if kind != "message":
        raise ValueError(f"unsupported Responses item type {kind!r}")
    role = item.get("role")
    if role not in ("system", "developer", "user", "assistant"):
        raise ValueError(f"unknown Responses message role {role!r}")
    extra: dict[str, Any] = {}
    if item_id is not None and role == "assistant":
        extra[ITEM_IDS] = {"message": item_id}
    return Message(role=role, content=_read_parts(item.get("content")), extra=extra)


def _only_reasoning(msg: Message) -> bool:
    return msg.role == "assistant" and not msg.content and not msg.tool_calls


def add_responses_item(out: list[Message], obj: Any) -> None:
    """Read one Responses item and add it to the conversation ``out``, joining the items of
    one assistant turn: calls join the assistant message before them, and a message or a
    reasoning item joins one that holds only reasoning so far."""
    msg = read_responses_item(obj)
    last = out[-1] if out else None
    if last is not None and last.role == "assistant" and msg.role == "assistant":
        joins = bool(msg.tool_calls) or _only_reasoning(last)
        if joins:
            out[-1] = _join(last, msg)
            return
    out.append(msg)


def _join(a: Message, b: Message) -> Message:
    extra = dict(a.extra)
    if b.extra.get(REASONING_ITEMS):
        extra[REASONING_ITEMS] = [*extra.get(REASONING_ITEMS, []), *b.extra[REASONING_ITEMS]]
    ids_a = a.extra.get(ITEM_IDS) or {}
    ids_b = b.extra.get(ITEM_IDS) or {}
    calls_a = ids_a.get("calls") or [None] * len(a.tool_calls)
    calls_b = ids_b.get("calls") or [None] * len(b.tool_calls)
    ids = {**ids_a, **ids_b, "calls": [*calls_a, *calls_b]}
    if not any(ids["calls"]):
        del ids["calls"]
    if ids:
        extra[ITEM_IDS] = ids
    return msgspec.structs.replace(
        a,
        content=a.content if a.content else b.content,
        tool_calls=[*a.tool_calls, *b.tool_calls],
        reasoning=join_texts([a.reasoning, b.reasoning]),
        extra=extra,
    )


def responses_reasoning_items(
    msg: Message, policy: ReasoningPolicy = "keep", *, seed: str = ""
) -> list[dict[str, Any]]:
    """The ``reasoning`` items an assistant turn starts with, under ``policy``.

    Kept items (``extra["reasoning_items"]``) are written verbatim while their text is still
    the message's reasoning. Otherwise ``"keep"`` writes the reasoning as one new item:
    ``id`` ``rs_`` + 24 alphanumerics derived from ``seed`` and the text, an empty
    ``summary`` and the text as ``reasoning_text`` content (the API only accepts reasoning
    items it produced, so requests to it want ``"native"``); ``"native"`` and ``"drop"``
    write nothing.
    """
    check_policy(policy)
    if policy == "drop":
        return []
    raw = msg.extra.get(REASONING_ITEMS)
    kept = [dict(i) for i in raw if isinstance(i, dict)] if isinstance(raw, list) else []
    if kept and join_texts(reasoning_item_text(i) for i in kept) == msg.reasoning:
        return kept
    if policy == "native" or not msg.reasoning:
        return []
    return [
        {
            "type": "reasoning",
            "id": "rs_" + stable_token(f"{seed}:{msg.reasoning}", 24),
            "summary": [],
            "content": [{"type": "reasoning_text", "text": msg.reasoning}],
        }
    ]


def _write_parts(content: str | list[Any] | None, role: str) -> Any:
    if not isinstance(content, list):
        return content if content is not None else ""
    kind = "output_text" if role == "assistant" else "input_text"
    out = []
    for p in content:
        if isinstance(p, dict) and p.get("type") == "text":
            p = {**p, "type": kind}
            if kind == "output_text":
                p.setdefault("annotations", [])
        out.append(p)
    return out


def write_responses(
    messages: Sequence[Message],
    *,
    ids: IdPolicy | IdMapper = "openai",
    item_ids: bool = False,
    reasoning: ReasoningPolicy = "keep",
) -> list[dict[str, Any]]:
    """Write a conversation as a Responses ``input`` list.

    Messages become ``{"role", "content"}`` items, each call a ``function_call`` item after its
    message's text, each result a ``function_call_output``; an assistant turn starts with its
    ``reasoning`` items (:func:`responses_reasoning_items`, under ``reasoning``). Items read
    from Responses get their ids back (``extra["item_ids"]``). Other items carry no item
    ``id`` or ``status``, as clients send them back (recorded traffic), unless
    ``item_ids=True`` (then ids derived from ``call_id`` for calls, ``msg_`` ids for
    messages, status ``completed``). An assistant message with an id, or whose content is a
    list, is written as an output message (``type``, ``id``, ``status``, ``output_text``
    parts): the only form the API takes for them.
    """
    check_policy(reasoning)
    mapper = ids if isinstance(ids, IdMapper) else IdMapper(ids)
    out: list[dict[str, Any]] = []
    for mi, msg in enumerate(ensure_ids(mapper(messages), "call_")):
        if msg.role == "tool":
            if msg.tool_call_id is None:
                raise ValueError("a function_call_output needs call_id (use an id policy)")
            output = _write_parts(msg.content, "user")
            out.append(
                {"type": "function_call_output", "call_id": msg.tool_call_id, "output": output}
            )
            continue
        known = msg.extra.get(ITEM_IDS) if msg.role == "assistant" else None
        known = known if isinstance(known, dict) else {}
        thinking = []
        if msg.role == "assistant":
            thinking = responses_reasoning_items(msg, reasoning, seed=str(mi))
        out.extend(thinking)
        if msg.content or not (msg.tool_calls or thinking):
            out.append(_message_item(msg, known.get("message"), item_ids, mi))
        call_ids = known.get("calls")
        for ci, call in enumerate(msg.tool_calls):
            known_id = None
            if isinstance(call_ids, list) and ci < len(call_ids):
                known_id = call_ids[ci] if isinstance(call_ids[ci], str) else None
            item = to_responses_function_call(call, item_id=known_id)
            if known_id is None and not item_ids:
                del item["id"], item["status"]
            out.append(item)
    return out


def _message_item(msg: Message, known_id: Any, item_ids: bool, position: int) -> dict[str, Any]:
    content = _write_parts(msg.content, msg.role)
    output_form = msg.role == "assistant" and (
        isinstance(known_id, str) or item_ids or isinstance(content, list)
    )
    if not output_form:
        return {"role": msg.role, "content": content}
    if isinstance(content, str):
        content = [{"type": "output_text", "text": content, "annotations": []}]
    seed = f"{position}:{msg.content}"
    item_id = known_id if isinstance(known_id, str) else "msg_" + stable_token(seed, 24)
    return {
        "type": "message",
        "id": item_id,
        "role": "assistant",
        "status": "completed",
        "content": content,
    }
