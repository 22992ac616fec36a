"""Cline / Roo-Code XML tool use: ``<TOOL_NAME>`` with one ``<PARAM>value</PARAM>`` per line.

The protocol of the Cline and Roo-Code coding agents (any chat model), from Cline's system
prompt (``src/core/prompts/system.ts``)::

    <read_file>
    <path>src/main.js</path>
    </read_file>

The tag names are the tool names: those of the request's ``tools`` when given (only they open
calls), otherwise Cline's and Roo-Code's built-in tools. A tool tag opens a call only when
(after whitespace) a known parameter tag or its own closing tag follows, so prose and HTML that
mention ``<read_file>`` stay content. Inside a call, a parameter is ``<PARAM>`` … ``</PARAM>``
(the first closing tag ends it, except ``content`` of ``write_to_file``/``new_rule``, which ends
at a ``</content>`` followed by another parameter or the tool's closing tag, as Cline's
``lastIndexOf``), its raw text (no XML unescaping) trimmed as Cline does. Known parameters are
the tool schema's properties (any tag name when it lists none); other text inside the tool is
ignored, as Cline ignores it. ``<thinking>`` is not special: it stays in the content, as
Cline's parser leaves it in the text it shows. No ids.

Values are typed by the tool schemas: string parameters stream as they arrive. Without
``tools``, Cline's built-in tools are used with their own all-string parameters (so
``requires_approval`` stays ``"false"`` and ``write_to_file`` content stays text); custom tools
without a schema decode JSON-valid values (``3`` -> ``3``).

Rendering writes content, a newline, then each call as the prompt's examples do: the tool tag,
one line per parameter (``<p>\\nvalue\\n</p>`` for multi-line values), the closing tag.
Non-string values are written as JSON. Values with leading/trailing whitespace (trimmed on
reading) or holding their own closing tag, and tool or parameter names longer than
:data:`MAX_TAG` (250) characters (a reader decides within 512 characters whether a ``<``
opens a call), are refused with a ``RenderError``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    ArgsWriter,
    Block,
    Decline,
    Grammar,
    Read,
    Reader,
    ToolSchemas,
    Trimmer,
    coerce_value,
    is_string_schema,
    kinds_of,
    one_shot,
    one_shot_value,
    plain_render_without_calls,
    trim_text,
)

__all__ = [
    "BUILTIN_PARAMS",
    "BUILTIN_TOOLS",
    "BUILTIN_TOOL_SCHEMAS",
    "ClineDialect",
    "ClineTools",
    "register_dialects",
]

CLINE_TOOLS = (
    "execute_command",
    "read_file",
    "write_to_file",
    "replace_in_file",
    "search_files",
    "list_files",
    "list_code_definition_names",
    "browser_action",
    "use_mcp_tool",
    "access_mcp_resource",
    "ask_followup_question",
    "plan_mode_respond",
    "load_mcp_documentation",
    "attempt_completion",
    "new_task",
    "condense",
    "report_bug",
    "new_rule",
)
"""Cline's ``toolUseNames`` (``src/core/assistant-message/index.ts``)."""

ROO_TOOLS = (
    "apply_diff",
    "insert_content",
    "search_and_replace",
    "switch_mode",
    "fetch_instructions",
    "codebase_search",
    "update_todo_list",
    "run_slash_command",
    "generate_image",
)
"""Roo-Code's XML tools not in Cline's list (``src/shared/tools.ts``)."""

BUILTIN_TOOLS = CLINE_TOOLS + ROO_TOOLS
"""The tag names that open calls when no ``tools`` are given."""

BUILTIN_PARAMS = (
    # Cline's toolParamNames
    "command",
    "requires_approval",
    "path",
    "content",
    "diff",
    "regex",
    "file_pattern",
    "recursive",
    "action",
    "url",
    "coordinate",
    "text",
    "server_name",
    "tool_name",
    "arguments",
    "uri",
    "question",
    "options",
    "response",
    "result",
    "context",
    "title",
    "what_happened",
    "steps_to_reproduce",
    "api_request_output",
    "additional_context",
    # Roo-Code's toolParamNames (XML protocol)
    "mode_slug",
    "reason",
    "line",
    "mode",
    "message",
    "cwd",
    "follow_up",
    "task",
    "size",
    "query",
    "args",
    "start_line",
    "end_line",
    "todos",
    "prompt",
    "image",
    "search",
    "replace",
    "use_regex",
    "ignore_case",
)
"""Parameter tags recognised in the built-in tools (all strings, as in Cline's parser)."""


LAST_MATCH = frozenset({("write_to_file", "content"), ("new_rule", "content")})
"""Parameters that end at the last closing tag (Cline's ``lastIndexOf``), not the first."""

_TAG = re.compile(r"[^\s<>/]+")
_SPACE = " \t\r\n"
_WINDOW = 512  # how far a reader looks ahead to decide that a tag opens a call
MAX_TAG = (_WINDOW - 12) // 2
"""The longest tool or parameter name render writes (250): every ``<`` may open a call, and a
reader decides from the ``_WINDOW`` characters after it (the tool's tag, a newline and the
first parameter's tag, or the closing tag), which keeps the text held back at a ``<`` of prose
bounded. Longer names would not read back, so render refuses them."""
_WAIT = None


def _skip_ws(s: str, i: int) -> int:
    while i < len(s) and s[i] in _SPACE:
        i += 1
    return i


def _tag_at(s: str, i: int, final: bool) -> str | None:
    """The name of a ``<name>`` tag at ``s[i]`` ("" when there is none; ``None``: wait)."""
    if i >= len(s):
        return "" if final else _WAIT
    if s[i] != "<":
        return ""
    m = _TAG.match(s, i + 1)
    end = m.end() if m else i + 1
    if end >= len(s):
        return "" if final else _WAIT
    return s[i + 1 : end] if m and s[end] == ">" else ""


class ClineTools(ToolSchemas):
    """The request's tool schemas, plus each tool's declared parameter names."""

    __slots__ = ("_params",)

    def __init__(self, tools: Mapping[str, Mapping[str, Any]] | None = None):
        super().__init__(tools)
        self._params: dict[str, frozenset[str] | None] = {}
        for name, schema in (tools or {}).items():
            props = schema.get("properties")
            self._params[name] = frozenset(props) if isinstance(props, Mapping) and props else None

    @classmethod
    def for_request(cls, tools: Any) -> ClineTools:
        """The tools of a request, or Cline's built-in tools when it gives none."""
        if isinstance(tools, ClineTools):
            return tools
        schemas = ToolSchemas.of(tools)
        if not schemas:
            return BUILTIN_TOOL_SCHEMAS
        return cls(dict(schemas._tools))

    def known(self, name: str) -> frozenset[str] | None:
        """The parameter tags of tool ``name`` (``None``: any tag name is a parameter)."""
        return self._params.get(name)


BUILTIN_TOOL_SCHEMAS = ClineTools(
    {
        tool: {"type": "object", "properties": {p: {"type": "string"} for p in BUILTIN_PARAMS}}
        for tool in BUILTIN_TOOLS
    }
)
"""Schemas of the built-in tools (all parameters strings), used when a request gives none."""


def _is_param(key: str, known: frozenset[str] | None) -> bool:
    return bool(key) and (known is None or key in known)


def _opens(s: str, final: bool, tools: ClineTools) -> tuple[str, int] | bool | None:
    """Decide from the text at a ``<`` whether a call opens: ``(name, length)``, False, or
    ``None`` (wait)."""
    name = _tag_at(s, 0, final)
    if name is _WAIT:
        return _WAIT
    if not name or name not in tools:
        return False
    at = len(name) + 2
    j = _skip_ws(s, at)
    if j >= len(s):
        return False if final else _WAIT
    close = f"</{name}>"
    if s.startswith(close, j):
        return name, at
    if close.startswith(s[j:]) and not final:
        return _WAIT
    key = _tag_at(s, j, final)
    if key is _WAIT:
        return _WAIT
    return (name, at) if _is_param(key, tools.known(name)) else False


def _wait_for(r: Reader, decide: Callable[[str, bool], Any]) -> Read[Any]:
    """Wait (consuming nothing) until ``decide`` gives an answer about the text ahead."""
    while True:
        window = r.buf[r.pos : r.pos + _WINDOW]
        answer = decide(window, r.final or len(window) == _WINDOW)
        if answer is not _WAIT:
            return answer
        yield


def _coerce(raw: str, schema: Any) -> Any:
    """Type a value by its schema; text that cannot be decoded (a lone surrogate) stays text."""
    try:
        return coerce_value(raw, schema)
    except UnicodeError:
        return raw


def _value(r: Reader, w: ArgsWriter, key: str) -> Read[None]:
    """A value up to ``</key>``, trimmed: streamed when a string, typed when it closes."""
    w.key(key)
    schema = w.schema(key)
    ends = (f"</{key}>",)
    if is_string_schema(schema):
        w.open_string()
        out = Trimmer(w.string_part, "space")
        yield from r.until(ends, out.feed)
        w.close_string(key, out.close())
    else:
        raw, _ = yield from r.until(ends)
        w.value(key, _coerce(trim_text(raw, "space"), schema))


def _ends_value(s: str, final: bool, tool_close: str, key: str, known: Any) -> bool | None:
    """After a ``</key>``: does the tool's closing tag or another parameter come next?"""
    if s.startswith(tool_close):
        return True
    if tool_close.startswith(s) and not final:
        return _WAIT
    tag = _tag_at(s, 0, final)
    if tag is _WAIT:
        return _WAIT
    return tag != key and _is_param(tag, known)


def _last_match_value(
    r: Reader, w: ArgsWriter, key: str, tool_close: str, known: frozenset[str] | None
) -> Read[None]:
    """A value ending at the ``</key>`` that the tool's closing tag or another parameter
    follows (after whitespace); an earlier ``</key>`` is part of the value."""
    close = f"</{key}>"
    w.key(key)
    schema = w.schema(key)
    parts: list[str] = []
    string = is_string_schema(schema)
    if string:
        w.open_string()
        out = Trimmer(w.string_part, "space")
        sink: Callable[[str], None] = out.feed
    else:
        sink = parts.append
    while True:
        yield from r.until((close,), sink)
        gap: list[str] = []
        while True:  # the whitespace after the closing tag, kept aside
            i = _skip_ws(r.buf, r.pos)
            gap.append(r.buf[r.pos : i])
            r.pos = i
            if i < len(r.buf) or r.final:
                break
            yield
        if (yield from r.at_end()):
            break
        ends = yield from _wait_for(r, lambda t, fin: _ends_value(t, fin, tool_close, key, known))
        if ends:
            break
        sink(close + "".join(gap))
    if string:
        w.close_string(key, out.close())
    else:
        w.value(key, _coerce(trim_text("".join(parts), "space"), schema))


def _tool(r: Reader, name: str) -> Read[None]:
    """The body of a call, after ``<name>``, through ``</name>``."""
    tools: ClineTools = r.tools
    known = tools.known(name)
    close = f"</{name}>"
    r.start_call(name)
    w = ArgsWriter(r, name)
    while True:
        yield from r.until(("<",))  # text between parameters is ignored, as in Cline
        r.pos -= 1
        if (yield from r.accept(close)):
            break
        key = yield from _wait_for(r, lambda s, final: _tag_at(s, 0, final))
        if not _is_param(key, known):
            r.pos += 1
            continue
        r.pos += len(key) + 2
        if (name, key) in LAST_MATCH:
            yield from _last_match_value(r, w, key, close, known)
        else:
            yield from _value(r, w, key)
    w.close()


def read_tag(r: Reader) -> Read[None]:
    """At a ``<``: a tool call when a tool's tag opens one as the format has it, else text."""
    tools = ClineTools.for_request(r.tools)
    plan = yield from _wait_for(r, lambda s, final: _opens(s, final, tools))
    if not plan:
        raise Decline
    name, at = plan
    r.pos += at
    yield from _tool(r, name)


_OPEN_TAG = re.compile(r"<([^\s<>/]+)>")
"""A ``<name>`` tag (``_TAG`` between ``<`` and ``>``)."""


def _tag_in_window(text: str, pos: int) -> str:
    """``_tag_at(text[pos : pos + _WINDOW], 0, True)`` (what :func:`_tool` waits for), without
    copying the window."""
    if pos >= len(text) or text[pos] != "<":
        return ""
    window = min(len(text), pos + _WINDOW)
    m = _TAG.match(text, pos + 1, window)
    if m is None or m.end() >= window or text[m.end()] != ">":
        return ""
    return text[pos + 1 : m.end()]


@one_shot
def fast_tag(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
    """The one-shot shortcut of :func:`read_tag`: the same decisions on the same windows of
    the whole text (prose, and ``content`` read to its last closing tag, are left to it)."""
    cline_tools = ClineTools.for_request(tools)
    plan = _opens(text[pos : pos + _WINDOW], True, cline_tools)
    if not isinstance(plan, tuple):  # prose (the reader declines)
        return -1
    name, at = plan
    pos += at
    known = cline_tools.known(name)
    close = f"</{name}>"
    kinds, kind = kinds_of(tools, name)
    values: dict[str, Any] = {}
    while True:
        pos = text.find("<", pos)
        if pos < 0:
            return -1
        if text.startswith(close, pos):
            calls.append(ToolCall(name, values))
            return pos + len(close)
        m = _OPEN_TAG.match(text, pos)
        if m is not None and m.end() <= pos + _WINDOW:  # the whole tag within the window
            key = m.group(1)
        else:
            key = _tag_in_window(text, pos)
        if not _is_param(key, known):
            pos += 1
            continue
        if (name, key) in LAST_MATCH:
            return -1
        pos += len(key) + 2
        end = text.find(f"</{key}>", pos)
        if end < 0:
            return -1
        t, schema = kinds.get(key) or kind(name, key)
        raw = text[pos:end].strip(_SPACE)  # trim "space"
        values[key] = raw if t == "string" else one_shot_value(raw, t, schema)
        pos = end + len(key) + 3


class ClineDialect(ScannerDialect):
    """Cline / Roo-Code ``<TOOL><PARAM>value</PARAM></TOOL>`` tool use."""

    info = DialectInfo(
        name="cline",
        aliases=("roo", "roo_code"),
        priority=5,
        markers=tuple(f"<{t}>" for t in BUILTIN_TOOLS),
        description="Cline / Roo-Code: <TOOL_NAME><PARAM>value</PARAM></TOOL_NAME>, tag names "
        "from the request's tools (Cline's built-in tools without them)",
        source="cline/cline src/core/prompts/system.ts, src/core/assistant-message/index.ts "
        "and parse-assistant-message.ts; RooCodeInc/Roo-Code src/shared/tools.ts",
    )
    grammar = Grammar(blocks=(Block("<", read_tag, keep_open=True, fast=fast_tag),))
    content_separator = "\n"

    def schemas(self, tools: Any) -> ClineTools:
        """The request's tools with their parameter names (Cline's built-ins without tools)."""
        return ClineTools.for_request(tools)

    def detect(self, text: str) -> bool:
        """True when a built-in Cline tool is really used (not merely mentioned)."""
        return bool(self.parse(text).calls)

    def check_content(self, content: str) -> None:
        """Refuse content holding a built-in tool tag (it could read back as a call)."""
        self._check_tags(content, BUILTIN_TOOLS)

    def _check_tags(self, content: str, names: Iterable[str]) -> None:
        for name in names:
            if f"<{name}>" in content:
                raise self.error(f"content contains the tool tag <{name}>")

    @plain_render_without_calls  # no calls: no tags to check, then ScannerDialect.render
    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """``content`` followed by the calls (content must not hold their tags)."""
        self._check_tags(content, {c.name for c in calls})
        return super().render(calls, content)

    def _param(self, key: str, value: Any) -> str:
        if not _TAG.fullmatch(key):
            raise self.error(f"argument name {key!r} cannot be a tag name")
        if len(key) > MAX_TAG:
            raise self.error(f"argument names longer than {MAX_TAG} characters are not read")
        text = value if isinstance(value, str) else to_json(value)
        if text != text.strip():
            raise self.error(f"the value of {key!r} has leading or trailing whitespace")
        if f"</{key}>" in text:
            raise self.error(f"the value of {key!r} contains </{key}>")
        if "\n" in text:
            return f"<{key}>\n{text}\n</{key}>"
        return f"<{key}>{text}</{key}>"

    def _call(self, call: ToolCall) -> str:
        if not _TAG.fullmatch(call.name):
            raise self.error(f"tool name {call.name!r} cannot be a tag name")
        if len(call.name) > MAX_TAG:
            raise self.error(f"tool names longer than {MAX_TAG} characters are not read")
        lines = [f"<{call.name}>"]
        lines.extend(self._param(k, v) for k, v in call.arguments.items())
        lines.append(f"</{call.name}>")
        return "\n".join(lines)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call as a tool block, one parameter per line; blocks joined by a newline."""
        return "\n".join(self._call(c) for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the cline dialect."""
    register(ClineDialect())
