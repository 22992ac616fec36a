"""What a template strips from each message's text, left and right (all whitespace, newlines, or
nothing): an answer's, after a reasoning block and without one, and by its position in the
conversation (QwQ strips only earlier answers); a user's; a system message's."""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

from ...errors import LearnError
from ...ir import Message
from ..declare import keeps
from .infer_base import _fail, _Step
from .probes import S, answer, system, user


def _lead(reasoning: Mapping[str, Any] | None, messages: list[Message], index: int) -> str:
    """What the learned ``reasoning`` writes before the text of the answer without reasoning
    at ``index`` of ``messages``: ``dropped`` when its history rule does not keep the turn,
    the empty block when ``empty`` says so, else nothing."""
    if not reasoning:
        return ""
    block = str(reasoning["open"]) + str(reasoning["close"])
    if not keeps(str(reasoning["keep"]), index, messages):
        return str(reasoning["dropped"])
    last = index == len(messages) - 1
    return block if reasoning["empty"] == "kept" or (reasoning["empty"] == "last" and last) else ""


class _Strips(_Step):
    """The step that reads what the template strips from the messages' text."""

    def content_strip(self, reasoning: Mapping[str, Any] | None) -> dict[str, list[str | None]]:
        """What the template strips from an answer's text, left and right (``None``: all
        whitespace, ``"\\n"``: newlines, ``""``: nothing), in a turn that writes a reasoning
        block (``block``) and in one that does not (``plain``): Qwen3 strips newlines only
        after a reasoning block. A template whose strip depends on anything else (QwQ strips
        only earlier turns) is refused."""
        empty = _lead(reasoning, [user(), answer()], 1)
        lead = _lead(reasoning, [user(), answer(), user(S.USER2)], 1)
        h_a, f_a = self.spec["turns"]["assistant"]
        h_u = self.spec["turns"]["user"][0]
        last, earlier = [], []
        blocked = False
        for raw in ("\n " + S.ANSWER + " \n", " \n" + S.ANSWER + "\n "):
            body = self._body(self.o.render([user(), answer(raw)]), "answer-spaces")
            if empty and body.startswith(empty):
                body = body[len(empty) :]
                blocked = True
            last.append((raw, body))
            text = self.o.render([user(), answer(raw), user(S.USER2)])
            start = text.find(S.USER) + len(S.USER) + len(self.spec["turns"]["user"][1])
            end = text.find(f_a + h_u + S.USER2, start)
            if not text.startswith(h_a, start) or end < 0:
                raise _fail("answer-spaces-history", "an earlier answer is written otherwise")
            body = text[start + len(h_a) : end]
            if blocked and lead and body.startswith(lead):  # a block here too (Kimi's copy)
                body = body[len(lead) :]
            earlier.append((raw, body))
        rules = {}
        for key, seen in (("last", last), ("earlier", earlier)):
            for left, right in itertools.product(("", "\n", None), ("", "\n", None)):
                if all(body == raw.lstrip(left).rstrip(right) for raw, body in seen):
                    rules[key] = [left, right]
                    break
            else:
                raise _fail("answer-spaces", f"the template rewrites an answer's text: {seen!r}")
        if not blocked and rules["last"] != rules["earlier"]:
            self.history_strip = self._history_strip(rules["last"], rules["earlier"])
            return {"block": rules["last"], "plain": rules["last"]}
        if blocked and lead:  # both answers follow a block: one strip rule for both
            if rules["last"] != rules["earlier"]:
                raise _fail(
                    "answer-spaces-history",
                    "the template strips an earlier answer otherwise than the last, both "
                    "after a reasoning block",
                )
            return {"block": rules["last"], "plain": rules["last"]}
        return {"block": rules["last"], "plain": rules["earlier"]}

    def _history_strip(self, last: list[str | None], earlier: list[str | None]) -> dict[str, Any]:
        """Which answers the template strips as an earlier one (QwQ: every answer but the
        conversation's last message, ``loop.last``; or those before the last user message),
        found from two answers in a row: the first is after the last user message but not
        the last message."""
        h_a, f_a = self.spec["turns"]["assistant"]
        f_u = self.spec["turns"]["user"][1]
        raw = "\n " + S.ANSWER + " \n"
        try:
            text = self.o.render([user(), answer(raw), answer(S.ANSWER2)])
        except LearnError:
            text = ""
        start = text.find(S.USER) + len(S.USER) + len(f_u) + len(h_a)
        end = text.find(f_a + h_a + S.ANSWER2, start)
        body = text[start:end] if text.startswith(h_a, start - len(h_a)) and end >= 0 else None
        for where, rule in (("not_last", earlier), ("before_last_user", last)):
            if body == raw.lstrip(rule[0]).rstrip(rule[1]):
                return {"where": where, "strip": earlier}
        raise _fail(
            "answer-spaces-history",
            "the template strips the last answer's text otherwise than an earlier one's, "
            "by no rule of position learned (the last message, or after the last user message)",
        )

    def user_strip(self) -> list[str | None]:
        """What the template strips from a user's text, left and right (as
        :meth:`content_strip`): Gemma's ``| trim``."""
        h_u, f_u = self.spec["turns"]["user"]
        seen = []
        for raw in ("\n " + S.USER + " \n", " \n" + S.USER + "\n "):
            text = self.o.render([user(raw), answer()])
            start = text.find(h_u) + len(h_u) if h_u else -1
            end = text.find(f_u + self.spec["turns"]["assistant"][0], text.find(S.USER))
            if start < len(h_u) or end < 0:
                raise _fail("user-spaces", "the user turn is written otherwise")
            seen.append((raw, text[start:end]))
        for left, right in itertools.product(("", "\n", None), ("", "\n", None)):
            if all(body == raw.lstrip(left).rstrip(right) for raw, body in seen):
                return [left, right]
        raise _fail("user-spaces", f"the template rewrites a user's text: {seen!r}")

    def system_strip(self) -> list[str | None]:
        """What the template strips from a system message's text, left and right."""
        if not self.spec["system"]:
            return ["", ""]
        h_s, f_s = self.spec["turns"]["system"]
        f_s = str(self.spec.get("system_suffix") or "") + f_s  # the template's own text first
        h_u = self._user_after_system()
        texts = []
        for raw in ("\n " + S.SYSTEM + " \n", " \n" + S.SYSTEM + "\n "):
            texts.append((raw, self.o.render([system(raw), user()])))
        for left, right in itertools.product(("", "\n", None), ("", "\n", None)):
            if all(h_s + raw.lstrip(left).rstrip(right) + f_s + h_u in text for raw, text in texts):
                return [left, right]
        raise _fail("system-spaces", "the template rewrites a system message's text")
