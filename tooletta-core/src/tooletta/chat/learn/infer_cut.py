"""The cut of an answer's text at a closing reasoning tag (QwQ, RWKV World, Reka Edge:
``content.split('</think>')[-1]``) in templates that write no reasoning of their own: which
answers it applies to, after which tag, what it strips from the rest, the kinds of answer it
spares, whether an emptied call turn keeps its lead; and the probes that check it."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from ...errors import LearnError
from ...ir import Message
from .infer_base import _fail, _find, _Step
from .probes import CALL_SETS, TOOLS, Probe, S, answer, calling, result, user

_CUT_MARKERS = ("</think>",)
"""Closing reasoning tags a template may cut an answer's text at (probed, in this order)."""
_LATER = (user(S.USER2), answer(S.ANSWER2))
"""A later exchange: an answer before it is in the history, where every cut rule applies."""


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
        # a call whose text is all cut, and its result: then an answer, last or in the history
        called = [user(), calling(one, S.REASONING + tag + "\n\n"), result(one[0], S.RESULT)]
        probes.append(Probe("content-cut+call", [*called, answer()], TOOLS))
        probes.append(
            Probe(
                "content-cut+results",
                [*called, answer(S.REASONING2 + tag + S.ANSWER), *_LATER],
                TOOLS,
            )
        )
    return probes


class _Cut(_Step):
    """The step that reads the cut of an answer's text at a closing reasoning tag."""

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
