"""Reasoning: the key a template reads it from, the text around it (its opening and closing), what
is stripped from it, and its history rule: which turns keep their block (fitted to the
observations of :mod:`.history`), what a dropped block leaves, and when an empty block is
written."""

from __future__ import annotations

from typing import Any

import msgspec

from ...errors import LearnError
from ...ir import Message
from .history import finders, fit_rules, observe, unexplained, without_reasoning
from .infer_base import _fail, _find, _Step
from .probes import TOOLS, S, answer, user


class _Reasoning(_Step):
    """The step that reads reasoning blocks and their history rule."""

    def reasoning(self) -> dict[str, Any] | None:
        o = self.o
        found = None
        for key in ("reasoning_content", "reasoning", "thinking"):
            o.reasoning_key = key  # the key the template reads reasoning from
            for messages, _, content, calls in finders():
                tools = TOOLS if calls else None
                try:
                    with o.trying():  # a turn with calls must not fix the calls' form yet
                        text = o.render(messages, tools)
                        body = self._body(text, "reasoning") if not calls else text
                except LearnError:
                    continue
                at = body.find(S.REASONING)
                if at >= 0:
                    found = messages, content, tools
                    break
            if found:
                break
        else:
            o.reasoning_key = "reasoning_content"
            return None
        messages, content, tools = found
        end = body.find(content, at) if tools else len(body) - len(content)
        if end < 0 or (not tools and not body.endswith(content)):
            raise _fail("reasoning", "the content does not follow the reasoning")
        if tools:  # the whole text: the reasoning's opening after the assistant header
            h_a = self.spec["turns"]["assistant"][0]
            start = body.rfind(h_a, 0, at) + len(h_a) if h_a else -1
            if start < len(h_a) or start > at:
                raise _fail("reasoning", "the assistant turn is not written with its header")
            body, at, end = body[start:], at - start, end - start
        open_ = body[:at]
        close = body[at + len(S.REASONING) : end]
        if not open_ or not close:
            raise _fail("reasoning", "the reasoning is not between an opening and a closing")
        last = messages[-1]

        def same(text_: str) -> bool:
            changed = msgspec.structs.replace(last, reasoning=text_)
            with o.trying():
                return o.render([*messages[:-1], changed], tools) == text

        strip: str | None = ""
        if same("\n" + S.REASONING + "\n"):
            strip = None if same(" " + S.REASONING + " ") else "\n"
        keep = self._history_rule()
        if keep in ("all", "after_last_user", "after_last_query", "after_last_stripped_query"):
            dropped, empty = self._blocks_by_position(keep, open_, close)
        else:
            dropped, empty = self._history_blocks(keep, open_ + close)
        return {
            "key": o.reasoning_key,
            "open": open_,
            "close": close,
            "strip": strip,
            "keep": keep,
            "empty": empty,
            "dropped": dropped,
        }

    def _blocks_by_position(self, keep: str, open_: str, close: str) -> tuple[str, str]:
        """The text written in place of a dropped block and when an empty block is written
        (``"never"``, ``"last"``, ``"kept"``), for the rules anchored at the last user message
        or none (``keep``), read from a history of two exchanges with and without reasoning."""
        o = self.o
        hist = o.render(
            [
                user(),
                answer(reasoning=S.REASONING),
                user(S.USER2),
                answer(S.ANSWER2, reasoning=S.REASONING2),
            ]
        )
        like = "all" if keep == "all" else "after_last_user"  # alike on these probes
        dropped = ""
        if like != "all":
            i_b = _find(hist, S.ANSWER, "reasoning-history")
            h_a = self.spec["turns"]["assistant"][0]
            dropped = hist[hist.rfind(h_a, 0, i_b) + len(h_a) : i_b]
        plain = o.render([user(), answer(), user(S.USER2), answer(S.ANSWER2)])
        empty = "never"
        if self._body(plain, "no-reasoning").startswith(open_ + close):
            empty = "last"
            first_body = plain[: plain.find(S.ANSWER)]
            if like == "all" and first_body.endswith(open_ + close):
                empty = "kept"
            elif like == "after_last_user":
                twice = o.render([user(), answer(), answer(S.ANSWER2)])
                if twice[: twice.find(S.ANSWER)].endswith(open_ + close):
                    empty = "kept"
        return dropped, empty

    def _history_rule(self) -> str:
        """The history rule the observations (:mod:`.history`) fit, the first of
        :data:`~tooletta.chat.declare.KEEP_RULES` that does; refused when none does."""
        o = self.o
        with o.trying():  # conversations with calls must not fix the calls' form yet
            self.history = observe(o.render, tools=True)
        rules = fit_rules(self.history)
        if not rules:
            raise _fail("reasoning-history", unexplained(self.history))
        return rules[0]

    def _history_blocks(self, keep: str, block: str) -> tuple[str, str]:
        """``Reasoning.dropped`` and ``Reasoning.empty`` under ``keep``, read from the
        observations: what an answer whose reasoning is not kept holds before its text, and
        whether a kept turn without reasoning (an answer, or a turn with calls) writes the
        empty ``block``, when it ends the conversation or always."""
        h_a = self.spec["turns"]["assistant"][0]

        def before(text: str, message: Message) -> str:
            assert isinstance(message.content, str)
            at = _find(text, message.content, "reasoning-history")
            return text[text.rfind(h_a, 0, at) + len(h_a) : at]

        def body_at(text: str, n: int) -> str | None:
            """The text after the ``n``-th assistant header (``None``: not found)."""
            at = text.find(S.USER)
            for _ in range(n + 1):
                at = text.find(h_a, at + 1) if h_a and at >= 0 else -1
            return text[at + len(h_a) :] if at >= 0 else None

        dropped: str | None = None
        kept_last: bool | None = None
        kept_earlier: bool | None = None
        for obs in self.history:
            try:
                with self.o.trying():
                    plain = self.o.render(
                        without_reasoning(obs.messages), TOOLS if obs.tools else None
                    )
            except LearnError:
                continue
            last = len(obs.messages) - 1
            for n, index in enumerate(obs.assistants):
                message = obs.messages[index]
                if index not in obs.kept:
                    if dropped is None and not message.tool_calls:
                        dropped = before(obs.text, message)
                    continue
                body = body_at(plain, n)
                if body is None:
                    continue
                writes = body.startswith(block)
                if index == last:
                    kept_last = writes if kept_last is None else kept_last
                else:
                    kept_earlier = writes if kept_earlier is None else kept_earlier
        empty = "kept" if kept_earlier else "last" if kept_last else "never"
        return dropped or "", empty
