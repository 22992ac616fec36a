"""LangChain-style ReAct: ``Action: NAME`` then ``Action Input: INPUT``, in plain text.

The protocol of LangChain's ``create_react_agent`` prompt (any instruct model)::

    Thought: I need the weather.
    Action: get_weather
    Action Input: {"city": "Paris", "days": 3}

and of its JSON variant (``ReActJsonSingleInputOutputParser``)::

    Thought: I need the weather.
    Action:
    ```
    {"action": "get_weather", "action_input": {"city": "Paris", "days": 3}}
    ```

A call is an ``Action:`` line (``Action 1:`` numbered variants too) at the start of a line,
followed on a later line by ``Action Input:``, or by a fenced JSON blob whose object has an
``action`` key. An ``Action:`` line not followed so is prose and stays content, as does all
text outside calls: ``Thought:`` lines, ``Observation:`` lines and ``Final Answer:`` are content,
verbatim (the format has no reasoning channel of its own; the thought is shown to users by
LangChain's verbose output). Several actions in one text each make a call (LangChain reads
one per step; this is an extension).

``Action Input`` that is a JSON object is the arguments, streamed verbatim. Any other input is
LangChain's string tool input: the text up to the next ``Observation``, ``Thought:``,
``Action`` or ``Final Answer:`` line (or the end), stripped of surrounding whitespace and then
of ``"`` as LangChain does, becomes ``{"input": "<text>"}``. In the JSON blob, an object
``action_input`` is the arguments; a missing or null one is ``{}``; any other value ``v``
becomes ``{"input": v}``. An object input that is not valid JSON is kept as unparsed data
(its text was already streamed as arguments) and runs to the end of the text.

Rendering writes content verbatim (put ``Thought: `` in it for the prompt's exact shape), a
newline, then per call ``Action: NAME`` and ``Action Input: `` with the arguments as JSON
(``json.dumps`` separators, non-ASCII kept), or as the bare text for ``{"input": text}`` when
that text reads back unchanged. Calls are joined by newlines. No ids.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import msgspec

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    BlockError,
    Decline,
    Grammar,
    Read,
    Reader,
    fast_json_args,
    fast_repeat,
    json_key,
    json_next,
    json_string,
    json_value,
)

__all__ = ["INPUT_KEY", "ReactDialect", "register_dialects"]

INPUT_KEY = "input"
"""The argument that holds a non-JSON ``Action Input`` (LangChain's string tool input)."""

LINE_ACTION = "\nAction"
START_ACTION = "Action"
_WS = " \t\r\n"
_SPACE_DIGITS = " \t0123456789"
_WINDOW = 512  # how far a reader looks ahead to decide that an Action line starts a call
_MAX_NAME = 256
_INPUT_ENDS = ("\nObservation", "\nThought:", "\nFinal Answer:", LINE_ACTION)
_WAIT = -2
_NO = -1


def _match(s: str, i: int, parts: tuple[str, ...], final: bool) -> int:
    """Match ``parts`` at ``s[i:]``: literals, or ``""`` for ``[ \\t0-9]*``.

    Returns the end index, ``_NO``, or ``_WAIT`` when more text could still make it match.
    """
    n = len(s)
    for part in parts:
        if not part:
            while i < n and s[i] in _SPACE_DIGITS:
                i += 1
            if i == n:
                return _NO if final else _WAIT
            continue
        seg = s[i : i + len(part)]
        if seg == part:
            i += len(part)
        elif len(seg) < len(part) and part.startswith(seg) and not final:
            return _WAIT
        else:
            return _NO
    return i


def _skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in _WS:
        i += 1
    return i


class _Plan:
    """What the lookahead found: a text-form call (name, input offset) or a fenced blob."""

    __slots__ = ("at", "fenced", "name")

    def __init__(self, name: str, at: int, fenced: bool):
        self.name = name
        self.at = at
        self.fenced = fenced


def _plan(s: str, final: bool) -> _Plan | int:
    """Decide from the text after an ``Action`` marker whether it opens a call."""
    i = _match(s, 0, ("", ":"), final)
    if i < 0:
        return i
    while i < len(s) and s[i] in " \t":
        i += 1
    if s.startswith("```", i):
        return _fence(s, i, final)
    if "```".startswith(s[i:]) and not final:  # "`", "``" or nothing yet
        return _WAIT
    nl = s.find("\n", i)
    if nl < 0:
        return _NO if final or len(s) - i > _MAX_NAME else _WAIT
    name = s[i:nl].strip(_WS)
    j = _skip_ws(s, nl + 1)
    if j == len(s):
        return _NO if final else _WAIT
    if nl - i > _MAX_NAME:
        return _NO
    if not name:
        return _fence(s, j, final)
    k = _match(s, j, ("Action", "", "Input", "", ":"), final)
    return k if k < 0 else _Plan(name, k, False)


def _fence(s: str, at: int, final: bool) -> _Plan | int:
    """``` [json] { "action ... at ``at``: a fenced blob that names an action."""
    k = _match(s, at, ("```",), final)
    if k < 0:
        return k
    label = s[k : k + 4]
    if label == "json":
        k += 4
    elif "json".startswith(label) and not final:
        return _WAIT
    k = _skip_ws(s, k)
    k = _match(s, k, ("{",), final)
    if k < 0:
        return k
    k = _skip_ws(s, k)
    k = _match(s, k, ('"action',), final)
    return k if k < 0 else _Plan("", at, True)


def _lookahead(r: Reader, decide: Callable[[str, bool], _Plan | int]) -> Read[_Plan | None]:
    """Wait (consuming nothing) until ``decide`` can tell whether a call starts here."""
    while True:
        window = r.buf[r.pos : r.pos + _WINDOW]
        plan = decide(window, r.final or len(window) == _WINDOW)
        if plan != _WAIT:
            return plan if isinstance(plan, _Plan) else None
        yield


class _InputText:
    """Streams LangChain's string tool input: ``text.strip().strip('"')``."""

    __slots__ = ("_held", "_parts", "_phase", "_write")

    def __init__(self, write: Callable[[str], None]):
        self._write = write
        self._phase = 0  # 0: leading whitespace, 1: leading quotes, 2: the text
        self._held = ""
        self._parts: list[str] = []

    def feed(self, text: str) -> None:
        """Take the next piece of the raw input."""
        if self._phase == 0:
            text = text.lstrip(_WS)
            if not text:
                return
            self._phase = 1
        if self._phase == 1:
            text = text.lstrip('"')
            if not text:
                return
            self._phase = 2
        text = self._held + text
        cut = len(text[: len(text.rstrip(_WS))].rstrip('"'))
        self._held = text[cut:]
        if cut:
            self._parts.append(text[:cut])
            self._write(text[:cut])

    def close(self) -> str:
        """The whole stripped input (what was held back is the stripped tail)."""
        return "".join(self._parts)


def _loads(text: str, at: int) -> Any:
    """Decode JSON text; any failure (lone surrogates included) is a :class:`BlockError`."""
    try:
        return msgspec.json.decode(text)
    except (msgspec.DecodeError, UnicodeError) as exc:
        raise BlockError(f"invalid JSON: {exc}", at) from None


def _json_object(r: Reader, sink: Callable[[str], None] | None = None) -> Read[dict[str, Any]]:
    """A JSON object (streamed to ``sink``), decoded."""
    at = r.pos
    value = _loads((yield from json_value(r, sink)), at)
    if not isinstance(value, dict):
        raise BlockError("expected a JSON object", at)
    return value


def _escape(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _text_input(r: Reader) -> Read[None]:
    """A string ``Action Input`` up to the next step line, as ``{"input": ...}``."""
    r.args(f'{{"{INPUT_KEY}": "')
    out = _InputText(lambda piece: r.args(_escape(piece)))
    _, marker = yield from r.until(_INPUT_ENDS, out.feed, eof=True)
    r.pos -= len(marker)  # the step line that ended the input is content
    r.args('"}')
    r.end_call({INPUT_KEY: out.close()})


def _action_input(r: Reader) -> Read[None]:
    """After ``Action Input:``: a JSON object streamed verbatim, or a string input."""
    while True:
        window = r.buf[r.pos : r.pos + _WINDOW]
        i = _skip_ws(window, 0)
        if i < len(window) or r.final or len(window) == _WINDOW:
            break
        yield
    if window.startswith("{", i):
        r.pos += i
        r.end_call((yield from _json_object(r, r.args)))
    else:
        yield from _text_input(r)


def _blob_arguments(value: Any) -> dict[str, Any]:
    """A blob's ``action_input`` as arguments: an object as is, null as ``{}``, else wrapped."""
    if value is None:
        return {}
    return value if isinstance(value, dict) else {INPUT_KEY: value}


def _blob(r: Reader) -> Read[None]:
    """A fenced ``{"action": NAME, "action_input": INPUT}`` object, then the closing fence."""
    yield from r.expect("```")
    yield from r.accept("json")
    yield from r.ws()
    yield from r.expect("{")
    name: str | None = None
    held: Any = None  # the arguments, when complete before the end of the object
    has_input = False
    first = True
    while not (yield from json_next(r, "}", first)):
        first = False
        key = yield from json_key(r)
        at = r.pos
        if key == "action" and name is None:
            name = yield from json_string(r)
            r.start_call(name)
            if has_input:
                r.args(to_json(held))
        elif key == "action_input" and not has_input:
            has_input = True
            if name is not None and (yield from r.peek()) == "{":
                held = yield from _json_object(r, r.args)
            else:
                value = _loads((yield from json_value(r)), at)
                held = _blob_arguments(value)
                if name is not None:
                    r.args(to_json(held))
        else:
            yield from json_value(r)
    if name is None:
        raise r.fail('the JSON blob has no "action"')
    if not has_input:
        r.args("{}")
    r.end_call(held if has_input else {})
    while True:  # the closing fence, if it comes (whitespace before anything else is kept)
        window = r.buf[r.pos : r.pos + _WINDOW]
        i = _skip_ws(window, 0)
        end = window[i : i + 3]
        if end == "```":
            r.pos += i + 3
            return
        if not "```".startswith(end) or r.final or len(window) == _WINDOW:
            return
        yield


def _reader(marker: str) -> Callable[[Reader], Read[None]]:
    def read(r: Reader) -> Read[None]:
        if marker == START_ACTION and r.shown:
            # "Action" in the middle of a line (text was shown before it): prose
            raise Decline
        plan = yield from _lookahead(r, _plan)
        if plan is None:
            raise Decline
        r.pos += plan.at
        if plan.fenced:
            yield from _blob(r)
            return
        r.start_call(plan.name)
        yield from _action_input(r)

    read.__doc__ = f"A ReAct step opened by {marker!r} (declined when it is prose)."
    return read


_STEP = re.compile(
    r"[ \t0-9]*:[ \t]*(?![ \t]|```)([^\n]*)\n[ \t\r\n]*Action[ \t0-9]*Input[ \t0-9]*:"
)
"""What :func:`_plan` reads of a text-form step (each part taken whole, as it does). Every
unbounded repeat is followed by something it cannot match (``(?![ \t]...)`` after the spaces
before the name), so a failed match never gives characters back to try again: one match costs
time linear in its window, with no possessive quantifiers (Python 3.11+)."""
_OBJECT = re.compile(r"[ \t\r\n]*\{")


def _step_head(text: str, pos: int) -> tuple[str | None, int] | None:
    """The one-shot reading of a step up to an ``Action Input`` that is a JSON object, as
    :func:`_plan` and :func:`_action_input` read it in their windows (``None`` for anything
    else: prose, a fenced blob, a string input)."""
    m = _STEP.match(text, pos, pos + _WINDOW)
    if m is None:
        return None
    line = m.group(1)
    name = line.strip(_WS)
    if not name or len(line) > _MAX_NAME:
        return None
    at = m.end()
    brace = _OBJECT.match(text, at, at + _WINDOW)
    if brace is None:
        return None
    return name, brace.end() - 1


_FAST = fast_repeat(fast_json_args(_step_head, before=_INPUT_ENDS), LINE_ACTION)


def _plain_input(value: Any) -> bool:
    """True when ``value`` can be written as a bare ``Action Input`` and read back unchanged."""
    return (
        isinstance(value, str)
        and value == value.strip()
        and value != ""
        and value[0] not in '"{'
        and value[-1] != '"'
        and "\n" not in value
        and "\r" not in value
    )


class ReactDialect(ScannerDialect):
    """LangChain ReAct ``Action:`` / ``Action Input:`` steps (and the fenced JSON variant)."""

    info = DialectInfo(
        name="react",
        aliases=("langchain_react",),
        priority=10,
        markers=("Action:", "Action Input:"),
        description="LangChain ReAct: Action: NAME / Action Input: {json} (or a fenced "
        '{"action", "action_input"} blob); other text is content',
        source="langchain-ai/langchain agents/react/agent.py (create_react_agent prompt), "
        "agents/output_parsers/react_single_input.py, react_json_single_input.py",
    )
    grammar = Grammar(
        blocks=(
            Block(LINE_ACTION, _reader(LINE_ACTION), fast=_FAST),
            Block(START_ACTION, _reader(START_ACTION), at_start=True, fast=_FAST),
        )
    )
    content_separator = "\n"

    def detect(self, text: str) -> bool:
        """True when the text holds at least one real ReAct action (not just the words)."""
        return bool(self.parse(text).calls)

    def check_content(self, content: str) -> None:
        """Refuse content with an ``Action`` at the start of a line (it could read as a step)."""
        if LINE_ACTION in content or content.lstrip(_WS).startswith(START_ACTION):
            raise self.error("content has a line starting with 'Action'")

    def _render_step(self, call: ToolCall) -> str:
        name = call.name
        if not name or name != name.strip() or "\n" in name or "\r" in name:
            raise self.error(f"tool name {name!r} does not fit on an Action line")
        if len(name) > _MAX_NAME or name.startswith("`"):
            raise self.error(f"tool name {name!r} cannot be written as an Action")
        args = call.arguments
        value = args.get(INPUT_KEY)
        text = value if len(args) == 1 and _plain_input(value) else to_json(args)
        return f"Action: {name}\nAction Input: {text}"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as an ``Action:`` / ``Action Input:`` pair, joined by newlines."""
        return "\n".join(self._render_step(c) for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the react dialect."""
    register(ReactDialect())
