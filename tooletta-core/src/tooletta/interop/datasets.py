"""Batch conversion of dataset rows between structured tool calls and model text.

A row is ``{"messages": [...], "tools": [...]}`` (OpenAI fine-tuning, TRL, mistral-finetune;
ECOSYSTEM.md §8). :func:`~tooletta.interop.convert_rows` is a pure module-level function, so it
pickles for ``multiprocessing`` and works as a batched ``datasets.Dataset.map`` function.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Literal

from .. import api
from ..errors import ToolettaError
from ..ir import ToolCall
from ..jsonout import json_type
from .calls import read_tool_call, to_hf_tool_call, to_openai_tool_call
from .ids import IdMapper, IdPolicy, ensure_ids
from .read import read_messages
from .tools import to_openai_tools

__all__ = ["convert_rows"]

_CALL_KEYS = ("tool_calls", "function_call")


def convert_rows(
    rows: Sequence[Any] | Mapping[str, Sequence[Any]],
    *,
    target_dialect: str | None = None,
    direction: Literal["render", "parse"] = "render",
    source_dialect: str = "auto",
    call_format: Literal["openai", "hf"] = "openai",
    ids: IdPolicy = "keep",
    error_key: str = "error",
) -> Any:
    """Convert the assistant messages of dataset rows, row by row.

    ``direction="render"``: every assistant message with tool calls (any shape
    :func:`~tooletta.interop.read_messages` reads) gets ``content`` = its text and calls
    written as ``target_dialect`` model text (:func:`tooletta.render`); ``tool_calls`` and
    ``function_call`` are removed. Other messages are left as they are.

    ``direction="parse"``: every assistant message whose ``content`` is text and that has no
    calls is parsed (:func:`tooletta.parse`, strict) as ``source_dialect``, or as
    ``target_dialect`` when ``source_dialect`` is ``"auto"`` and a target is given, else
    detected per message. Found calls go to ``tool_calls`` in ``call_format`` (``"openai"``:
    JSON-string arguments; ``"hf"``: dict arguments, for TRL), ``content`` becomes the text
    without markup and reasoning goes to ``reasoning_content``. ``ids`` then maps the row's
    call ids and result ids together (:class:`~tooletta.interop.IdMapper`); OpenAI calls
    always get ids, so with ``"keep"`` the missing ones are derived
    (:func:`~tooletta.interop.ensure_ids`) and the results after them get the same ids.

    In both directions reasoning stays structured: a rendered message keeps (or gains) its
    ``reasoning_content``, which chat templates place themselves.

    Rows are checked first, in both directions: every message must be an object with a string
    ``role`` (or, for an OpenAI Responses item, a string ``type``) and ``content`` that is
    text, a list of part objects or null; ``tools`` must be a list or null; an assistant
    message's calls must be readable. Rows are never dropped: a row that fails comes back
    unchanged with ``error_key`` set to a one-line reason (a non-dict row as
    ``{"row": row, error_key: ...}``). ``rows`` may be a
    list of rows or a columnar batch (``{"messages": [...], "tools": [...]}``, as
    ``datasets`` passes with ``batched=True``); a batch comes back columnar, with an
    ``error_key`` column (``None`` for good rows). Unknown dialect names raise
    :class:`~tooletta.UnknownDialectError` at once.
    """
    if direction == "render":
        if target_dialect is None:
            raise ValueError("direction='render' needs target_dialect")
        dialect = target_dialect
    elif direction == "parse":
        dialect = source_dialect
        if source_dialect == "auto" and target_dialect is not None:
            dialect = target_dialect
    else:
        raise ValueError(f"direction must be 'render' or 'parse', not {direction!r}")
    if dialect != "auto":
        api.get_dialect(dialect)
    IdMapper(ids)  # validates the policy name
    if isinstance(rows, Mapping):
        return _convert_batch(rows, dialect, direction, call_format, ids, error_key)
    return [_convert_row(r, dialect, direction, call_format, ids, error_key) for r in rows]


def _convert_batch(
    batch: Mapping[str, Sequence[Any]],
    dialect: str,
    direction: str,
    call_format: str,
    ids: IdPolicy,
    error_key: str,
) -> dict[str, list[Any]]:
    keys = list(batch)
    size = len(batch[keys[0]]) if keys else 0
    rows = [{k: batch[k][i] for k in keys} for i in range(size)]
    done = [_convert_row(r, dialect, direction, call_format, ids, error_key) for r in rows]
    columns = [*keys, *([error_key] if error_key not in keys else [])]
    return {k: [row.get(k) for row in done] for k in columns}


def _convert_row(
    row: Any, dialect: str, direction: str, call_format: str, ids: IdPolicy, error_key: str
) -> dict[str, Any]:
    if not isinstance(row, Mapping):
        return {"row": row, error_key: f"a row must be an object, not {type(row).__name__}"}
    try:
        messages = row.get("messages")
        if not isinstance(messages, list):
            raise ValueError("the row has no 'messages' list")
        for i, message in enumerate(messages):
            _check_message(i, message)
        raw_tools = row.get("tools")
        if raw_tools is not None and not isinstance(raw_tools, list):
            raise ValueError(f"the row's 'tools' must be a list, not {json_type(raw_tools)}")
        tools = to_openai_tools(raw_tools) or None
        if direction == "render":
            new = _render_messages(messages, dialect)
        else:
            new = [_parse_message(m, dialect, tools, call_format) for m in messages]
            if ids != "keep" or call_format == "openai":
                new = _map_ids(new, ids, call_format)
    except (ToolettaError, ValueError, TypeError, KeyError) as exc:
        return {**row, error_key: _reason(exc)}
    out = {**row, "messages": new}
    out.pop(error_key, None)
    return out


def _check_message(i: int, message: Any) -> None:
    """Fail (``ValueError``) for a message no chat format has: wrong types, not an object."""
    if not isinstance(message, Mapping):
        raise ValueError(f"message {i} must be an object, not {json_type(message)}")
    role = message.get("role")
    if role is None:
        if not isinstance(message.get("type"), str):  # Responses items have a type instead
            raise ValueError(f"message {i} has no role")
    elif not isinstance(role, str):
        raise ValueError(f"message {i}: role must be a string, not {json_type(role)}")
    content = message.get("content")
    if content is None or isinstance(content, str):
        return
    if not isinstance(content, list):
        raise ValueError(
            f"message {i}: content must be text, a list of parts or null, not {json_type(content)}"
        )
    for j, part in enumerate(content):
        if not isinstance(part, Mapping):
            raise ValueError(
                f"message {i}: content part {j} must be an object, not {json_type(part)}"
            )


def _reason(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{type(exc).__name__}: {text}"


def _is_assistant(message: Any) -> bool:
    return isinstance(message, Mapping) and message.get("role") == "assistant"


def _render_messages(messages: list[Any], dialect: str) -> list[Any]:
    """Each assistant message rendered (:func:`_render_message`), and each tool result's
    ``tool_call_id`` renamed to the id the target wrote for its call, so that call and result
    stay paired in the converted row (Mistral writes 9-character ids, Kimi
    ``functions.NAME:INDEX``)."""
    renamed: dict[str, str] = {}
    out = []
    for message in messages:
        if _is_assistant(message):
            message = _render_message(message, dialect, renamed)
        elif isinstance(message, Mapping) and message.get("role") == "tool":
            old = message.get("tool_call_id")
            if isinstance(old, str) and old in renamed:
                message = {**message, "tool_call_id": renamed[old]}
        out.append(message)
    return out


def _render_message(message: Any, dialect: str, renamed: dict[str, str] | None = None) -> Any:
    if not _is_assistant(message) or not any(message.get(k) for k in (*_CALL_KEYS, "content")):
        return message
    (msg,) = read_messages([message])
    if not msg.tool_calls:
        return message
    text = _text(msg.content)
    out = {k: v for k, v in message.items() if k not in _CALL_KEYS}
    out["content"] = api.render(msg.tool_calls, dialect, content=text)
    if renamed is not None and any(c.id for c in msg.tool_calls):
        written = api.parse(out["content"], dialect, strict=True).calls
        for call, back in zip(msg.tool_calls, written):
            if call.id and back.id and back.id != call.id:
                renamed[call.id] = back.id
    if msg.reasoning and "reasoning_content" not in out and "reasoning" not in out:
        out["reasoning_content"] = msg.reasoning  # it was in the content (thinking blocks)
    return out


def _text(content: Any) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    texts = []
    for part in content:
        if not (isinstance(part, Mapping) and part.get("type") == "text"):
            raise ValueError("only text content can be rendered into model text")
        texts.append(part.get("text", ""))
    return "".join(texts)


def _parse_message(message: Any, dialect: str, tools: Any, call_format: str) -> Any:
    if not _is_assistant(message):
        return message
    if any(message.get(k) for k in _CALL_KEYS):
        read_messages([message])  # calls kept as they are, but they must be calls
        return message
    content = message.get("content")
    if not isinstance(content, str):
        return message
    result = api.parse(content, dialect, tools=tools, strict=True)
    if not result.calls and not result.reasoning:
        return message
    out = dict(message)
    out["content"] = result.content
    if result.reasoning:
        out["reasoning_content"] = result.reasoning
    if result.calls:
        out["tool_calls"] = [_write_call(c, call_format) for c in result.calls]
    return out


def _write_call(call: ToolCall, call_format: str) -> dict[str, Any]:
    """The call in ``call_format``; an OpenAI item without an id gets none yet
    (:func:`_map_ids` derives ids for the whole row, results included)."""
    if call_format == "hf":
        return to_hf_tool_call(call)
    item = to_openai_tool_call(call)
    if call.id is None:
        del item["id"]
    return item


def _map_ids(messages: list[Any], ids: IdPolicy, call_format: str) -> list[Any]:
    neutral = read_messages(messages)
    if len(neutral) != len(messages):
        if ids != "keep":
            raise ValueError("ids= needs chat-style messages (one message per row entry)")
        return [_own_ids(m) for m in messages]  # no pairing possible: each call its own id
    mapped = IdMapper(ids)(neutral)
    if call_format == "openai":
        mapped = ensure_ids(mapped, "call_")
    out = []
    for raw, old, msg in zip(messages, neutral, mapped):
        changed = ids != "keep" or msg != old
        if not (isinstance(raw, Mapping) and changed):
            out.append(raw)
        elif raw.get("role") == "assistant" and msg.tool_calls:
            raw = {**raw, "tool_calls": [_write_call(c, call_format) for c in msg.tool_calls]}
            raw.pop("function_call", None)
            out.append(raw)
        elif raw.get("role") == "tool" and msg.tool_call_id:
            out.append({**raw, "tool_call_id": msg.tool_call_id})
        else:
            out.append(raw)
    return out


def _own_ids(message: Any) -> Any:
    """A message whose OpenAI calls lack ids, with ids derived per call."""
    calls = message.get("tool_calls") if isinstance(message, Mapping) else None
    if not isinstance(calls, list) or all(isinstance(c, Mapping) and "id" in c for c in calls):
        return message
    items = [to_openai_tool_call(read_tool_call(c)) for c in calls]
    return {**message, "tool_calls": items}
