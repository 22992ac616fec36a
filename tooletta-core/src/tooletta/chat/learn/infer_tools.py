"""The tool declarations: each tool as ``tojson`` of the tool or of its function (indent,
separators, escaping) or all of them as one JSON list, the text before, between and after
them, and where they go with and without a system message, or in a turn of their own right
after the start (Kimi's ``tool_declare`` turn)."""

from __future__ import annotations

import itertools
from typing import Any

from ...errors import LearnError
from .chatspec import tools_text
from .infer_base import _TOKEN, _common_suffix, _fail, _Step
from .probes import TOOLS, S, system, user


def _placed(layout: dict[str, Any], b1: str, bs: str, one: str) -> dict[str, Any]:
    """The tools spec of ``layout`` (``item``, ``head``, ``join``, ``tail`` as found in the
    system turn's body ``b1`` with one tool, ``one`` that tool's declaration) placed by ``bs``,
    the body with one tool and the system message: the tools first (Qwen3.5: the message
    after them), or the message first, the text between it and the declarations split from
    the head they share."""
    head, tail = str(layout["head"]), str(layout["tail"])
    if bs.endswith(S.SYSTEM) and bs.startswith(b1):  # the tools first (Qwen3.5)
        return {
            **layout,
            "with_system": bs[len(b1) : len(bs) - len(S.SYSTEM)],
            "without_system": "",
            "system_first": False,
        }
    if not bs.startswith(S.SYSTEM) or not bs.endswith(one + tail):
        raise _fail("tools+system", "the tools are written around the system message")
    before = bs[len(S.SYSTEM) : len(bs) - len(one + tail)]
    n = _common_suffix(head, before)
    return {
        **layout,
        "head": head[len(head) - n :],
        "with_system": before[: len(before) - n],
        "without_system": head[: len(head) - n],
        "system_first": True,
    }


def _tool_items(one_tool: str, two_tools: str) -> dict[str, Any] | None:
    """How the template writes the tool list, from its text with one tool and with two: each
    tool as ``tojson`` of the tool (first: a tool's other keys are written too) or of its
    function (indent, separators, escaping), the text before, between and after them.
    ``None`` when no such form writes both."""
    for what, indent, seps, ascii_ in itertools.product(
        ("tool", "function"), (None, 2, 4), (None, (",", ":")), (False, True)
    ):
        item = {"what": what, "indent": indent, "separators": seps, "ensure_ascii": ascii_}
        bare = {"item": item, "head": "", "join": "", "tail": ""}
        one, two = tools_text(TOOLS[:1], bare), tools_text(TOOLS[1:], bare)
        i1, i2 = two_tools.find(one), two_tools.find(two)
        if i1 < 0 or i2 < i1 + len(one):
            continue
        head, join, tail = two_tools[:i1], two_tools[i1 + len(one) : i2], two_tools[i2 + len(two) :]
        if one_tool == head + one + tail:
            return {"item": item, "head": head, "join": join, "tail": tail}
    return None


class _Tools(_Step):
    """The step that reads the tool declarations."""

    def tools(self) -> dict[str, Any] | None:
        o = self.o
        r_u = o.render([user()])
        r_t1 = o.render([user()], TOOLS[:1])
        if not self.spec["system"]:
            if r_t1 != r_u:
                raise _fail("tools", "the tools are declared, but the template has no system turn")
            return None
        if r_t1 == r_u:
            if o.render([system(), user()], TOOLS[:1]) != o.render([system(), user()]):
                raise _fail("tools", "the tools are declared only with a system message")
            return None
        r_t2 = o.render([user()], TOOLS)
        r_st = o.render([system(), user()], TOOLS[:1])
        bos = self.spec["bos"]
        h_s, f_s = self.spec["turns"]["system"]
        tail_ = f_s + self._user_after_system() + S.USER

        def system_body(text: str, probe: str) -> str:
            start = bos + h_s
            end = text.find(tail_)
            if not text.startswith(start) or end < len(start):
                raise _fail(probe, "the tool declarations are not written in the system turn")
            return text[len(start) : end]

        try:
            b1, b2 = system_body(r_t1, "tools"), system_body(r_t2, "tools")
        except LearnError:
            own = self.own_turn_tools(r_u, r_t1, r_t2, r_st)
            if own is None:
                raise
            return own
        bs = system_body(r_st, "tools+system")
        b1, b2, bs = self._without_suffix(b1, b2, bs)
        for what, indent, seps, ascii_ in itertools.product(
            ("function", "tool"), (None, 2, 4), (None, (",", ":")), (False, True)
        ):
            item = {"what": what, "indent": indent, "separators": seps, "ensure_ascii": ascii_}
            one = tools_text(TOOLS[:1], {"item": item, "head": "", "join": "", "tail": ""})
            two = tools_text(TOOLS[1:], {"item": item, "head": "", "join": "", "tail": ""})
            i1, i2 = b2.find(one), b2.find(two)
            if i1 < 0 or i2 < i1 + len(one):
                continue
            head, join, tail = b2[:i1], b2[i1 + len(one) : i2], b2[i2 + len(two) :]
            if b1 != head + one + tail:
                continue
            return _placed({"item": item, "head": head, "join": join, "tail": tail}, b1, bs, one)
        listed = self._listed_tools(b1, b2, bs)
        if listed is not None:
            return listed
        raise _fail("tools", "the tool declarations are not tojson of each tool or function")

    def _without_suffix(self, b1: str, b2: str, bs: str) -> tuple[str, str, str]:
        """The system turn's bodies with one tool, two, and one and the system message,
        without the template's own text after the message (spec ``system_suffix``: the
        default system prompt, written after the declarations without a message and after
        the message with one), so that they read as the declarations before a message."""
        suffix = self.spec.get("system_suffix")
        if suffix is None:
            return b1, b2, bs
        own = str(self.spec["default_system"])
        if not (b1.endswith(own) and b2.endswith(own) and bs.endswith(S.SYSTEM + suffix)):
            raise _fail(
                "tools+system",
                "the template's own text after the system message is not written after the "
                "tool declarations",
            )
        cut = len(own)
        return b1[: len(b1) - cut], b2[: len(b2) - cut], bs[: len(bs) - len(suffix)]

    def _listed_tools(self, b1: str, b2: str, bs: str) -> dict[str, Any] | None:
        """The tool declarations written as one JSON list (llama.cpp's DeepSeek-R1 template:
        ``tools | map(attribute='function') | tojson(indent=2)``, whose items are indented
        inside the list), in the system turn's body ``b1`` (one tool), ``b2`` (two) and
        ``bs`` (one tool and the system message): the spec's ``item`` says ``list``.
        ``None`` when the bodies are not that."""
        for what, indent, seps, ascii_ in itertools.product(
            ("function", "tool"), (None, 2, 4), (None, (",", ":")), (False, True)
        ):
            item = {
                "what": what,
                "indent": indent,
                "separators": seps,
                "ensure_ascii": ascii_,
                "list": True,
            }
            bare = {"item": item, "head": "", "join": "", "tail": ""}
            one, two = tools_text(TOOLS[:1], bare), tools_text(TOOLS, bare)
            at = b2.find(two)
            if at < 0:
                continue
            head, tail = b2[:at], b2[at + len(two) :]
            if b1 != head + one + tail:
                continue
            return _placed({"item": item, "head": head, "join": "", "tail": tail}, b1, bs, one)
        return None

    def own_turn_tools(self, r_u: str, r_t1: str, r_t2: str, r_st: str) -> dict[str, Any] | None:
        """The tool declarations written in a turn of their own right after the start,
        before the opening system turn (Kimi's ``<|im_system|>tool_declare<|im_middle|>``
        turn): the same block inserted there with and without a system message, and the
        rest of the text as without tools. ``None`` when the renders are not that."""
        r_s = self.o.render([system(), user()])
        at = len(self.spec["bos"])
        blocks = []
        for plain, declared in ((r_u, r_t1), (r_u, r_t2), (r_s, r_st)):
            extra = len(declared) - len(plain)
            if extra <= 0 or not declared.startswith(plain[:at]):
                return None
            if declared[at + extra :] != plain[at:]:
                return None
            blocks.append(declared[at : at + extra])
        if blocks[2] != blocks[0]:
            raise _fail(
                "tools+system", "the tools' own turn is written otherwise with a system message"
            )
        found = _tool_items(blocks[0], blocks[1])
        if found is None:
            raise _fail("tools", "the tool declarations are not tojson of each tool or function")
        if not _TOKEN.match(found["head"]):
            return None  # no turn of its own: text the template adds to its first turn
        return {
            **found,
            "with_system": "",
            "without_system": "",
            "system_first": True,
            "own_turn": "start",
        }
