"""Differential probing: the spec of a chat template, from renders that differ in one thing.

Each step renders a few probe conversations with the template (:class:`~.oracle.Oracle`),
locates the sentinels in the text and reads the pieces between them: the start, each role's
header and footer, the system turn and the tool declarations, the assistant's calls (an
installed dialect that writes them byte for byte, else a learned JSON-in-markers form), tool
results, reasoning and its history rule, the generation prompt per option switch. What no
declaration expresses raises :class:`~tooletta.LearnError` naming the probe; the closed loop
(:mod:`.verify`) then checks the whole spec on every probe.

This module assembles the steps, each in a module of its own: :mod:`.infer_turns` (the start,
each role's turn), :mod:`.infer_tools` (the tool declarations), :mod:`.infer_calls` (the calls
and their format), :mod:`.infer_results` (tool results), :mod:`.infer_reasoning` (reasoning and
its history rule), :mod:`.infer_strips` (what is stripped from each message's text),
:mod:`.infer_cut` (an answer cut at a closing reasoning tag), :mod:`.infer_system` (empty and
later system messages) and :mod:`.infer_prompts` (the generation prompt per switch), all on the
state :mod:`.infer_base` holds.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ...ir import Message
from .history import history_probes
from .infer_base import _TOKEN, _fail
from .infer_calls import _Calls, _ids_across
from .infer_cut import _Cut, _cut_probes
from .infer_prompts import _Prompts, switches_of, variables_of
from .infer_reasoning import _Reasoning
from .infer_results import _Results
from .infer_strips import _Strips
from .infer_system import _empty_system_probes, _System
from .infer_tools import _Tools
from .infer_turns import _Turns
from .names import header_names, result_names, slot_in
from .oracle import Oracle
from .probes import Probe, S, probe_suite, user

__all__ = ["fit_suite", "infer_spec", "spec_json", "switches_of", "variables_of"]


class _Inference(_Turns, _Tools, _Calls, _Results, _Reasoning, _Strips, _Cut, _System, _Prompts):
    """Every step of the inference on one oracle, sharing the state of :class:`~.infer_base._Step`:
    :func:`infer_spec` runs them in order."""


def _plain_footers(chat: Mapping[str, Any]) -> bool:
    """Whether the user and assistant turns (and the system turn) end with plain text, no
    special token (RWKV World's ``\\n\\n``): text a message may hold too, so a turn ends only
    where its footer is followed by the next turn (or the generation prompt, or the end)."""
    turns = chat["turns"]
    footers = [turns[role][1] for role in ("user", "assistant", "system") if role in turns]
    if chat.get("open_last") or (chat.get("tools") or {}).get("own_turn"):
        return False  # not learned together: such a template is refused by the closed loop
    return all(f and not _TOKEN.search(f) for f in footers)


def _named_probe() -> Probe:
    """A user and an assistant message with a ``name``: a template that writes names (Kimi
    writes them in the headers) is refused, not learned as if it wrote none."""
    named_user = Message(role="user", content=S.USER, name="Qz7nmU")
    named_answer = Message(role="assistant", content=S.ANSWER, name="Qz7nmA")
    return Probe("named", [named_user, named_answer, user(S.USER2)], prompt=True)


def infer_spec(
    oracle: Oracle, bos_token: str, switches: Sequence[str], others: Sequence[str] = ()
) -> tuple[dict[str, Any], list[Probe]]:
    """The chat and calls spec of the template behind ``oracle`` (see the module doc), and
    the probe suite that fits it (the closed loop runs it). ``switches``: the reasoning
    switches the template reads; ``others``: its other variables (fixed at their neutral
    values when they change the text)."""
    inf = _Inference(oracle, bos_token)
    chat = inf.turns()
    names = header_names(oracle, chat["turns"])
    chat["tools"] = inf.tools()
    chat["reasoning"] = inf.reasoning()
    chat["content_strip"] = inf.content_strip(chat["reasoning"])
    chat["history_strip"] = inf.history_strip
    chat["content_cut"] = inf.content_cut(chat["reasoning"])
    chat["plain_footers"] = _plain_footers(chat)
    chat["late_system"] = inf.late_system()
    chat["empty_system"] = inf.empty_system()
    chat["user_strip"] = inf.user_strip()
    chat["system_strip"] = inf.system_strip()
    calls: dict[str, Any] = {"kind": "none"}
    results: dict[str, Any] = {"wrap": ["", ""], "grouped": False, "separator": ""}
    writes_calls = inf.writes_calls()
    if writes_calls:
        calls = inf.calls(inf.call_bodies(chat["reasoning"]))
        if calls.get("written_ids") and _ids_across(inf.o, calls):
            calls["ids_across"] = True
        named = result_names(oracle)
        oracle.nameless_results = named is not None  # learn the layout without the names
        found = inf.result_ids(inf.results())
        chat["turns"]["tool"] = found.pop("tool")
        if named is not None:
            slot = slot_in(named[0], chat["turns"]["tool"][0], named[1])
            if slot is None:
                raise _fail("result", "the template writes a tool result's name outside its header")
            names["tool"] = slot
        results = {**found, "strip": inf.result_strip}
        if inf.result_encoding is not None:
            results["encoding"] = inf.result_encoding
    elif chat["tools"] is not None:
        raise _fail(
            "call",
            "the template declares tools but writes no assistant tool_calls (it may expect "
            "the calls inside the content)",
        )
    chat["results"] = results
    if chat["content_cut"] and writes_calls:
        spared = inf.cut_spared(chat["content_cut"])
        chat["content_cut"]["spared"] = spared
        # no text beside calls (the learned format refuses it): no cut text beside them either
        beside = chat.get("content_beside_calls", True)
        chat["content_cut"]["lead"] = (
            "calls" not in spared and beside and inf.cut_lead(chat["content_cut"])
        )
    suite = probe_suite(
        reasoning=True,
        tools=writes_calls or chat["tools"] is not None,
        late_system=chat["late_system"],
        with_system=chat["system"],
    )
    suite += _cut_probes(chat["content_cut"], writes_calls)
    suite += history_probes(inf.history, writes_calls)
    if chat["system"] and not inf.empty_refused:
        suite += _empty_system_probes()
    suite.append(_named_probe())
    if chat.get("content_beside_calls") is False:
        suite = fit_suite(chat, suite)
    oracle.nameless_results = False
    if names:
        if "after_results" in chat:
            raise _fail("named", "a header naming the message and another after tool results")
        chat["names"] = names
    prompts, fixed = inf.switches(switches, suite, others)
    chat["prompts"] = prompts
    chat["fixed"] = fixed
    chat["options"] = dict(oracle.options)
    if oracle.content_parts:  # the message form the template takes (recorded, not rendered)
        chat["content_parts"] = True
    return {"chat": chat, "calls": calls}, suite


def fit_suite(chat: Mapping[str, Any], probes: Sequence[Probe]) -> list[Probe]:
    """``probes`` as the learned chat spec ``chat`` can express them: without the text beside
    calls where the template writes none (``content_beside_calls``: the learned format refuses
    such a message; the probe is checked with the calls alone)."""
    if chat.get("content_beside_calls", True):
        return list(probes)
    out = []
    for probe in probes:
        if any(m.tool_calls and m.content for m in probe.messages):
            messages = [
                msgspec.structs.replace(m, content="") if m.tool_calls and m.content else m
                for m in probe.messages
            ]
            probe = dataclasses.replace(probe, messages=messages)
        out.append(probe)
    return out


def spec_json(spec: Mapping[str, Any]) -> str:
    """``spec`` as canonical JSON text (saved files, hashes)."""
    return json.dumps(spec, ensure_ascii=False, indent=2, sort_keys=True)
