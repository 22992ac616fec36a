"""Id policies per target, applied to a whole conversation so results follow their calls.

Reading never rewrites ids; writing for a target with id rules maps every call id
deterministically and gives each tool result the id its call got (ECOSYSTEM.md §5):

==============  ==========================================================================
``keep``        ids untouched (missing ids stay missing)
``openai``      ids of at most 40 characters kept (OpenAI's limit); missing or longer ids
                become ``call_`` + 24 alphanumerics (stable hash)
``mistral``     exactly 9 of ``[A-Za-z0-9]``: valid ids kept, others derived by stable hash
``anthropic``   ``[A-Za-z0-9_-]+``: unsafe characters replaced (plus a hash suffix); missing
                ids become ``toolu_`` + 24 alphanumerics
``kimi``        ``functions.NAME:IDX``; ``IDX`` counts calls in the conversation (or in the
                message, ``kimi_scope="message"``, as tinker-cookbook does)
==============  ==========================================================================

Missing ids are derived from the call's position in the conversation, its name and its
arguments, so the same conversation always maps to the same ids. Writers for targets that
require ids (OpenAI Chat, Responses, Anthropic) fill the ids ``keep`` (or ``kimi``'s unmatched
results) leave missing with :func:`~tooletta.interop.ensure_ids`, so their output is always valid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

import msgspec

from ..ir import ToolCall
from ..limits import derived_call_id
from ..toolkit.ids import mistral_id, sanitize_id
from ._util import dumps_arguments, stable_token
from .message import Message, pair_results

__all__ = ["ID_POLICIES", "IdMapper", "IdPolicy", "adopt_result_ids", "ensure_ids", "map_ids"]

IdPolicy = Literal["keep", "openai", "mistral", "anthropic", "kimi"]
"""The id policy names."""

ID_POLICIES: tuple[str, ...] = ("keep", "openai", "mistral", "anthropic", "kimi")
"""Every id policy name, in documentation order."""

_OPENAI_MAX = 40


class IdMapper:
    """Maps the tool-call ids of one conversation to a target's rules.

    Call it on a conversation (a sequence of :class:`~tooletta.interop.Message`); it returns
    the messages with every call id mapped and every tool result's ``tool_call_id`` set to the
    mapped id of the call it answers (found by :func:`~tooletta.interop.pair_results`). A
    result that answers no call keeps its id mapped on its own. ``mapping`` records each
    original id's new id (the latest, when an id repeats).
    """

    def __init__(
        self,
        policy: IdPolicy = "keep",
        *,
        kimi_scope: Literal["conversation", "message"] = "conversation",
    ) -> None:
        if policy not in ID_POLICIES:
            raise ValueError(f"unknown id policy {policy!r}; expected one of {ID_POLICIES}")
        self.policy: IdPolicy = policy
        self.kimi_scope = kimi_scope
        self.mapping: dict[str, str] = {}

    def map_call_id(self, call: ToolCall, position: int, index_in_message: int) -> str | None:
        """The id ``call`` gets: ``position`` counts calls in the conversation (from 0)."""
        old = call.id
        if self.policy == "keep":
            return old
        if self.policy == "kimi":
            idx = position if self.kimi_scope == "conversation" else index_in_message
            return f"functions.{call.name}:{idx}"
        seed = f"{position}:{call.name}:{dumps_arguments(call.arguments)}"
        return self.map_id(old, seed)

    def map_id(self, old: str | None, seed: str) -> str | None:
        """Map one id by the policy alone (``seed`` derives an id when ``old`` is ``None``).

        Under ``kimi`` an id cannot be derived without its call, so it is returned as is.
        """
        if self.policy in ("keep", "kimi"):
            return old
        if self.policy == "mistral":
            return mistral_id(old, seed)
        if self.policy == "anthropic":
            return sanitize_id(old) if old else "toolu_" + stable_token(seed, 24)
        if old and len(old) <= _OPENAI_MAX:
            return old
        return "call_" + stable_token(old if old else seed, 24)

    def __call__(self, messages: Sequence[Message]) -> list[Message]:
        """The conversation with ids mapped, calls and results together."""
        if self.policy == "keep":
            return list(messages)
        out: list[Message] = []
        new_ids: dict[tuple[int, int], str | None] = {}
        position = 0
        for mi, msg in enumerate(messages):
            if msg.role == "assistant" and msg.tool_calls:
                calls = []
                for ci, call in enumerate(msg.tool_calls):
                    new = self.map_call_id(call, position, ci)
                    position += 1
                    new_ids[mi, ci] = new
                    if call.id is not None and new is not None:
                        self.mapping[call.id] = new
                    calls.append(msgspec.structs.replace(call, id=new))
                msg = msgspec.structs.replace(msg, tool_calls=calls)
            out.append(msg)
        pairs = pair_results(messages)
        for ri, msg in enumerate(out):
            if msg.role != "tool":
                continue
            if ri in pairs:
                new = new_ids[pairs[ri]]
            elif msg.tool_call_id is not None:
                new = self.map_id(msg.tool_call_id, msg.tool_call_id)
            else:
                continue
            out[ri] = msgspec.structs.replace(msg, tool_call_id=new)
        return out


def map_ids(
    messages: Sequence[Message],
    policy: IdPolicy,
    *,
    kimi_scope: Literal["conversation", "message"] = "conversation",
) -> list[Message]:
    """Shorthand for ``IdMapper(policy, kimi_scope=...)(messages)``."""
    return IdMapper(policy, kimi_scope=kimi_scope)(messages)


def ensure_ids(messages: Sequence[Message], prefix: str) -> list[Message]:
    """The conversation with every missing call id filled, and results following their calls.

    A call without an id gets ``prefix`` + 24 alphanumerics derived from its position in the
    conversation, its name and its arguments (exactly the id the ``openai`` policy derives
    when ``prefix`` is ``"call_"``); a tool result without ``tool_call_id`` that answers such a
    call (:func:`~tooletta.interop.pair_results`) gets the same id. Ids already set are kept.

    A call without an id that the results after its turn answer by position (a result whose
    ``tool_call_id`` names no call of that turn: the model text held no ids, the dataset's
    results still do) takes that result's id instead, so the pair stays matched
    (:func:`adopt_result_ids`).
    """
    if all(c.id is not None for m in messages for c in m.tool_calls):
        return list(messages)
    messages = adopt_result_ids(messages)
    if all(c.id is not None for m in messages for c in m.tool_calls):
        return list(messages)
    out = list(messages)
    new_ids: dict[tuple[int, int], str] = {}
    position = 0
    for mi, msg in enumerate(messages):
        if msg.role != "assistant" or not msg.tool_calls:
            continue
        calls = []
        for ci, call in enumerate(msg.tool_calls):
            if call.id is None:
                arguments = dumps_arguments(call.arguments)
                new = new_ids[mi, ci] = derived_call_id(call.name, arguments, position, prefix)
                call = msgspec.structs.replace(call, id=new)
            calls.append(call)
            position += 1
        out[mi] = msgspec.structs.replace(msg, tool_calls=calls)
    for ri, pair in pair_results(messages).items():
        if out[ri].tool_call_id is None and pair in new_ids:
            out[ri] = msgspec.structs.replace(out[ri], tool_call_id=new_ids[pair])
    return out


def adopt_result_ids(messages: Sequence[Message]) -> list[Message]:
    """The conversation with each call that has no id given the id of the tool result that
    answers it by position: the results right after an assistant turn, in order, whose
    ``tool_call_id`` names none of that turn's calls (a result naming a call of the turn by
    its ``name`` answers the first such call without an id, as
    :func:`~tooletta.interop.pair_results` pairs them). Calls no such result answers keep no
    id."""
    out = list(messages)
    for mi, msg in enumerate(messages):
        if msg.role != "assistant" or all(c.id is not None for c in msg.tool_calls):
            continue
        known = {c.id for c in msg.tool_calls if c.id is not None}
        free = [ci for ci, c in enumerate(msg.tool_calls) if c.id is None]
        given: dict[int, str] = {}
        for result in messages[mi + 1 :]:
            if result.role != "tool":
                break
            rid = result.tool_call_id
            if rid is None or rid in known or rid in given.values() or not free:
                continue
            named = [ci for ci in free if msg.tool_calls[ci].name == result.name]
            ci = named[0] if result.name is not None and named else free[0]
            free.remove(ci)
            given[ci] = rid
        if given:
            calls = [
                msgspec.structs.replace(c, id=given[ci]) if ci in given else c
                for ci, c in enumerate(msg.tool_calls)
            ]
            out[mi] = msgspec.structs.replace(msg, tool_calls=calls)
    return out
