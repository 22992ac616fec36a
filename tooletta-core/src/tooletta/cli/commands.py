"""The built-in commands: list-dialects, detect, parse, render, convert."""

from __future__ import annotations

import sys
from typing import IO, Any

import click

from .. import api
from ..plugins import get_plugins, get_registry
from .io import InputError, dump, echo_line, load_json, read_text, warnings_to_stderr
from .jsonl import run_jsonl
from .rows import RowJob, calls_of, check_tools, reasoning_of, result_record

__all__ = ["convert_cmd", "detect_cmd", "list_dialects_cmd", "parse_cmd", "render_cmd"]

_input = click.argument("source", type=click.File("rb"), default="-", required=False)
_jsonl = click.option(
    "--jsonl", "--nl", "jsonl", is_flag=True, help="One JSON record per line (datasets)."
)
_jobs = click.option(
    "--jobs",
    "-j",
    type=click.IntRange(1, 256),
    default=1,
    show_default=True,
    help="Worker processes for --jsonl runs.",
)
_reject = click.option(
    "--reject",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="With --jsonl: write the bad input rows (as they were) to this file, which is "
    "opened (emptied) before any output.",
)
_drop_reasoning = click.option(
    "--drop-reasoning",
    is_flag=True,
    help="Drop reasoning the target dialect has no place for, without a warning.",
)
_tools = click.option(
    "--tools",
    "tools_file",
    type=click.File("rb"),
    help="JSON file of the request's tool definitions (OpenAI style), to type arguments.",
)


def _load_tools(tools_file: IO[bytes] | None) -> Any:
    if tools_file is None:
        return None
    tools = load_json(read_text(tools_file), "a JSON list of tool definitions")
    if not isinstance(tools, list):
        raise InputError("--tools must hold a JSON list of tool definitions")
    check_tools(tools, "--tools")
    return tools


# -- list-dialects ------------------------------------------------------------------------


@click.command("list-dialects")
@click.option("--json", "as_json", is_flag=True, help="A JSON array, one object per dialect.")
@click.option("--plugins", is_flag=True, help="List plugins (with hooks, versions, errors).")
@click.option(
    "--learned",
    "learned_specs",
    multiple=True,
    type=click.Path(exists=True, dir_okay=False),
    help="Load a learned format's spec (tooletta learn --save) first; repeatable.",
)
def list_dialects_cmd(as_json: bool, plugins: bool, learned_specs: tuple[str, ...]) -> None:
    """List installed dialects in detection order (priority, then name); learned formats
    are marked ``learned`` with their source."""
    if learned_specs:
        from ..chat.learn import load_learned

        for spec in learned_specs:
            load_learned(spec)
    registry = get_registry()
    if plugins:
        rows = [
            {
                "name": p.name,
                "module": p.module,
                "distribution": p.distribution,
                "version": p.version,
                "hooks": p.hooks,
                "error": p.error,
            }
            for p in get_plugins()
        ]
        echo_line(_pretty(rows))
        return
    dialects = [
        {
            "name": e.info.name,
            "aliases": list(e.info.aliases),
            "priority": e.info.priority,
            "plugin": e.plugin,
            "version": e.version,
            "models": list(e.info.models),
            "markers": list(e.info.markers),
            "supports": list(e.supports),
            "description": e.info.description,
            "learned": e.plugin.startswith("learned ("),
            "source": e.info.source,
        }
        for e in registry.ordered()
    ]
    if as_json:
        echo_line(_pretty(dialects))
    else:
        _table(dialects)
    for problem in registry.problems:
        click.echo(f"problem: {problem.plugin}: {problem.error}", err=True)


def _pretty(value: Any) -> str:
    import json

    return json.dumps(value, indent=2, ensure_ascii=False)


def _table(dialects: list[dict[str, Any]]) -> None:
    headers = ("name", "priority", "plugin", "version", "supports", "aliases")
    rows = [
        (
            d["name"],
            str(d["priority"]),
            d["plugin"],
            d["version"] or "",
            ",".join(d["supports"]),
            ", ".join(d["aliases"]),
        )
        for d in dialects
    ]
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(headers[:-1])]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, [*widths, 0])).rstrip()]
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, [*widths, 0])).rstrip() for r in rows]
    echo_line("\n".join(lines))


# -- detect -------------------------------------------------------------------------------


@click.command("detect")
@_input
def detect_cmd(source: IO[bytes]) -> None:
    """Print the dialect a model output is written in (exit 1 when none)."""
    name = api.detect(read_text(source))
    if name is None:
        click.echo("no dialect detected", err=True)
        sys.exit(1)
    echo_line(name)


# -- parse --------------------------------------------------------------------------------


@click.command("parse")
@click.option("-d", "--dialect", default="auto", show_default=True, help="Dialect name or auto.")
@_tools
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["canonical", "openai"]),
    default="canonical",
    show_default=True,
    help="Output shape.",
)
@click.option("--strict", is_flag=True, help="Fail on malformed tool-call blocks.")
@_jsonl
@_jobs
@_reject
@_input
def parse_cmd(
    dialect: str,
    tools_file: IO[bytes] | None,
    fmt: str,
    strict: bool,
    jsonl: bool,
    jobs: int,
    reject: str | None,
    source: IO[bytes],
) -> None:
    """Parse model output into content, tool calls, reasoning and unparsed blocks (JSON).

    With --jsonl each input line is a JSON string or an object with "text" (and optionally
    "tools"); each output line is the parse result.
    """
    tools = _load_tools(tools_file)
    if not jsonl:
        text = read_text(source)
        with warnings_to_stderr():
            result = api.parse(text, dialect, tools=tools, strict=strict)
        echo_line(dump(result_record(result, fmt)))
        return
    job = RowJob("parse", source=dialect, tools=tools, fmt=fmt, strict=strict)
    run_jsonl(source, job, jobs=jobs, reject=reject)


# -- render -------------------------------------------------------------------------------


@click.command("render")
@click.option("-d", "--dialect", required=True, help="Target dialect.")
@click.option("--content", default=None, help="Content text to put before the calls.")
@_drop_reasoning
@_jsonl
@_jobs
@_reject
@_input
def render_cmd(
    dialect: str,
    content: str | None,
    drop_reasoning: bool,
    jsonl: bool,
    jobs: int,
    reject: str | None,
    source: IO[bytes],
) -> None:
    """Write canonical or OpenAI JSON calls as a dialect's model text.

    Reasoning in the input ("reasoning" of a parse result, "reasoning_content" of an
    assistant message) is written where the dialect has a place for it, else dropped with a
    warning (--drop-reasoning: silently). With --jsonl each input line is a calls record and
    each output line {"text": ...}.
    """
    if not jsonl:
        value = load_json(read_text(source), "tool calls")
        calls, found = calls_of(value)
        with warnings_to_stderr():
            text = api.render_with_reasoning(
                calls,
                dialect,
                content=content if content is not None else found,
                reasoning=reasoning_of(value),
                drop_reasoning=drop_reasoning,
            )
        sys.stdout.write(text)
        sys.stdout.write("\n")
        return
    job = RowJob("render", target=dialect, drop_reasoning=drop_reasoning)
    run_jsonl(source, job, jobs=jobs, reject=reject)


# -- convert ------------------------------------------------------------------------------


@click.command("convert")
@click.option("--from", "source_dialect", default="auto", show_default=True, help="Source dialect.")
@click.option(
    "--to",
    "target",
    required=True,
    help='Target dialect; with --jsonl conversation rows, "messages" for structured tool_calls.',
)
@_tools
@click.option(
    "--call-format",
    type=click.Choice(["openai", "hf"]),
    default="openai",
    show_default=True,
    help="Shape of structured tool_calls written into conversation rows.",
)
@click.option(
    "--ids",
    type=click.Choice(["keep", "openai", "mistral", "anthropic", "kimi"]),
    default="keep",
    show_default=True,
    help="Id policy for calls parsed out of conversation rows (results follow their calls).",
)
@_drop_reasoning
@_jsonl
@_jobs
@_reject
@_input
def convert_cmd(
    source_dialect: str,
    target: str,
    tools_file: IO[bytes] | None,
    call_format: str,
    ids: str,
    drop_reasoning: bool,
    jsonl: bool,
    jobs: int,
    reject: str | None,
    source: IO[bytes],
) -> None:
    """Convert model text from one dialect to another, keeping the content and reasoning.

    Reasoning the target dialect has no place for is dropped with a warning on stderr
    (--drop-reasoning: silently).

    With --jsonl each input line is a JSON string, an object with "text" (converted in
    place), or a conversation row {"messages": [...], "tools": [...]}: assistant text written
    in the source dialect is parsed, and every assistant message with tool calls (structured
    or parsed) is rendered as the target dialect's text; --to messages keeps them
    structured. In conversation rows reasoning stays in "reasoning_content".
    """
    tools = _load_tools(tools_file)
    if not jsonl:
        text = read_text(source)
        with warnings_to_stderr():
            out = api.convert(
                text, source_dialect, target, tools=tools, drop_reasoning=drop_reasoning
            )
        sys.stdout.write(out)
        sys.stdout.write("\n")
        return
    job = RowJob(
        "convert",
        source=source_dialect,
        target=target,
        tools=tools,
        call_format=call_format,
        ids=ids,
        drop_reasoning=drop_reasoning,
    )
    run_jsonl(source, job, jobs=jobs, reject=reject)
