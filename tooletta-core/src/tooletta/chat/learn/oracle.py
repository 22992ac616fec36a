"""The template as an oracle: renders probe conversations with Jinja, in the message form the
template expects (found by trying: a call-only turn's content ``""`` or ``None``, arguments as
a dict or as JSON text, every text content as a list of text parts when the template raises
on text)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import msgspec

from ...errors import LearnError, ToolettaError
from ...ir import Message
from ..jinja import render_jinja

__all__ = ["Oracle"]


def _why(failure: str) -> str:
    """What a template failure means, when it is a known kind: a template that changes a
    list in place (llama.cpp's copies of Kimi K2's, written for llama.cpp's own engine) is
    refused by Hugging Face's immutable sandbox, so transformers renders none of the
    conversations it fails on."""
    if "SecurityError" in failure and "of 'list' object is unsafe" in failure:
        return (
            " (the template changes a list in place, which Hugging Face's immutable sandbox"
            " refuses: transformers cannot render this conversation with it either)"
        )
    return ""


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
        self.empty_tools = False
        """No tools are given as ``[]`` (the template refuses ``None``)."""
        self.reasoning_key = "reasoning_content"
        """The message key the template reads reasoning from."""
        self.content_parts = False
        """Every text content is given as a list of text parts (MiniMax-M1's template reads
        ``content[0]['text']``): found on the first conversation the template refuses as
        text and renders as parts."""
        self._content_decided = False
        self.nameless_results = False
        """Tool results are given without their ``name`` (while learning the layout of a
        template that writes a result's name in its header: :mod:`.names`)."""

    def fix_form(self, call_content: str | None, string_arguments: bool) -> None:
        """Give call-only turns' content and call arguments in this form from now on."""
        self.call_content, self.string_arguments = call_content, string_arguments
        self._form_found = True

    @contextmanager
    def trying(self) -> Iterator[None]:
        """Renders inside leave the message form of calls as it was (conversations rendered
        before the form is fixed, which must not fix it)."""
        form = self.call_content, self.string_arguments, self._form_found
        try:
            yield
        finally:
            self.call_content, self.string_arguments, self._form_found = form

    def render(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] | None = None,
        prompt: bool = False,
        **options: Any,
    ) -> str:
        """The template's text for ``messages`` (raises :class:`~tooletta.LearnError` when it
        refuses
        them in every message form)."""
        attempt = functools.partial(self._render, messages, tools, prompt, options)
        if self._form_found or not any(m.tool_calls for m in messages):
            return self._render_content(attempt, messages)
        last: ToolettaError | None = None
        for content, strings in (("", False), (None, False), ("", True), (None, True)):
            self.call_content, self.string_arguments = content, strings
            try:
                text = self._render_content(attempt, messages)
            except LearnError as exc:
                last = exc
                continue
            self._form_found = True
            return text
        raise last if last is not None else LearnError("the template renders no calls")

    def _render_content(self, attempt: Callable[[], str], messages: Sequence[Message]) -> str:
        """``attempt`` (:meth:`_render` of ``messages``, in the form the oracle holds when
        called), with text content, or as parts when the template refuses text (or drops it)
        and writes parts (decided once, on the first render that tells)."""
        if self._content_decided:
            return attempt()
        try:
            text: str | None = attempt()
            failure: LearnError | None = None
        except LearnError as exc:
            text, failure = None, exc
        if text is not None and _writes_texts(text, messages):
            self._content_decided = True
            return text
        self.content_parts = True
        try:
            parts = attempt()
        except LearnError:
            parts = None
        if parts is not None and _writes_texts(parts, messages):
            self._content_decided = True
            return parts
        self.content_parts = False
        if text is None:
            raise failure or LearnError("the template refuses a probe conversation")
        return text

    def _render(
        self,
        messages: Sequence[Message],
        tools: Sequence[Mapping[str, Any]] | None,
        prompt: bool,
        options: Mapping[str, Any],
    ) -> str:
        given = [self._form(m) for m in messages]
        if not tools and self.empty_tools:
            return self._render_empty_tools(given, prompt, options)
        try:
            return render_jinja(
                self.template,
                given,
                tools=tools or None,
                add_generation_prompt=prompt,
                tokens=self.tokens,
                string_arguments=self.string_arguments,
                content_parts=self.content_parts,
                **{**self.options, **options},
            )
        except ToolettaError as exc:
            if not tools and not self.empty_tools:  # a tool_use template iterating tools
                self.empty_tools = True
                try:
                    return self._render_empty_tools(given, prompt, options)
                except LearnError:
                    self.empty_tools = False
            raise LearnError(
                f"the template refuses a probe conversation: {exc}{_why(str(exc))}"
            ) from None

    def _render_empty_tools(
        self, messages: list[Message], prompt: bool, options: Mapping[str, Any]
    ) -> str:
        """Render with ``tools=[]`` instead of none (templates that iterate the tools
        unconditionally, such as the ``tool_use`` templates, refuse ``None``)."""
        from ..jinja import _compile, to_template_messages
        from ..variables import filling_variables

        variables = {"bos_token": "", "eos_token": "", **self.tokens, **self.options, **options}
        given = to_template_messages(
            messages, string_arguments=self.string_arguments, content_parts=self.content_parts
        )

        def render(values: Mapping[str, Any]) -> str:
            return str(
                _compile(self.template).render(
                    messages=given, tools=[], add_generation_prompt=prompt, **values
                )
            )

        try:
            text = filling_variables(render, self.template, None, variables)
        except ToolettaError as exc:
            raise LearnError(f"the template refuses a probe conversation: {exc}") from None
        except Exception as exc:  # the template's own failure, as render_jinja reports it
            raise LearnError(
                f"the template refuses a probe conversation: {type(exc).__name__}: {exc}"
            ) from None
        return str(text)

    def _form(self, message: Message) -> Message:
        if self.nameless_results and message.role == "tool" and message.name:
            message = msgspec.structs.replace(message, name=None)
        content = message.content
        if message.tool_calls and not content and self.call_content is None:
            content = None
        key = self.reasoning_key
        if content is message.content and (key == "reasoning_content" or not message.reasoning):
            return message
        moved = key != "reasoning_content" and message.reasoning
        return msgspec.structs.replace(
            message,
            content=content,
            reasoning="" if moved else message.reasoning,
            extra={**message.extra, key: message.reasoning} if moved else message.extra,
        )


def _writes_texts(text: str, messages: Sequence[Message]) -> bool:
    """Whether ``text`` holds every message's text content (a template given content in a
    form it does not read writes nothing for it, or a part of it)."""
    return all(m.content in text for m in messages if isinstance(m.content, str))
