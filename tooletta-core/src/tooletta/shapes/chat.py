"""Chat-style messages: OpenAI Chat Completions, Hugging Face / TRL and tinker-cookbook.

The three share one shape (``role``, ``content``, ``tool_calls``, ``tool_call_id``, ``name``)
and differ in details: OpenAI writes arguments as a JSON string and requires ids; transformers
and TRL want arguments as a dict and name their tool results; tinker writes its ``ToolCall``
dicts and advises both ``name`` and ``tool_call_id`` on results.

Reasoning (:mod:`~tooletta.interop.reasoning`): read from ``reasoning_content`` or
``reasoning`` (or tinker's ``thinking`` content parts, or LiteLLM's ``thinking_blocks``);
written as ``reasoning_content`` for OpenAI and Hugging Face (the field vLLM, DeepSeek and
LiteLLM return and chat templates read; the OpenAI API itself has no reasoning field), and as a
leading ``thinking`` part for tinker.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..ir import ToolCall
from ._util import as_dict
from .calls import (
    from_openai_function_call,
    read_tool_call,
    to_hf_tool_call,
    to_openai_function_call,
    to_openai_tool_call,
    to_tinker_tool_call,
)
from .ids import IdMapper, IdPolicy, ensure_ids
from .message import Message, pair_results
from .reasoning import RESPONSES_ONLY, THINKING_BLOCKS, ReasoningPolicy, check_policy, join_texts

__all__ = ["read_chat_message", "write_chat"]

_KNOWN = frozenset(
    {"role", "content", "tool_calls", "tool_call_id", "name", "function_call", "reasoning_content"}
)
_ROLES = frozenset({"system", "developer", "user", "assistant", "tool", "function"})


def read_chat_message(obj: Any) -> Message:
    """Read one chat-style message (OpenAI, legacy ``function_call``, HF/TRL, tinker).

    Reasoning comes from ``reasoning_content``, else a text ``reasoning``, else tinker's
    ``thinking`` content parts, else LiteLLM's ``thinking_blocks`` (which stay in ``extra``). Other
    keys whose value is not ``None`` are kept in :class:`Message.extra <tooletta.Message>`.
    Raises ``ValueError`` for an unknown role or a malformed tool call.
    """
    data = as_dict(obj, "message")
    role = data.get("role")
    if not isinstance(role, str) or role not in _ROLES:
        raise ValueError(f"unknown message role {role!r}")
    if role != "assistant" and (data.get("tool_calls") or data.get("function_call")):
        raise ValueError(
            f"a {role} message cannot carry tool calls (only an assistant's are written)"
        )
    extra = {
        k: v
        for k, v in data.items()
        if k not in _KNOWN and v is not None and not (k == "reasoning" and isinstance(v, str))
    }
    content = data.get("content")
    if content is not None and not isinstance(content, (str, list)):
        raise ValueError(f"message content must be text or a list, not {type(content).__name__}")
    reasoning = _reasoning_of(data)
    if isinstance(content, list) and any(_is_thinking_part(p) for p in content):
        reasoning = reasoning or join_texts(
            p.get("thinking") for p in content if _is_thinking_part(p)
        )
        content = _without_thinking(content)
    if not reasoning and isinstance(extra.get(THINKING_BLOCKS), list):
        reasoning = join_texts(
            b.get("thinking") for b in extra[THINKING_BLOCKS] if isinstance(b, dict)
        )
    name = _optional_text(data, "name")
    if role == "function":  # legacy result: no id, the function's name
        return Message(role="tool", content=content, name=name, extra=extra)
    calls: list[ToolCall] = []
    if role == "assistant":
        raw_calls = data.get("tool_calls") or []
        if not isinstance(raw_calls, list):
            raise ValueError("tool_calls must be a list")
        calls = [read_tool_call(c) for c in raw_calls]
        if data.get("function_call") is not None:
            calls.append(from_openai_function_call(data["function_call"]))
    call_id = _optional_text(data, "tool_call_id")
    return Message(
        role=role,
        content=content,
        tool_calls=calls,
        tool_call_id=call_id,
        name=name,
        extra=extra,
        reasoning=reasoning,
    )


def _optional_text(data: dict[str, Any], key: str) -> str | None:
    """``data[key]``: a string or absent (``None``); anything else is refused, never
    dropped or turned into text."""
    value = data.get(key)
    if value is None or isinstance(value, str):
        return value
    raise ValueError(f"{key} must be a string, not {type(value).__name__}")


def _reasoning_of(data: dict[str, Any]) -> str:
    for key in ("reasoning_content", "reasoning"):
        value = data.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _is_thinking_part(part: Any) -> bool:
    """tinker's ``{"type": "thinking", "thinking"}`` part (no Anthropic signature)."""
    return isinstance(part, dict) and part.get("type") == "thinking" and "signature" not in part


def _without_thinking(content: list[Any]) -> str | list[Any] | None:
    rest = [p for p in content if not _is_thinking_part(p)]
    if not rest:
        return None
    if len(rest) == 1 and isinstance(rest[0], dict) and set(rest[0]) == {"type", "text"}:
        text = rest[0]["text"]
        if rest[0]["type"] == "text" and isinstance(text, str):
            return text
    return rest


def write_chat(
    messages: Sequence[Message],
    *,
    style: str,
    ids: IdPolicy | IdMapper,
    legacy: bool = False,
    reasoning: ReasoningPolicy = "keep",
) -> list[dict[str, Any]]:
    """Write messages in one chat style: ``"openai"``, ``"hf"`` or ``"tinker"``.

    ``legacy=True`` (OpenAI only) writes the deprecated ``function_call`` (one call per
    message) and ``role: "function"`` results instead of ``tool_calls``. Chat shapes have no
    error flag: Anthropic's ``is_error`` is not written. OpenAI calls always get ids (missing
    ones are derived, :func:`~tooletta.interop.ensure_ids`), so every message is valid.
    ``reasoning="drop"`` leaves reasoning (and ``thinking_blocks``) out; ``"keep"`` and
    ``"native"`` write it.
    """
    check_policy(reasoning)
    mapper = ids if isinstance(ids, IdMapper) else IdMapper(ids)
    mapped = mapper(messages)
    if style == "openai" and not legacy:
        mapped = ensure_ids(mapped, "call_")
    pairs = pair_results(mapped)
    write_call: Callable[[ToolCall], dict[str, Any]] = {
        "openai": to_openai_tool_call,
        "hf": to_hf_tool_call,
        "tinker": to_tinker_tool_call,
    }[style]
    out: list[dict[str, Any]] = []
    for mi, msg in enumerate(mapped):
        answered = None
        if mi in pairs:
            ai, ci = pairs[mi]
            answered = mapped[ai].tool_calls[ci]
        written = _write_one(msg, style, write_call, answered, legacy, reasoning != "drop")
        out.append(written)
    return out


def _extra(msg: Message, with_reasoning: bool) -> dict[str, Any]:
    skip = RESPONSES_ONLY if with_reasoning else RESPONSES_ONLY | {THINKING_BLOCKS}
    return {k: v for k, v in msg.extra.items() if k not in skip}


def _write_one(
    msg: Message,
    style: str,
    write_call: Callable[[ToolCall], dict[str, Any]],
    answered: ToolCall | None,
    legacy: bool,
    with_reasoning: bool,
) -> dict[str, Any]:
    content: Any = msg.content
    if style == "tinker" and content is None:
        content = ""  # tinker's Message requires content
    if msg.role == "tool":
        return _write_result(msg, style, content, answered, legacy)
    thinking = msg.reasoning if with_reasoning else ""
    if style == "tinker" and thinking:
        parts = [{"type": "text", "text": content}] if isinstance(content, str) else content
        content = [
            {"type": "thinking", "thinking": thinking},
            *(p for p in parts if p != {"type": "text", "text": ""}),
        ]
    out: dict[str, Any] = {"role": msg.role}
    if content is not None or style == "openai":
        out["content"] = content
    if thinking and style != "tinker":
        out["reasoning_content"] = thinking
    if msg.name is not None:
        out["name"] = msg.name
    if msg.tool_calls:
        if legacy:
            if len(msg.tool_calls) > 1:
                raise ValueError("legacy function_call holds one call per message")
            out["function_call"] = to_openai_function_call(msg.tool_calls[0])
        else:
            out["tool_calls"] = [write_call(c) for c in msg.tool_calls]
    out.update(_extra(msg, with_reasoning))
    return out


def _write_result(
    msg: Message, style: str, content: Any, answered: ToolCall | None, legacy: bool
) -> dict[str, Any]:
    name = msg.name if msg.name is not None else (answered.name if answered else None)
    if content is None:
        content = ""
    if legacy:
        if name is None:
            raise ValueError("a legacy function result needs the function's name")
        out: dict[str, Any] = {"role": "function", "name": name, "content": content}
    elif style == "openai":
        if msg.tool_call_id is None:
            raise ValueError("an OpenAI tool message needs tool_call_id (use an id policy)")
        out = {"role": "tool", "tool_call_id": msg.tool_call_id, "content": content}
    else:
        out = {"role": "tool", "content": content}
        if name is not None:
            out["name"] = name
        if msg.tool_call_id is not None:
            out["tool_call_id"] = msg.tool_call_id
    out.update(_extra(msg, True))
    return out
