"""Tool results: the result turn's header and footer (or the results grouped in one turn, with the
text around each and between them), the header of an answer after results when it is another,
the id a result's turn writes (its own ``tool_call_id`` or its call's), what the template
strips from a result's text, and whether it writes the text as a JSON string literal."""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from typing import Any

from ...ir import Message, ToolCall
from .infer_base import _TOKEN, _common_prefix, _common_suffix, _fail, _find, _Step
from .probes import CALL_SETS, RESULT_TEXT, TOOLS, S, answer, calling, result, user

_MARK = "\x00"
"""Stands for a result's id in the renders the results are learned from."""
_RESULT_ID = "Qz7idA"
"""A tool result's ``tool_call_id`` no call has: found in the text when the template writes
the result's own id."""


class _Results(_Step):
    """The step that reads how tool results are written."""

    def results(self) -> dict[str, Any]:
        """The results' layout: the tool turn's header and footer, the wrap around each
        result, grouping and separator (the quotes of a result written as a JSON string
        literal taken off the text around it: they are the encoding's)."""
        found = self._layout()
        if self.result_encoding is None:
            return found
        header, footer = found["tool"]
        w0, w1 = found["wrap"]
        if not (w0 or header).endswith('"') or not (w1 or footer).startswith('"'):
            raise _fail("result", "the JSON string of a tool result is not written whole")
        if w0:
            w0 = w0[:-1]
        else:
            header = header[:-1]
        if w1:
            w1 = w1[1:]
        else:
            footer = footer[1:]
        if found["grouped"] and not w1:
            raise _fail(
                "results", "grouped results written as JSON strings with nothing closing each"
            )
        return {**found, "tool": [header, footer], "wrap": [w0, w1]}

    def _layout(self) -> dict[str, Any]:
        o = self.o
        one, two = CALL_SETS["one"], CALL_SETS["two"]
        r1 = o.render([user(), calling(one), result(one[0], S.RESULT), answer()], TOOLS)
        beside = S.ANSWER if self.spec.get("content_beside_calls", True) else ""
        r2 = o.render(
            [
                user(),
                calling(two, beside),
                result(two[0], S.RESULT),
                result(two[1], S.RESULT2),
                answer(S.ANSWER2),
            ],
            TOOLS,
        )
        r1, r2, first_id = self._mark_result_ids(r1, r2)
        h_a, f_a = self.spec["turns"]["assistant"]
        h_u, f_u = self.spec["turns"]["user"]

        def around(text: str, res: str, ans: str, probe: str) -> tuple[str, str]:
            ia = _find(text, S.USER, probe) + len(S.USER) + len(f_u) + len(h_a)
            start = text.find(f_a, ia) + len(f_a) if f_a else -1
            ir = _find(text, res, probe)
            iend = _find(text, ans, probe)
            if not f_a or start < len(f_a) or start > ir:
                raise _fail(probe, "the call turn is not closed by its footer before the result")
            at = text.rfind(h_a, ir, iend) if h_a else -1
            if at < 0:  # the answer after the results has another header, or none
                end = max(ir + len(res), text.find(S.RESULT2) + len(S.RESULT2))
                return text[start:ir], self._after_results(text, end, iend, probe)
            return text[start:ir], text[ir + len(res) : at]

        pre, post = around(r1, S.RESULT, S.ANSWER, "result")
        self.result_strip = self._result_strip(pre.replace(_MARK, first_id), post)
        pre2, _ = around(r2, S.RESULT, S.ANSWER2, "results")
        if pre2 != pre:
            raise _fail("results", "the result turn opens differently after parallel calls")
        i1, i2 = r2.find(S.RESULT), r2.find(S.RESULT2)
        middle = r2[i1 + len(S.RESULT) : i2]
        if middle == post + pre:  # a turn per result
            if pre.startswith(h_u) and post.endswith(f_u) and len(pre) > len(h_u):
                header, w0 = h_u, pre[len(h_u) :]
                w1, footer = post[: len(post) - len(f_u)], f_u
            else:
                header, w0, w1, footer = pre, "", "", post
            return {
                "tool": [header, footer],
                "wrap": [w0, w1],
                "grouped": False,
                "separator": "",
            }
        n = _common_suffix(pre, middle)
        w0 = pre[len(pre) - n :]
        rest = middle[: len(middle) - n]
        m = _common_prefix(rest, post)
        w1, sep = rest[:m], rest[m:]
        if not (w0 or w1):
            raise _fail("results", "grouped results are not told apart by any text")
        return {
            "tool": [pre[: len(pre) - n], post[m:]],
            "wrap": [w0, w1],
            "grouped": True,
            "separator": sep,
        }

    def _after_results(self, text: str, end: int, answer_at: int, probe: str) -> str:
        """The results' closing text (what ends a conversation ending with the results), for a
        template whose answer after the results has another header than the assistant's, or
        none (DeepSeek: the model goes on in its turn). That header is kept as the spec's
        ``after_results``, the generation prompt after results as ``prompt_after_results``."""
        one = CALL_SETS["one"]
        convo = [user(), calling(one), result(one[0], S.RESULT)]
        ended = self.o.render(convo, TOOLS)
        post = ended[_find(ended, S.RESULT, "result+prompt") + len(S.RESULT) :]
        between = text[end:answer_at]
        if not between.startswith(post):
            raise _fail(probe, "the answer after the results has another header")
        header = between[len(post) :]
        if self.spec.setdefault("after_results", header) != header:
            raise _fail(probe, "the answer after the results opens differently after two results")
        prompted = self.o.render(convo, TOOLS, prompt=True)
        if not prompted.startswith(ended):
            raise _fail("result+prompt", "the generation prompt changes the text before it")
        self.spec["prompt_after_results"] = prompted[len(ended) :]
        return post

    def _mark_result_ids(self, r1: str, r2: str) -> tuple[str, str, str]:
        """``r1`` (one result) and ``r2`` (two) with the id each result's turn writes replaced
        by a mark, and the first result's id: the result's own ``tool_call_id`` when the
        template writes that (K2-Instruct's first template: ``## Return of ID``), or the id
        the template wrote for the call it answers (:attr:`result_id` says which, ``None``
        when the results carry no id)."""
        one, two = CALL_SETS["one"], CALL_SETS["two"]
        given = Message(role="tool", content=S.RESULT, tool_call_id=_RESULT_ID, name=one[0].name)
        probe = self.o.render([user(), calling(one), given, answer()], TOOLS)
        ids: list[str] = []
        if _RESULT_ID in probe:
            self.result_id = "message"
            ids = [str(c.id) for c in (*one, *two)]
        elif self.calls_spec.get("written_ids"):
            from ...catalog import get_dialect

            dialect = get_dialect(str(self.calls_spec["dialect"]))
            for calls in (one, two):
                bare = [ToolCall(c.name, c.arguments) for c in calls]
                ids += [str(c.id) for c in dialect.parse(dialect.render(bare)).calls]
            self.result_id = "call"
        if not ids or ids[0] not in r1[r1.find(S.USER) :]:
            self.result_id = None
            return r1, r2, ""

        def mark(text: str, pairs: Sequence[tuple[str, str]]) -> str:
            for call_id, sentinel in pairs:
                end = text.find(sentinel)
                at = text.rfind(call_id, 0, end)
                if end < 0 or at < 0:
                    raise _fail("results", f"the result {sentinel!r} is not written with its id")
                text = text[:at] + _MARK + text[at + len(call_id) :]
            return text

        r1 = mark(r1, [(ids[0], S.RESULT)])
        r2 = mark(r2, [(ids[1], S.RESULT), (ids[2], S.RESULT2)])
        return r1, r2, ids[0]

    def result_ids(self, found: dict[str, Any]) -> dict[str, Any]:
        """The results' layout with the id their turn writes taken out of the header and the
        wrap: the turn's header up to its last token, the text before the id as the wrap's
        opening, the id's source and the text after it (``id``)."""
        if self.result_id is None:
            return found
        header, footer = found["tool"]
        w0, w1 = found["wrap"]
        if _MARK in header:
            at = header.index(_MARK)
            ends = [m.end() for m in _TOKEN.finditer(header[:at])]
            cut = ends[-1] if ends else 0
            header, w0 = header[:cut], header[cut:] + w0
        if _MARK not in w0 or _MARK in w1 + footer:
            raise _fail("results", "the result's id is written outside its opening")
        before, after = w0.split(_MARK, 1)
        if not after:
            raise _fail("results", "nothing ends the id the result's turn writes")
        return {
            **found,
            "tool": [header, footer],
            "wrap": [before, w1],
            "id": {"source": self.result_id, "after": after},
        }

    def _result_strip(self, pre: str, post: str) -> list[str | None]:
        """What the template strips from a tool result's text, left and right (Qwen3.5);
        a text written as a JSON string literal (EXAONE 4.0's ``tojson``) is learned as
        :attr:`result_encoding`, with what is stripped before it is encoded."""
        one = CALL_SETS["one"]
        texts = []
        for raw in ("\n " + S.RESULT + " \n", " \n" + S.RESULT + "\n ", RESULT_TEXT):
            convo = [user(), calling(one), result(one[0], raw), answer()]
            texts.append((raw, self.o.render(convo, TOOLS)))
        strips = list(itertools.product(("", "\n", None), ("", "\n", None)))
        for left, right in strips:
            if all(pre + raw.lstrip(left).rstrip(right) + post in text for raw, text in texts):
                return [left, right]
        if pre.endswith('"') and post.startswith('"'):
            before, after = pre[:-1], post[1:]
            for (left, right), ascii_ in itertools.product(strips, (False, True)):
                if all(
                    before + json.dumps(raw.lstrip(left).rstrip(right), ensure_ascii=ascii_) + after
                    in text
                    for raw, text in texts
                ):
                    self.result_encoding = {"kind": "json_string", "ensure_ascii": ascii_}
                    return [left, right]
        raise _fail("result-spaces", "the template rewrites a tool result's text")
