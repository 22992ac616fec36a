"""The tool-call side of a learned format: an installed dialect, or a learned JSON-in-markers one.

Both are dialect objects registered under the learned format's name. They write an assistant
turn's body the way the template does (``content`` + the lead the template writes before the
calls + the calls) and read it back with the engine (never Jinja):

* :class:`InstalledCalls`: the calls are written by an installed dialect (hermes, ...) that
  reproduces the template's call text byte for byte, or each call alone, joined by a
  separator the template writes instead of the dialect's own (spec ``between``); parse and
  stream are that dialect's (the closed loop proves they read the template's text).
* :class:`JsonCalls`: the template writes each call as one JSON object
  (``{"name": ..., "arguments": {...}}``, key names, separators and ASCII escaping as learned)
  between an opening and a closing marker, the calls joined by a separator. It is a
  :class:`~tooletta.ScannerDialect` whose grammar is built from the engine's blocks
  (:func:`~tooletta.engine.json_call_object`, :func:`~tooletta.engine.fast_json_call`), so it
  parses and streams like a plugin's dialect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...dialect import ScannerDialect
from ...engine import Block, Grammar, Read, Reader, fast_json_call, json_call_object
from ...engine import reasoning_region as region
from ...errors import RenderError
from ...ir import DialectInfo, ParseResult, ToolCall
from ..shortcuts import renders_as_scanner
from .callobjects import CallObjects, call_object

__all__ = ["InstalledCalls", "JsonCalls", "NoCalls", "call_object", "make_dialect"]


class JsonCalls(ScannerDialect):
    """A learned dialect: JSON call objects between learned markers (see the module doc)."""

    def __init__(self, name: str, spec: Mapping[str, Any], reasoning: tuple[str, str] | None):
        self.spec = dict(spec)
        open_, close = spec["open"], spec["close"]
        self.info = DialectInfo(  # type: ignore[misc]
            name=name,
            priority=-10,
            markers=(open_,),
            description=f"learned: JSON calls in {open_}...{close}",
            source=str(spec.get("source", "")),
            supports=("parse", "render", "stream"),
        )
        keys = {"name_keys": (spec["name_key"],), "args_keys": (spec["args_key"],)}

        def read(r: Reader) -> Read[None]:
            yield from json_call_object(r, close=close or None, **keys)
            yield from r.ws()
            if close and not (yield from r.at_end()):
                yield from r.expect(close)

        blocks = [
            Block(
                open_,
                read,
                close=close or None,
                fast=fast_json_call(close, **keys) if close else None,
            )
        ]
        if reasoning is not None and reasoning[0].strip() and reasoning[1].strip():
            blocks.append(region(reasoning[0].strip(), reasoning[1].strip()))
        self.grammar = Grammar(blocks=tuple(blocks))  # type: ignore[misc]
        self._writer = CallObjects(spec)
        """The calls' text, its fixed pieces read from the spec once."""
        self._alone = str(spec["lead_alone"])
        self._lead = str(spec["lead_content"])
        self._lead_if_missing = bool(spec.get("lead_if_missing"))
        """What the template writes between the content and the calls (``lead_alone``: with
        no content; ``lead_content`` after content, nothing when ``lead_if_missing`` and the
        content already ends with it), read from the spec once."""

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content``, the learned lead, then the calls as the template writes them."""
        self.check_content(content)
        if not calls:
            return content
        if not content:
            return str(self._alone + self._writer.calls(calls))
        lead = self._lead
        if lead and self._lead_if_missing and content.endswith(lead):
            lead = ""
        return str(content + lead + self._writer.calls(calls))

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls, each in its markers, joined by the learned separator."""
        return self._writer.calls(calls)


class InstalledCalls:
    """A learned format whose calls an installed dialect writes: parse and stream are that
    dialect's, render puts the learned lead between the content and its calls."""

    def __init__(self, name: str, inner: Any, spec: Mapping[str, Any]):
        self.inner = inner
        self.spec = dict(spec)
        self.keeps_ids = bool(spec.get("ids", True) or spec.get("ids_across"))
        """Calls keep their ids (the template writes the ids given, or the learned chat
        format gives the ids the template numbers across the conversation)."""
        self._alone = str(spec["lead_alone"])
        self._lead = str(spec["lead_content"])
        self._lead_if_missing = bool(spec.get("lead_if_missing"))
        between = spec.get("between")
        self._between: str | None = None if between is None else str(between)
        """The text the template writes between calls (spec ``between``, learned where it is
        not the dialect's own): each call written alone and joined by it. ``None``: the calls
        as the dialect writes them together."""
        self.max_depth = getattr(inner, "max_depth", None)
        self._calls_only: Any = (
            inner.render_calls
            if renders_as_scanner(inner)
            and type(inner).check_content is ScannerDialect.check_content
            else None
        )
        """``inner.render_calls`` when ``inner.render(calls, content="")`` is that (its
        ``render`` and ``check_content`` are :class:`~tooletta.ScannerDialect`'s, which checks
        no empty content): asked directly."""
        check = getattr(inner, "check_content", None)
        self._check_content: Any = check if callable(check) else None
        inner_info = inner.info
        self.info = DialectInfo(
            name=name,
            priority=-10,
            markers=tuple(inner_info.markers),
            description=f"learned: calls as {inner_info.name} writes them",
            source=str(spec.get("source", "")),
            supports=tuple(inner_info.supports),
        )

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        """The installed dialect's parse."""
        result: ParseResult = self.inner.parse(text, tools=tools)
        return result

    def stream(self, tools: Any = None) -> Any:
        """The installed dialect's stream parser."""
        return self.inner.stream(tools=tools)

    def detect(self, text: str) -> bool:
        """Never claims text by detection: the installed dialect does."""
        return False

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content``, the learned lead, then the calls as the installed dialect writes them
        (without ids when the template writes none)."""
        inner = self.inner
        if not calls:
            return str(inner.render([], content=content))
        items = calls if type(calls) is list else list(calls)
        if not self.keeps_ids:
            for call in items:  # a loop, not any() over a generator: one frame less per turn
                if call.id is not None:
                    items = [ToolCall(c.name, c.arguments) for c in items]
                    break
        calls_only = self._calls_only
        between = self._between
        if between is not None:
            body = between.join([self._one(call, calls_only) for call in items])
        elif calls_only is None:
            body = inner.render(items, content="")
        else:
            body = calls_only(items)
        if not isinstance(body, str):
            raise RenderError("the installed dialect returned no text", dialect=self.info.name)
        if content:
            check = self._check_content  # found once, not on every turn
            if check is not None:
                check(content)
            else:
                inner.render([], content=content)
            lead = self._lead  # the rule JsonCalls.render follows, read once from the spec
            if lead and self._lead_if_missing and content.endswith(lead):
                lead = ""
            return content + lead + body
        return self._alone + body

    def _one(self, call: ToolCall, calls_only: Any) -> str:
        """One call as the installed dialect writes it alone."""
        text = self.inner.render([call], content="") if calls_only is None else calls_only([call])
        if not isinstance(text, str):
            raise RenderError("the installed dialect returned no text", dialect=self.info.name)
        return text


class NoCalls:
    """A learned format whose template writes no tool calls: the turn body is its content."""

    def __init__(self, name: str, spec: Mapping[str, Any]):
        self.spec = dict(spec)
        self.info = DialectInfo(
            name=name,
            priority=-10,
            description="learned: a chat format without tool calls",
            source=str(spec.get("source", "")),
            supports=("parse", "render"),
        )

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        """All of ``text`` is content."""
        return ParseResult(content=text, calls=[], dialect=self.info.name, unparsed=[])

    def detect(self, text: str) -> bool:
        """Never claims text by detection."""
        return False

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content``; calls are refused (the template writes none)."""
        if calls:
            raise RenderError("the learned template writes no tool calls", dialect=self.info.name)
        return content


def make_dialect(
    name: str,
    spec: Mapping[str, Any],
    reasoning: tuple[str, str] | None,
    chat_formats: tuple[Any, ...] = (),
) -> JsonCalls | InstalledCalls | NoCalls:
    """The dialect object of a learned format from its ``calls`` spec, declaring
    ``chat_formats`` (the learned conversation format)."""
    made: JsonCalls | InstalledCalls | NoCalls
    if spec["kind"] == "none":
        made = NoCalls(name, spec)
    elif spec["kind"] == "json":
        made = JsonCalls(name, spec, reasoning)
    else:
        from ...catalog import get_dialect

        made = InstalledCalls(name, get_dialect(spec["dialect"]), spec)
    vars(made)["chat_formats"] = chat_formats
    if reasoning is not None and reasoning[0].strip() and reasoning[1].strip():
        tags = (reasoning[0].strip(), reasoning[1].strip())
        inner = getattr(made, "inner", None)
        theirs = getattr(inner, "reasoning_markup", None) if inner is not None else None
        if isinstance(made, JsonCalls) or (
            theirs and (theirs[0].strip(), theirs[1].strip()) == tags
        ):  # a reasoning block this dialect's parse reads back
            vars(made)["reasoning_markup"] = (reasoning[0], reasoning[1])
    return made
