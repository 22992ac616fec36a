"""Tool results carried on the assistant message: the ``tool_responses`` message form.

Some Gemma 4 templates (llama.cpp's ``google-gemma-4-31B-it-interleaved.jinja``, the earlier
official one) read no ``role: tool`` message: a tool result rides on the assistant message
that made the call, under ``tool_responses`` (``[{"name": ..., "response": ...}]``), and that
message's ``content`` is the answer written after the results. A serving stack builds that
shape from OpenAI-style messages before rendering; :func:`fold_tool_responses` does what
llama.cpp does (``common/chat.cpp``, ``workaround::convert_tool_responses_gemma4`` and
``gemma4_model_turn_builder``, mirror ``Raudbjorn/ggml-llama.cpp`` at ae1a0b1c), so that a
template of that kind renders what the model reads when llama.cpp serves it:

* an assistant message with calls, the ``role: tool`` messages right after it and, when the
  next message is an assistant message without calls and with content, that message, become
  one assistant message: the calls, ``tool_responses`` (one per result, in order) and the
  answer's content; the calls message's own content is not kept (llama.cpp drops it), its
  ``reasoning_content`` is;
* each result's ``response`` is its content decoded as JSON when it is JSON text, else the
  text itself; its ``name`` is the function of the call at the result's position among the
  results, else the result's ``tool_call_id``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["TOOL_RESPONSES", "fold_tool_responses"]

TOOL_RESPONSES = "tool_responses"
"""The name of this message form (``tool_results`` of :class:`tooletta.chat.MessageForm`)."""


def fold_tool_responses(
    messages: Sequence[Mapping[str, Any]], reasoning_key: str = "reasoning_content"
) -> list[dict[str, Any]]:
    """``messages`` (as templates receive them) with each call turn, its results and the
    answer after them folded into one assistant message (see the module docs).
    ``reasoning_key``: the key the calls turn's reasoning is under (kept as is)."""
    out: list[dict[str, Any]] = []
    i = 0
    while i < len(messages):
        message = messages[i]
        if message.get("role") != "assistant" or not _calls(message):
            out.append(dict(message))
            i += 1
            continue
        folded, i = _fold(messages, i, reasoning_key)
        out.append(folded)
    return out


def _fold(
    messages: Sequence[Mapping[str, Any]], at: int, reasoning_key: str
) -> tuple[dict[str, Any], int]:
    """The folded message starting at ``at`` and the index after what it took."""
    first = messages[at]
    calls = list(first["tool_calls"])
    responses: list[dict[str, Any]] = []
    at += 1
    while at < len(messages) and messages[at].get("role") == "tool":
        responses.append(_response(messages[at], calls, len(responses)))
        at += 1
    content: Any = None
    if at < len(messages) and messages[at].get("role") == "assistant":
        following = messages[at]
        if not _calls(following) and _has_content(following):
            content = following.get("content")
            at += 1
    folded: dict[str, Any] = {"role": "assistant", "tool_calls": calls}
    if responses:
        folded[TOOL_RESPONSES] = responses
    if content is not None:
        folded["content"] = content
    reasoning = first.get(reasoning_key)
    if isinstance(reasoning, str):
        folded[reasoning_key] = reasoning
    return folded, at


def _response(result: Mapping[str, Any], calls: Sequence[Any], index: int) -> dict[str, Any]:
    """One ``tool_responses`` entry for the result message ``result``."""
    response: Any = None
    if "content" in result:
        response = result["content"]
        if isinstance(response, str):
            with contextlib.suppress(ValueError):
                response = json.loads(response, parse_constant=_no_constant)
    name = ""
    if index < len(calls):
        function = calls[index].get("function") if isinstance(calls[index], Mapping) else None
        if isinstance(function, Mapping):
            name = str(function.get("name") or "")
    if not name:
        name = str(result.get("tool_call_id") or "")
    return {"name": name, "response": response}


def _no_constant(name: str) -> Any:
    """``NaN`` / ``Infinity`` are not JSON (llama.cpp's parser refuses them): the text stays."""
    raise ValueError(name)


def _calls(message: Mapping[str, Any]) -> bool:
    calls = message.get("tool_calls")
    return isinstance(calls, list) and bool(calls)


def _has_content(message: Mapping[str, Any]) -> bool:
    content = message.get("content")
    return isinstance(content, (str, list)) and bool(content)
