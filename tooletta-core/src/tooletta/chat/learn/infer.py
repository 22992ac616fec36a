"""Differential probing: the spec of a chat template, from renders that differ in one thing.

Each step renders a few probe conversations with the template (:class:`~.oracle.Oracle`),
locates the sentinels in the text and reads the pieces between them: the start, each role's
header and footer, the system turn and the tool declarations, the assistant's calls (an
installed dialect that writes them byte for byte, else a learned JSON-in-markers form), tool
results, reasoning and its history rule, the generation prompt per option switch. What no
declaration expresses raises :class:`~tooletta.LearnError` naming the probe; the closed loop
(:mod:`.verify`) then checks the whole spec on every probe.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ...errors import LearnError
from ...ir import Message
from .history import (
    history_probes,
)
from .infer_base import _TOKEN, _fail, _find
from .infer_calls import _Calls, _ids_across
from .infer_reasoning import _Reasoning
from .infer_results import _Results
from .infer_strips import _Strips
from .infer_tools import _Tools
from .infer_turns import _Turns
from .names import header_names, result_names, slot_in
from .oracle import Oracle
from .probes import (
    CALL_SETS,
    TOOLS,
    Probe,
    S,
    answer,
    calling,
    probe_suite,
    result,
    system,
    user,
)

__all__ = ["fit_suite", "infer_spec", "spec_json", "switches_of"]

_KNOWN_VARIABLES = frozenset(
    {
        "messages",
        "tools",
        "add_generation_prompt",
        "bos_token",
        "eos_token",
        "raise_exception",
        "strftime_now",
        "range",
        "namespace",
        "dict",
        "lipsum",
        "cycler",
        "joiner",
        "true",
        "false",
        "none",
        "True",
        "False",
        "None",
    }
)
_SWITCH = re.compile(r"think|reason", re.IGNORECASE)


def switches_of(template: str) -> list[str]:
    """The template variables that look like reasoning switches (``enable_thinking``...)."""
    try:
        import jinja2
        from jinja2 import meta
    except ImportError:  # pragma: no cover - the oracle needs jinja2 first
        return []
    source = re.sub(r"\{%-?\s*(end)?generation\s*-?%\}", "", template)
    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols"])
    try:
        names = meta.find_undeclared_variables(env.parse(source))
    except jinja2.TemplateError:
        return []
    return sorted(n for n in names - _KNOWN_VARIABLES if _SWITCH.search(n))


class _Inference(_Turns, _Tools, _Calls, _Results, _Reasoning, _Strips):
    # -- turns -------------------------------------------------------------------------------

    # -- tools -------------------------------------------------------------------------------

    # -- calls -------------------------------------------------------------------------------

    # -- results -----------------------------------------------------------------------------

    # -- reasoning ---------------------------------------------------------------------------

    # -- content and late system messages ---------------------------------------------------

    def content_cut(self, reasoning: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """Whether the template drops an answer's text up to a closing reasoning tag in it
        (QwQ's history answers, RWKV World's and Reka Edge's every answer:
        ``content.split('</think>')[-1]``), in which answers (``where``: ``all``, those that
        are ``not_last`` message, or those ``before_last_user``), after the ``first`` or the
        ``last`` tag (``which``), and what it strips from the rest (``strip``). Only for
        templates that write no reasoning of their own (one that does moves such text into
        its reasoning block: another rule)."""
        if reasoning is not None:
            return None
        o = self.o
        for marker in _CUT_MARKERS:
            text = S.REASONING + marker + S.ANSWER

            def cut(messages: list[Message], gone: str = S.REASONING) -> bool:
                try:
                    written = o.render(messages)
                except LearnError:
                    return False
                return gone not in written and S.ANSWER in written

            in_last = cut([user(), answer(text)])
            in_history = cut([user(), answer(text), user(S.USER2)])
            if not (in_last or in_history):
                continue
            if in_last != in_history and in_last:
                raise _fail("content-cut", f"the template cuts the last answer at {marker!r} only")
            if in_last:
                where = "all"
            else:
                twice = cut([user(), answer(text), answer(S.ANSWER2)])
                where = "not_last" if twice else "before_last_user"
            history = where != "all"
            two = S.REASONING + marker + S.REASONING2 + marker + S.ANSWER
            if history:
                last_tag = cut([user(), answer(two), user(S.USER2)], S.REASONING2)
            else:
                last_tag = cut([user(), answer(two)], S.REASONING2)
            strips = [self._cut_strip(marker, history)]
            if where == "all":
                strips.append(self._cut_strip(marker, True))
            if strips[0] != strips[-1]:
                raise _fail("content-cut", "the text after the tag is stripped by its position")
            return {
                "marker": marker,
                "where": where,
                "which": "last" if last_tag else "first",
                "strip": strips[0],
            }
        return None

    def cut_lead(self, cut: Mapping[str, Any]) -> bool:
        """Whether a call turn whose text the cut leaves empty is written with the lead of a
        turn with text (QwQ tests the text before cutting it) or as a call-only turn (Reka
        Edge tests it after)."""
        one = CALL_SETS["one"]
        h_a, f_a = self.spec["turns"]["assistant"]
        f_u = self.spec["turns"]["user"][1]

        def body(content: str) -> str:
            messages = [user(), calling(one, content), result(one[0], S.RESULT), answer()]
            messages += _LATER  # the call turn in the history: every rule's place
            text = self.o.render(messages, TOOLS)
            start = text.find(S.USER) + len(S.USER) + len(f_u) + len(h_a)
            end = text.find(f_a, start) if f_a else -1
            if end < 0:
                raise _fail("content-cut+call", "the call turn is not closed by its footer")
            return text[start:end]

        alone, emptied = body(""), body(S.REASONING + str(cut["marker"]))
        if emptied == alone:
            return False
        lead_alone = str(self.calls_spec.get("lead_alone", ""))
        lead = str(self.calls_spec.get("lead_content", ""))
        if alone.startswith(lead_alone) and emptied == lead + alone[len(lead_alone) :]:
            return True
        raise _fail("content-cut+call", "a call turn whose text is all cut is written otherwise")

    def cut_spared(self, cut: Mapping[str, Any]) -> list[str]:
        """The kinds of answer the cut leaves as given though its rule's place applies
        (DeepSeek V3.1's edit cuts only answers with no calls, and not those right after tool
        results): ``calls``, a turn with calls, and ``after_results``, an answer right after
        tool results, each probed in the history (before a later user message)."""
        one = CALL_SETS["one"]
        tagged = S.REASONING + str(cut["marker"]) + "\n\n"
        kinds = {
            "calls": [user(), calling(one, tagged), result(one[0], S.RESULT), answer()],
            "after_results": [
                user(),
                calling(one),
                result(one[0], S.RESULT),
                answer(tagged + S.ANSWER),
            ],
        }
        spared = []
        for kind, messages in kinds.items():
            text = self.o.render([*messages, *_LATER], TOOLS)
            if S.REASONING in text[_find(text, S.USER, "content-cut+results") :]:
                spared.append(kind)
        return spared

    def _cut_strip(self, marker: str, history: bool) -> list[str | None]:
        """What the template strips from the text after the tag it cuts an answer at (in an
        earlier answer, or the last)."""
        h_a, f_a = self.spec["turns"]["assistant"]
        h_u, f_u = self.spec["turns"]["user"]
        seen = []
        for raw in ("\n " + S.ANSWER + " \n", " \n" + S.ANSWER + "\n "):
            given = answer(S.REASONING + marker + raw)
            if history:
                text = self.o.render([user(), given, user(S.USER2)])
                end = text.find(f_a + h_u + S.USER2)
            else:
                text = self.o.render([user(), given])
                end = len(text) - (0 if self.spec.get("open_last") else len(f_a))
            start = text.find(S.USER) + len(S.USER) + len(f_u) + len(h_a)
            if start > end or end < 0:
                raise _fail("content-cut", "an answer cut at its tag is written otherwise")
            seen.append((raw, text[start:end]))
        for left, right in itertools.product(("", "\n", None), ("", "\n", None)):
            if all(body == raw.lstrip(left).rstrip(right) for raw, body in seen):
                return [left, right]
        raise _fail("content-cut", f"the template rewrites the text after the tag: {seen!r}")

    def empty_system(self) -> bool | str:
        """How the template writes an empty first system message (without tools): as no
        system message (``True``: RWKV World writes the system turn only for a text
        ``!= ''``, Reka Edge and Granite 4.1 only for one they hold), as another system
        text (that text: Granite 4.0 writes its default prompt), or as it is (``False``)."""
        if not self.spec["system"]:
            return False
        try:
            empty = self.o.render([system(""), user()])
        except LearnError:
            return False
        if empty == self.o.render([user()]):
            return True
        h_s, f_s = self.spec["turns"]["system"]
        h_u = self.spec["turns"]["user"][0]
        start = self.spec["bos"] + h_s
        end = empty.find(f_s + h_u + S.USER)
        if empty.startswith(start) and end > len(start):
            text = empty[len(start) : end]
            if self.o.render([system(text), user()]) == empty:
                return text
        return False

    def late_system(self) -> bool:
        """Whether the template writes a system message that is not the first message."""
        if not self.spec["system"]:
            return False
        try:
            text = self.o.render([user(), answer(), system(), user(S.USER2)])
        except LearnError:  # refused by the template (Qwen3.5): refused by the format too
            return False
        return S.SYSTEM in text

    # -- switches ----------------------------------------------------------------------------

    def switches(self, names: Sequence[str], suite: Any) -> tuple[list[Any], dict[str, Any]]:
        """The generation prompt under each value of each switch, and the switches that change
        more than the prompt (fixed at the value learned with)."""
        prompts: list[Any] = list(self.spec["prompts"])
        fixed: dict[str, Any] = {}
        base_probes = [p for p in suite if not p.prompt]
        base = {p.name: self._render_probe(p, {}) for p in base_probes}
        for name in names:
            if name in self.o.options:
                fixed[name] = [self.o.options[name]]
                continue
            allowed: list[Any] = [None]
            found: list[Any] = []
            for value in (True, False):
                if any(self._render_probe(p, {name: value}) != base[p.name] for p in base_probes):
                    continue
                allowed.append(value)
                switch: dict[str, Any] = {name: value}
                r_u = self.o.render([user()], None, False, **switch)
                r_up = self.o.render([user()], None, True, **switch)
                if not r_up.startswith(r_u):
                    raise _fail("user+prompt", f"with {name}={value!r}, the prompt is not a suffix")
                prompt = r_up[len(r_u) :]
                if prompt != prompts[0][1]:
                    found.append([{name: value}, prompt])
            prompts += found
            if len(allowed) < 3:
                fixed[name] = allowed
        return prompts, fixed

    def _render_probe(self, probe: Any, options: Mapping[str, Any]) -> str:
        return self.o.render(probe.messages, probe.tools, probe.prompt, **options)


_CUT_MARKERS = ("</think>",)
"""Closing reasoning tags a template may cut an answer's text at (probed, in this order)."""
_LATER = (user(S.USER2), answer(S.ANSWER2))
"""A later exchange: an answer before it is in the history, where every cut rule applies."""


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


def _empty_system_probes() -> list[Probe]:
    """An empty system message. (Not with the tools: a template may write the tools with an
    empty system message as without one, QwQ does, and the text then carries none.)"""
    return [Probe("system-empty", [system(""), user(), answer()])]


def _cut_probes(cut: Mapping[str, Any] | None, calls: bool) -> list[Probe]:
    """The probes of a learned cut: answers holding the tag, in the history and last, and a
    call turn whose text is all cut (the template still writes the lead of a turn with text)."""
    if not cut:
        return []
    tag = str(cut["marker"])
    probes = [
        Probe(
            "content-cut",
            [
                user(),
                answer(S.REASONING + tag + "\n\n" + S.ANSWER),
                user(S.USER2),
                answer(S.REASONING2 + tag + S.ANSWER2),
            ],
        )
    ]
    if calls:
        one = CALL_SETS["one"]
        probes.append(
            Probe(
                "content-cut+call",
                [
                    user(),
                    calling(one, S.REASONING + tag + "\n\n"),
                    result(one[0], S.RESULT),
                    answer(),
                ],
                TOOLS,
            )
        )
        probes.append(
            Probe(
                "content-cut+results",
                [
                    user(),
                    calling(one, S.REASONING + tag + "\n\n"),
                    result(one[0], S.RESULT),
                    answer(S.REASONING2 + tag + S.ANSWER),
                    *_LATER,
                ],
                TOOLS,
            )
        )
    return probes


def infer_spec(
    oracle: Oracle, bos_token: str, switches: Sequence[str]
) -> tuple[dict[str, Any], list[Probe]]:
    """The chat and calls spec of the template behind ``oracle`` (see the module doc), and
    the probe suite that fits it (the closed loop runs it)."""
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
    if chat["system"]:
        suite += _empty_system_probes()
    suite.append(_named_probe())
    if chat.get("content_beside_calls") is False:
        suite = fit_suite(chat, suite)
    oracle.nameless_results = False
    if names:
        if "after_results" in chat:
            raise _fail("named", "a header naming the message and another after tool results")
        chat["names"] = names
    prompts, fixed = inf.switches(switches, suite)
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
