"""Anthropic Messages: ``tool_use`` blocks in assistant turns, ``tool_result`` blocks in user
turns, the system prompt as a top-level parameter (ECOSYSTEM.md §6), and reasoning as
``thinking`` / ``redacted_thinking`` blocks (:mod:`~tooletta.interop.reasoning`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ._util import as_dict, without_none
from .calls import from_anthropic_tool_use, to_anthropic_tool_use
from .ids import IdMapper, IdPolicy, ensure_ids
from .message import Message
from .reasoning import THINKING_BLOCKS, ReasoningPolicy, check_policy, join_texts

__all__ = [
    "anthropic_thinking_blocks",
    "is_anthropic_message",
    "read_anthropic_message",
    "write_anthropic",
]

_TOOL_BLOCKS = frozenset({"tool_use", "tool_result"})
_THINKING = frozenset({"thinking", "redacted_thinking"})


def _is_anthropic_block(block: Any) -> bool:
    if not isinstance(block, dict):
        return False
    kind = block.get("type")
    return (
        kind in _TOOL_BLOCKS
        or kind == "redacted_thinking"
        or (kind == "thinking" and "signature" in block)  # tinker's thinking parts have none
    )


def is_anthropic_message(data: dict[str, Any]) -> bool:
    """True for an Anthropic response (``type: "message"`` with ``stop_reason``), or a message
    whose content holds ``tool_use``, ``tool_result``, signed ``thinking`` or
    ``redacted_thinking`` blocks."""
    if data.get("type") == "message" and "stop_reason" in data:
        return True
    content = data.get("content")
    return isinstance(content, list) and any(
        _is_anthropic_block(b if isinstance(b, dict) else as_dict(b, "content block"))
        for b in content
    )


def _simplify(blocks: list[Any]) -> str | list[Any] | None:
    """No blocks: ``None``; one plain text block: its text; otherwise the blocks."""
    if not blocks:
        return None
    if len(blocks) == 1 and set(blocks[0]) == {"type", "text"} and blocks[0]["type"] == "text":
        text = blocks[0]["text"]
        if isinstance(text, str):
            return text
    return blocks


def read_anthropic_message(obj: Any) -> list[Message]:
    """Read one Anthropic message into neutral messages.

    An assistant turn gives a message whose calls are its ``tool_use`` blocks, whose
    reasoning is the text of its ``thinking`` blocks (those blocks and ``redacted_thinking``
    ones are kept verbatim in ``extra["thinking_blocks"]``) and whose content is the other
    blocks. A reasoning block after text or calls (interleaved thinking) starts another
    assistant message, so the blocks keep their order; :func:`write_anthropic` joins them
    into one turn again. A user turn gives one ``tool`` message per ``tool_result`` block (in
    order), then a ``user`` message with the remaining blocks, if any. Keys whose value is
    ``None`` (SDK objects' ``model_dump`` writes one for every unset field) count as absent.
    """
    data = as_dict(obj, "message")
    role = data.get("role")
    content = data.get("content")
    if role not in ("user", "assistant"):
        raise ValueError(f"an Anthropic message has role user or assistant, not {role!r}")
    if not isinstance(content, list):
        if not isinstance(content, str):
            raise ValueError("Anthropic message content must be text or a list of blocks")
        return [Message(role=role, content=content)]
    blocks = [without_none(as_dict(b, "content block")) for b in content]
    if role == "assistant":
        return _read_assistant(blocks)
    out = []
    for b in blocks:
        if b.get("type") == "tool_result":
            result = b.get("content")
            if isinstance(result, list):
                result = _simplify([without_none(as_dict(r, "content block")) for r in result])
            tool_use_id = b.get("tool_use_id")
            if not isinstance(tool_use_id, str):
                raise ValueError("a tool_result block needs tool_use_id")
            out.append(
                Message(
                    role="tool",
                    content=result,
                    tool_call_id=tool_use_id,
                    is_error=bool(b.get("is_error", False)),
                )
            )
    rest = [b for b in blocks if b.get("type") != "tool_result"]
    if rest:
        out.append(Message(role="user", content=_simplify(rest)))
    return out


def _read_assistant(blocks: list[dict[str, Any]]) -> list[Message]:
    turns: list[tuple[list[Any], list[Any], list[Any]]] = [([], [], [])]  # thinking, rest, calls
    for b in blocks:
        thinking, rest, calls = turns[-1]
        kind = b.get("type")
        if kind in _THINKING:
            if rest or calls:
                turns.append(([], [], []))
                thinking = turns[-1][0]
            thinking.append(b)
        elif kind == "tool_use":
            calls.append(from_anthropic_tool_use(b))
        else:
            rest.append(b)
    out = []
    for thinking, rest, calls in turns:
        text = join_texts(b.get("thinking") for b in thinking if b.get("type") == "thinking")
        out.append(
            Message(
                role="assistant",
                content=_simplify(rest),
                tool_calls=calls,
                reasoning=text,
                extra={THINKING_BLOCKS: thinking} if thinking else {},
            )
        )
    return out


def anthropic_thinking_blocks(msg: Message, policy: ReasoningPolicy = "keep") -> list[Any]:
    """The reasoning blocks an assistant turn starts with, under ``policy``.

    The message's kept blocks (``extra["thinking_blocks"]``) are written verbatim while
    their text is still the message's reasoning. Otherwise (reasoning from another shape,
    or edited) ``"keep"`` writes the reasoning as a ``thinking`` block with an empty
    ``signature`` (no valid one can be made; Anthropic's API refuses unsigned thinking, so
    requests to it want ``"native"``), after the kept ``redacted_thinking`` blocks;
    ``"native"`` writes only those redacted blocks; ``"drop"`` writes nothing.
    """
    check_policy(policy)
    if policy == "drop":
        return []
    raw = msg.extra.get(THINKING_BLOCKS)
    kept = (
        [dict(b) for b in raw or () if isinstance(b, dict) and b.get("type") in _THINKING]
        if isinstance(raw, list)
        else []
    )
    text = join_texts(b.get("thinking") for b in kept if b.get("type") == "thinking")
    if kept and text == msg.reasoning:
        return kept
    out = [b for b in kept if b.get("type") == "redacted_thinking"]
    if policy == "keep" and msg.reasoning:
        out.append({"type": "thinking", "thinking": msg.reasoning, "signature": ""})
    return out


def _blocks(content: str | list[Any] | None) -> list[Any]:
    if content is None or content == "":
        return []
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if not (b.get("type") == "text" and b.get("text") == "")]


def write_anthropic(
    messages: Sequence[Message],
    *,
    ids: IdPolicy | IdMapper = "anthropic",
    reasoning: ReasoningPolicy = "keep",
) -> dict[str, Any]:
    """Write a conversation as Anthropic ``create()`` arguments: ``{"system"?, "messages"}``.

    System and developer messages join into ``system`` (blank line between). Consecutive tool
    results (and a user message right after them) merge into one user turn, results first;
    consecutive assistant messages merge into one assistant turn (as the API itself treats
    them). An assistant turn starts with its reasoning blocks
    (:func:`anthropic_thinking_blocks`, under ``reasoning``). Empty text blocks are left out
    (the API rejects them). Calls without an id get a derived ``toolu_`` one. Chat-only
    extras are not written.
    """
    check_policy(reasoning)
    mapper = ids if isinstance(ids, IdMapper) else IdMapper(ids)
    system: list[Any] = []
    out: list[dict[str, Any]] = []
    previous = ""
    for msg in ensure_ids(mapper(messages), "toolu_"):
        if msg.role in ("system", "developer"):
            system.extend(_blocks(msg.content))
        elif msg.role == "assistant":
            thinking = anthropic_thinking_blocks(msg, reasoning)
            blocks = [*thinking, *_blocks(msg.content)]
            blocks.extend(to_anthropic_tool_use(c) for c in msg.tool_calls)
            if previous == "assistant":
                last = out[-1]
                if isinstance(last["content"], str):
                    last["content"] = _blocks(last["content"])
                last["content"].extend(blocks)
            elif not msg.tool_calls and not thinking and isinstance(msg.content, str):
                out.append({"role": "assistant", "content": msg.content})
            else:
                out.append({"role": "assistant", "content": blocks})
        elif msg.role == "tool":
            if msg.tool_call_id is None:
                raise ValueError("an Anthropic tool_result needs an id (use an id policy)")
            block: dict[str, Any] = {"type": "tool_result", "tool_use_id": msg.tool_call_id}
            if msg.content is not None:
                block["content"] = msg.content
            if msg.is_error:
                block["is_error"] = True
            _user_turn(out, [block], merge=True)
        elif msg.role == "user":
            after_results = bool(out) and _is_result_turn(out[-1])
            if after_results:
                _user_turn(out, _blocks(msg.content), merge=True)
            else:
                out.append({"role": "user", "content": msg.content})
        else:
            raise ValueError(f"Anthropic has no {msg.role!r} messages")
        if msg.role not in ("system", "developer"):
            previous = msg.role
    payload: dict[str, Any] = {}
    if system:
        texts = [b.get("text") for b in system]
        if all(isinstance(t, str) and set(b) == {"type", "text"} for t, b in zip(texts, system)):
            payload["system"] = "\n\n".join(t for t in texts if isinstance(t, str))
        else:
            payload["system"] = system
    payload["messages"] = out
    return payload


def _is_result_turn(msg: dict[str, Any]) -> bool:
    content = msg.get("content")
    return (
        msg.get("role") == "user"
        and isinstance(content, list)
        and any(b.get("type") == "tool_result" for b in content)
    )


def _user_turn(out: list[dict[str, Any]], blocks: list[Any], *, merge: bool) -> None:
    if merge and out and _is_result_turn(out[-1]):
        out[-1]["content"].extend(blocks)
    else:
        out.append({"role": "user", "content": blocks})
