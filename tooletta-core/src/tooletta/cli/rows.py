"""The per-row work of ``--jsonl`` runs: what one input line becomes.

A :class:`RowJob` is a small picklable description of what to do with one JSON record, so the
same job runs in this process or in worker processes (``--jobs N``). :func:`work_batch` runs
it over a batch of raw input lines and says, line by line, what each one became: an output
line (a blank input line gives a blank output line) or a reason for rejecting it. It never
raises for a bad line, so every line of a batch is accounted for.
"""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from .. import api
from ..errors import ToolettaError, ToolettaWarning
from ..ir import Message, ParseResult, ToolCall
from ..jsonout import json_type
from .io import InputError, json_problem

__all__ = [
    "Done",
    "RowJob",
    "calls_of",
    "check_tools",
    "json_type",
    "reasoning_of",
    "result_record",
    "split_block",
    "work_batch",
    "work_block",
]

_decode = msgspec.json.Decoder().decode
_encode = msgspec.json.Encoder().encode


def result_record(result: ParseResult, fmt: str) -> dict[str, Any]:
    """A parse result as a JSON-ready record, canonical or OpenAI assistant message.

    The OpenAI message is valid for the SDK's ``ChatCompletionMessage``: calls without ids
    get derived ones (distinct per position), reasoning goes in ``reasoning_content``.
    """
    if fmt == "openai":
        from ..interop.chat import write_chat  # only for this format: a fast start

        neutral = Message(
            role="assistant",
            content=result.content or None,
            tool_calls=result.calls,
            reasoning=result.reasoning,
        )
        (message,) = write_chat([neutral], style="openai", ids="keep")
        if result.unparsed:
            message["unparsed_tool_calls"] = msgspec.to_builtins(result.unparsed)
        return message
    record: dict[str, Any] = msgspec.to_builtins(result)
    record.setdefault("calls", [])
    return record


def reasoning_of(value: Any) -> str:
    """The reasoning of the JSON users hand to ``render``: ``reasoning`` of a parse result
    or ``reasoning_content`` of an assistant message (``""`` for none)."""
    if isinstance(value, dict):
        for key in ("reasoning", "reasoning_content"):
            text = value.get(key)
            if isinstance(text, str) and text:
                return text
    return ""


def calls_of(value: Any) -> tuple[list[ToolCall], str]:
    """Calls and content from the JSON users hand to ``render``.

    Accepted: a list of calls (canonical ``{name, arguments, id}`` or OpenAI ``tool_calls``
    items), or an object with ``content`` and ``calls``/``tool_calls`` (a parse result, a
    canonical envelope, or an OpenAI assistant message).
    """
    content = ""
    items: Any = value
    if isinstance(value, dict):
        content = value.get("content") or ""
        if not isinstance(content, str):
            raise InputError("content must be a string")
        items = value.get("calls", value.get("tool_calls"))
        if items is None and isinstance(value.get("function_call"), dict):
            items = [value["function_call"]]
        items = items or []
    if not isinstance(items, list):
        raise InputError("expected a JSON list of tool calls, or an object with tool_calls")
    calls = []
    for i, item in enumerate(items):
        try:
            calls.append(ToolCall.from_openai(item))
        except ValueError as exc:
            raise InputError(f"tool call {i}: {exc}") from None
    return calls, content


def check_tools(tools: Any, where: str) -> None:
    """Fail with a clear reason unless ``tools`` is null or a list of tool definitions."""
    if tools is None:
        return
    if not isinstance(tools, list):
        raise InputError(f"{where} must be a list of tool definitions, not {json_type(tools)}")
    from ..interop import read_tools

    try:
        read_tools(tools)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None


def _text_of(row: Any) -> tuple[str, Any]:
    if isinstance(row, str):
        return row, None
    if isinstance(row, dict):
        text = row.get("text")
        if isinstance(text, str):
            tools = row.get("tools")
            check_tools(tools, '"tools"')
            return text, tools
        if "text" in row:
            raise InputError(f'"text" must be a string, not {json_type(text)}')
    raise InputError('expected a JSON string, an object with "text", or one with "messages"')


class Job(Protocol):
    """What a ``--jsonl`` run does with each record (picklable: workers receive a copy)."""

    def check(self) -> None:
        """Fail once, before any row (an unknown dialect, a missing file...)."""

    def __call__(self, row: Any) -> bytes:
        """One output line (JSON, no newline) for one record; a ToolettaError for a bad one."""
        ...


@dataclass(frozen=True)
class RowJob:
    """What to do with each record of a ``--jsonl`` run (picklable, no global state).

    ``kind`` is ``parse``, ``render`` or ``convert``. Conversation rows (objects with
    ``messages``) are converted with :func:`tooletta.interop.convert_rows`: assistant text in
    ``source`` is parsed, then every assistant message with calls is rendered as ``target``
    text; ``target="messages"`` stops after parsing (structured ``tool_calls`` in
    ``call_format``).
    """

    kind: str
    source: str = "auto"
    target: str = ""
    tools: Any = None
    fmt: str = "canonical"
    strict: bool = False
    call_format: str = "openai"
    ids: str = "keep"
    drop_reasoning: bool = False

    def check(self) -> None:
        """Fail once, before any row, when a dialect name is unknown."""
        if self.kind != "render" and self.source != "auto":
            api.get_dialect(self.source)
        if self.kind != "parse" and self.target not in ("", "messages"):
            api.get_dialect(self.target)

    def __call__(self, row: Any) -> bytes:
        """One output line (JSON, no newline) for one input record.

        Raises :class:`~tooletta.ToolettaError` for a bad record.
        """
        if self.kind == "render":
            calls, content = calls_of(row)
            text = api.render_with_reasoning(
                calls,
                self.target,
                content=content,
                reasoning=reasoning_of(row),
                drop_reasoning=self.drop_reasoning,
            )
            return _encode({"text": text})
        if isinstance(row, dict) and "messages" in row and "text" not in row:
            return _encode(self._messages(row))
        text, row_tools = _text_of(row)
        tools = row_tools or self.tools
        if self.kind == "parse":
            result = api.parse(text, self.source, tools=tools, strict=self.strict)
            return _encode(result_record(result, self.fmt))
        out = api.convert(
            text, self.source, self.target, tools=tools, drop_reasoning=self.drop_reasoning
        )
        return _encode({**row, "text": out} if isinstance(row, dict) else out)

    def _messages(self, row: dict[str, Any]) -> Any:
        from ..interop import convert_rows

        # calls only in between (rendered next): HF form, which invents no ids
        parse_format = self.call_format if self.target == "messages" else "hf"
        (done,) = convert_rows(
            [row],
            direction="parse",
            source_dialect=self.source,
            call_format=parse_format,  # type: ignore[arg-type]
            ids=self.ids,  # type: ignore[arg-type]
        )
        if self.kind == "convert" and self.target != "messages" and "error" not in done:
            (done,) = convert_rows([done], direction="render", target_dialect=self.target)
        if "error" in done:  # convert_rows names the error's kind; the CLI's rows do not
            raise InputError(_without_kind(str(done["error"])))
        return done


Done = tuple[bytes, list[tuple[int, str]], int, list[tuple[int, str]]]
"""A batch's outcome: its output (one line per good row or blank line, each ending in a
newline), its bad lines as ``(index in the batch, reason)``, its number of rows (lines that
are not blank), and the warnings its rows raised as ``(index in the batch, message)``."""


def split_block(block: bytes) -> list[bytes]:
    """The lines of a block of whole lines, without their newlines (as a binary file's lines
    are cut: at ``\\n`` only)."""
    lines = block.split(b"\n")
    if lines[-1] == b"":  # the block ends with a newline: nothing after it
        lines.pop()
    return lines


def work_block(job: Job, block: bytes) -> Done:
    """:func:`work_batch` over the lines of a block of whole lines (see :func:`split_block`)."""
    return work_batch(job, split_block(block))


def work_batch(job: Job, lines: list[bytes]) -> Done:
    """Run ``job`` over raw input lines; every line gives an output line or a reason.

    Warnings are caught once for the whole batch (entering ``catch_warnings`` costs more
    than many rows' decoding) and each one is given to the row that raised it.
    """
    out: list[bytes] = []
    bad: list[tuple[int, str]] = []
    warned: list[tuple[int, str]] = []
    others: list[warnings.WarningMessage] = []
    rows = 0
    decode = _decode
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ToolettaWarning)  # every row's, not once per place
        for index, raw in enumerate(lines):
            if not raw or raw.isspace():
                out.append(b"")
                continue
            rows += 1
            try:
                row = decode(raw)
            except (msgspec.DecodeError, UnicodeError, RecursionError) as exc:
                bad.append((index, f"not valid JSON: {json_problem(raw, exc)}"))
                continue
            try:
                out.append(job(row))
            except ToolettaError as exc:
                bad.append((index, str(exc)))
            except RecursionError:
                bad.append((index, "nested too deeply"))
            except Exception as exc:  # a bug must not lose the row, nor the rest of the run
                bad.append(
                    (index, f"internal error, please report it: {type(exc).__name__}: {exc}")
                )
            if caught:
                for w in caught:
                    if issubclass(w.category, ToolettaWarning):
                        warned.append((index, str(w.message)))
                    else:
                        others.append(w)
                caught.clear()
    for w in others:  # not ours: shown as Python would have
        warnings.showwarning(w.message, w.category, w.filename, w.lineno)
    if out:
        out.append(b"")
    return b"\n".join(out), bad, rows, warned


_KIND = re.compile(r"^[A-Z][A-Za-z]*(?:Error|Exception): ")


def _without_kind(reason: str) -> str:
    """A :func:`~tooletta.interop.convert_rows` reason without its leading exception name
    (``"RenderError: ..."``), so that every row error of a ``--jsonl`` run reads alike."""
    return _KIND.sub("", reason, count=1)
