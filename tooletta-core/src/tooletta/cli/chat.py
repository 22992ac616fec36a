"""Conversation commands: ``render-chat`` (a conversation in, the model's text out) and
``tokenize`` (conversations in, token ids and loss weights out)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from datetime import datetime
from typing import IO, Any

import click
import msgspec

from .. import api
from ..errors import ToolettaError
from ..extras import install_hint
from .commands import _input, _jobs, _jsonl, _load_tools, _reject
from .io import InputError, load_json, read_text
from .jsonl import run_jsonl
from .rows import check_tools

__all__ = ["render_chat_cmd", "tokenize_cmd"]

_encode = msgspec.json.Encoder().encode


def _options(pairs: tuple[str, ...], day: datetime | None = None) -> dict[str, Any]:
    """``KEY=VALUE`` template switches; a value is JSON when it reads as JSON (``false``,
    ``3``), else text. ``day`` (``--date``) pins the date templates write
    (``strftime_now``)."""
    import json  # only here: not at start

    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"{pair!r} is not KEY=VALUE", param_hint="--option")
        try:
            out[key] = json.loads(value)
        except ValueError:
            out[key] = value
    if day is not None:
        from ..chat.clock import PinnedDate  # here: the chat package is not needed to start

        out["strftime_now"] = PinnedDate(day.date())
    return out


def _conversation(row: Any, default_tools: Any) -> tuple[list[Any], Any]:
    """The messages and tools of a record: a list of messages, or ``{"messages", "tools"}``."""
    if isinstance(row, list):
        return row, default_tools
    if isinstance(row, dict) and isinstance(row.get("messages"), list):
        tools = row.get("tools")
        if tools is not None:
            check_tools(tools, '"tools"')
        return row["messages"], tools if tools is not None else default_tools
    raise InputError('expected a JSON list of messages or an object with a "messages" list')


_model = click.option("--model", "-m", help="The model's Hugging Face id (picks the format).")
_dialect = click.option("--dialect", "-d", help="A dialect or chat format name instead of --model.")
_date = click.option(
    "--date",
    "day",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    help="Pin the date that templates writing today's date use (YYYY-MM-DD): without it the "
    "text, and the token ids, of such models (Llama 3.2, GLM, Gemma 4...) change every day.",
)

_option = click.option(
    "--option",
    "-o",
    "options",
    multiple=True,
    metavar="KEY=VALUE",
    help="A template switch (enable_thinking=false, reasoning_effort=high...); repeatable.",
)
_allow_markup = click.option(
    "--allow-markup",
    is_flag=True,
    help="Write message text holding the format's markup as it is (refused by default: it "
    "would read back as other messages).",
)


def _with_markup(options: dict[str, Any], allow_markup: bool) -> dict[str, Any]:
    """The template switches, with ``allow_markup`` when ``--allow-markup`` is given."""
    return {**options, "allow_markup": True} if allow_markup else options


@dataclass(frozen=True)
class RenderChatJob:
    """One ``render-chat --jsonl`` record: a conversation in, ``{"text": ...}`` out."""

    model: str | None
    dialect: str | None
    tools: Any = None
    generation_prompt: bool = False
    chat_template: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """Fail once, before any row, when the model or dialect has no format, the template
        cannot be read, or the model's format does not reproduce the template."""
        if self.chat_template is None:
            from ..chat.lookup import resolve_format

            resolve_format(self.model, self.dialect)
        else:
            from ..chat.template import read_template, template_format

            template = read_template(self.chat_template, tools=True)
            if template is not None and (self.model is not None or self.dialect is not None):
                template_format(template, self.model, self.dialect)

    def render(self, row: Any) -> str:
        """The conversation's text."""
        messages, tools = _conversation(row, self.tools)
        return api.render_conversation(
            messages,
            model=self.model,
            dialect=self.dialect,
            tools=tools,
            add_generation_prompt=self.generation_prompt,
            chat_template=self.chat_template,
            **self.options,
        )

    def __call__(self, row: Any) -> bytes:
        """One output line."""
        return _encode({"text": self.render(row)})


_template = click.option(
    "--template",
    "--chat-template",
    "chat_template",
    metavar="FILE",
    help="The model's own chat template: a chat_template.jinja or tokenizer_config.json path, "
    "or Jinja text (needs jinja2). It picks the format; with --model, the model's format must "
    "reproduce it (a model with no known format takes the template's).",
)


@click.command("render-chat")
@_model
@_dialect
@click.option("--tools", "tools_file", type=click.File("rb"), help="JSON file of tool definitions.")
@click.option(
    "--generation-prompt", is_flag=True, help="End with the prompt for the next assistant turn."
)
@_template
@_option
@_date
@_allow_markup
@_jsonl
@_jobs
@_reject
@_input
def render_chat_cmd(
    model: str | None,
    dialect: str | None,
    tools_file: IO[bytes] | None,
    generation_prompt: bool,
    chat_template: str | None,
    options: tuple[str, ...],
    day: datetime | None,
    allow_markup: bool,
    jsonl: bool,
    jobs: int,
    reject: str | None,
    source: IO[bytes],
) -> None:
    """Write a conversation as the model's own chat template does.

    Input: a JSON list of messages (OpenAI / Hugging Face style) or {"messages": [...],
    "tools": [...]}. With --jsonl, one such record per line and {"text": ...} out per line
    (same line, reject and progress rules as convert --jsonl).
    """
    if model is None and dialect is None and chat_template is None:
        raise click.UsageError("give --model, --dialect or --template")
    job = RenderChatJob(
        model,
        dialect,
        _load_tools(tools_file),
        generation_prompt,
        chat_template,
        _with_markup(_options(options, day), allow_markup),
    )
    if jsonl:
        run_jsonl(source, job, jobs=jobs, reject=reject)
        return
    job.check()
    sys.stdout.write(job.render(load_json(read_text(source), "a JSON conversation")))


@dataclass(frozen=True)
class TokenizeJob:
    """One ``tokenize --jsonl`` record: a conversation in, ``{"input_ids", "weights"}`` out
    (``{"examples": [...]}`` with ``--split auto|per_turn``)."""

    tokenizer: str
    model: str | None
    dialect: str | None
    train_on: str = "assistant"
    split: str = "never"
    tools: Any = None
    options: dict[str, Any] = field(default_factory=dict)
    chat_template: str | None = None

    def check(self) -> None:
        """Fail once, before any row: the format (the template's, when one is given) and
        the tokenizer must load, and the tokenizer must fit the format (each of its special
        tokens one id), or every row would be rejected with the same message."""
        from ..chat.lookup import resolve_format
        from ..chat.template import template_names
        from ..training.datasets import load_tokenizer
        from ..training.tokenize import special_tokens_of
        from ..training.tokenizer import adapter_for

        model, dialect = template_names(self.model, self.dialect, self.chat_template, tools=True)
        fmt, _ = resolve_format(model, dialect)
        adapter = adapter_for(load_tokenizer(self.tokenizer))
        for token in special_tokens_of(fmt):
            adapter.single_id(token)

    def __call__(self, row: Any) -> bytes:
        """One output line."""
        from ..training import tokenize_conversation
        from ..training.datasets import load_tokenizer

        messages, tools = _conversation(row, self.tools)
        result = tokenize_conversation(
            messages,
            load_tokenizer(self.tokenizer),
            model=self.model,
            dialect=self.dialect,
            chat_template=self.chat_template,
            tools=tools,
            train_on=self.train_on,
            split=self.split,
            **self.options,
        )
        if isinstance(result, list):
            examples = [{"input_ids": e.input_ids, "weights": e.weights} for e in result]
            return _encode({"examples": examples})
        return _encode({"input_ids": result.input_ids, "weights": result.weights})


@click.command("tokenize")
@_model
@_dialect
@_template
@click.option(
    "--tokenizer",
    "tokenizer_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False),
    help="A local tokenizer.json (nothing is downloaded).",
)
@click.option("--tools", "tools_file", type=click.File("rb"), help="JSON file of tool definitions.")
@click.option(
    "--train-on",
    type=click.Choice(["assistant", "last_assistant", "all"]),
    default="assistant",
    show_default=True,
)
@click.option(
    "--split",
    type=click.Choice(["never", "auto", "per_turn"]),
    default="never",
    show_default=True,
    help='auto/per_turn: one example per assistant turn (written as {"examples": [...]}).',
)
@click.option(
    "--format",
    "out_format",
    type=click.Choice(["jsonl", "parquet"]),
    default="jsonl",
    show_default=True,
    help="parquet needs --output and pyarrow (the parquet extra: tooletta-core[parquet]).",
)
@click.option("--output", "-O", type=click.Path(dir_okay=False), help="Write here, not stdout.")
@_option
@_date
@_allow_markup
@_jsonl
@_jobs
@_reject
@_input
def tokenize_cmd(
    model: str | None,
    dialect: str | None,
    chat_template: str | None,
    tokenizer_path: str,
    tools_file: IO[bytes] | None,
    train_on: str,
    split: str,
    out_format: str,
    output: str | None,
    options: tuple[str, ...],
    day: datetime | None,
    allow_markup: bool,
    jsonl: bool,
    jobs: int,
    reject: str | None,
    source: IO[bytes],
) -> None:
    """Token ids and loss weights for conversations, in the model's own chat format.

    Each --jsonl line is a conversation ({"messages": [...], "tools": [...]} or a list of
    messages); each output line is {"input_ids": [...], "weights": [...]} (weights 1.0 on the
    tokens the model generates). Without --jsonl the input is one conversation.

    Templates that write today's date (Llama 3.2, GLM, Gemma 4...) give other ids every day:
    pin it with --date for a dataset you may tokenize again.
    """
    if model is None and dialect is None and chat_template is None:
        raise click.UsageError("give --model, --dialect or --template")
    if out_format == "parquet" and output is None:
        raise click.UsageError("--format parquet needs --output FILE")
    job = TokenizeJob(
        tokenizer_path,
        model,
        dialect,
        train_on,
        split,
        _load_tools(tools_file),
        _with_markup(_options(options, day), allow_markup),
        chat_template,
    )
    if not jsonl:
        job.check()
        line = job(load_json(read_text(source), "a JSON conversation"))
        _write_output(line + b"\n", output)
        return
    if out_format == "jsonl" and output is None:
        run_jsonl(source, job, jobs=jobs, reject=reject)
        return
    assert output is not None
    if out_format == "jsonl":
        _to_file(source, job, jobs, reject, output)
        return
    _to_parquet(source, job, jobs, reject, output)


def _write_output(data: bytes, output: str | None) -> None:
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        with open(output, "wb") as f:
            f.write(data)


def _redirected(source: IO[bytes], job: Any, jobs: int, reject: str | None, path: str) -> None:
    """``run_jsonl`` with stdout pointed at ``path`` (the run's own rules unchanged)."""
    sys.stdout.flush()
    saved = os.dup(sys.stdout.fileno())
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.dup2(fd, sys.stdout.fileno())
        run_jsonl(source, job, jobs=jobs, reject=reject)
    finally:
        sys.stdout.flush()
        os.dup2(saved, sys.stdout.fileno())
        os.close(fd)
        os.close(saved)


def _to_file(source: IO[bytes], job: Any, jobs: int, reject: str | None, path: str) -> None:
    _redirected(source, job, jobs, reject, path)


def _to_parquet(source: IO[bytes], job: Any, jobs: int, reject: str | None, path: str) -> None:
    """Run to a temporary JSONL file, then write it as Parquet (row groups of 10,000)."""
    try:
        import pyarrow as pa  # type: ignore[import-untyped, unused-ignore]
        import pyarrow.parquet as pq  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        raise ToolettaError(install_hint("--format parquet", "parquet")) from None
    import tempfile

    fd, tmp = tempfile.mkstemp(suffix=".jsonl", dir=os.path.dirname(os.path.abspath(path)))
    os.close(fd)
    code: int | None = None
    try:
        try:
            _redirected(source, job, jobs, reject, tmp)
        except SystemExit as exc:  # bad rows: still write the good ones, then exit 1
            code = exc.code if isinstance(exc.code, int) else 1
        writer = None
        with open(tmp, "rb") as f:
            while True:
                lines = [line for line in (f.readline() for _ in range(10_000)) if line]
                if not lines:
                    break
                rows = [msgspec.json.decode(line) for line in lines if line.strip()]
                table = pa.Table.from_pylist(rows)
                if writer is None:
                    writer = pq.ParquetWriter(path, table.schema)
                writer.write_table(table)
        if writer is not None:
            writer.close()
        else:
            pq.write_table(pa.table({"input_ids": [], "weights": []}), path)
    finally:
        os.unlink(tmp)
    if code:
        sys.exit(code)
