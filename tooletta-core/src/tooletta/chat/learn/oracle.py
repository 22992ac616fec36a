"""The template as an oracle: renders probe conversations with Jinja, in the message form the
template expects (found by trying: a call-only turn's content ``""`` or ``None``, arguments as
a dict or as JSON text)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...errors import LearnError, ToolettaError
from ...ir import Message
from ..jinja import render_jinja

__all__ = ["Oracle"]


class Oracle:
    """Renders conversations with ``template`` (its special ``tokens`` and fixed ``options``)."""

    def __init__(self, template: str, tokens: Mapping[str, str], options: Mapping[str, Any]):
        self.template = template
        self.tokens = dict(tokens)
        self.options = dict(options)
        self.call_content: str | None = ""
        """What a call-only turn's content is given as (``""`` or ``None``)."""
        self.string_arguments = False
        self._form_found = False

    def render(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] | None = None,
        prompt: bool = False,
        **options: Any,
    ) -> str:
        """The template's text for ``messages`` (raises :class:`LearnError` when it refuses
        them in every message form)."""
        if self._form_found or not any(m.tool_calls for m in messages):
            return self._render(messages, tools, prompt, options)
        last: ToolettaError | None = None
        for content, strings in (("", False), (None, False), ("", True), (None, True)):
            self.call_content, self.string_arguments = content, strings
            try:
                text = self._render(messages, tools, prompt, options)
            except LearnError as exc:
                last = exc
                continue
            self._form_found = True
            return text
        raise last if last is not None else LearnError("the template renders no calls")

    def _render(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] | None,
        prompt: bool,
        options: Mapping[str, Any],
    ) -> str:
        given = [self._form(m) for m in messages]
        try:
            return render_jinja(
                self.template,
                given,
                tools=tools or None,
                add_generation_prompt=prompt,
                tokens=self.tokens,
                string_arguments=self.string_arguments,
                **{**self.options, **options},
            )
        except ToolettaError as exc:
            raise LearnError(f"the template refuses a probe conversation: {exc}") from None

    def _form(self, message: Message) -> Message:
        if message.tool_calls and not message.content and self.call_content is None:
            return Message(
                role=message.role,
                content=None,
                tool_calls=message.tool_calls,
                reasoning=message.reasoning,
            )
        return message
