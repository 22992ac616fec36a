"""Generate the reference pages from the installed code.

``python docs/generate.py`` writes:

- ``docs/cli.md``: every command's ``--help``;
- ``docs/dialects/index.md``: one table of every installed dialect, in detection order;
- ``docs/dialects/<plugin>.md``: one page per plugin (dialect family) with each dialect's
  declared metadata, the plugin README (formats and sources) and an example rendered by
  ``tooletta.render`` and parsed back (the page's Python block runs as a docs test);
- ``docs/concepts/conversation-formats.md``: every chat format, its models and source
  template, and a short conversation it renders;
- the parser-name table of ``docs/migration.md`` (between its ``generated`` markers): every
  vLLM and SGLang ``--tool-call-parser`` name and the dialect it resolves to.

``--check`` writes nothing and exits 1 when a page is out of date (the test suite runs it).
"""

from __future__ import annotations

import importlib
import re
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import click

import tooletta
from tooletta.cli import cli
from tooletta.errors import ToolettaError
from tooletta.plugins import get_plugins, get_registry
from tooletta.registry import DialectEntry

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
DIALECTS = DOCS / "dialects"
MIGRATION = DOCS / "migration.md"

# -- parser names of the inference servers ---------------------------------------------------

VLLM_SOURCE = "vllm-project/vllm `vllm/tool_parsers/__init__.py` (commit 0064cc9c)"
VLLM_PARSERS = (
    "apertus",
    "cohere_command3",
    "cohere_command4",
    "deepseek_v3",
    "deepseek_v31",
    "deepseek_v32",
    "deepseek_v4",
    "ernie45",
    "functiongemma",
    "gemma4",
    "gigachat3",
    "glm45",
    "glm47",
    "granite",
    "granite-20b-fc",
    "granite4",
    "hermes",
    "hunyuan_a13b",
    "hy_v3",
    "inkling",
    "internlm",
    "jamba",
    "kimi_k2",
    "kimi_k3",
    "lfm2",
    "llama3_json",
    "llama4_json",
    "llama4_pythonic",
    "longcat",
    "mimo",
    "minicpm5",
    "minimax",  # older releases (MiniMax-M1)
    "minimax_m2",
    "minimax_m3",
    "mistral",
    "olmo3",
    "openai",
    "phi4_mini_json",
    "poolside_v1",
    "pythonic",
    "qwen3_coder",
    "qwen3_xml",
    "seed_oss",
    "solar_open2",
    "step3",
    "step3p5",
    "xlam",
)
SGLANG_SOURCE = (
    "sgl-project/sglang `python/sglang/srt/function_call/function_call_parser.py` (commit 00828e56)"
)
SGLANG_PARSERS = (
    "apertus2509",
    "cohere_command4",
    "deepseekv3",
    "deepseekv31",
    "deepseekv32",
    "deepseekv4",
    "dots",
    "gemma4",
    "gigachat3",
    "gigachat35",
    "glm",
    "glm45",
    "glm47",
    "gpt-oss",
    "hermes",
    "hunyuan",
    "inkling",
    "interns1",
    "k2_horizon",
    "kimi_k2",
    "kimi_k3",
    "lfm2",
    "ling3",
    "llama3",
    "mimo",
    "minicpm5",
    "minimax-m2",
    "minimax-m3",
    "mistral",
    "muse",
    "poolside_v1",
    "pythonic",
    "qwen",
    "qwen25",
    "qwen3_coder",
    "spark25",
    "step3",
    "step3p5",
    "trinity",
)
# Where a server's name means another format than our dialect of that name.
PARSER_OVERRIDES = {("vLLM", "openai"): "harmony"}
PARSER_NOTES = {
    "minimax": "older vLLM releases",
    "openai": (
        "vLLM's `openai` parses gpt-oss Harmony: use `harmony` (alias `gpt_oss`); tooletta's "
        "`openai` is the OpenAI JSON object format"
    ),
}
# Formats a server parses that no installed plugin covers yet (a test keeps this list true).
KNOWN_GAPS: dict[str, str] = {}


def server_names() -> dict[str, dict[str, bool]]:
    """Every parser name, with the servers that accept it."""
    names: dict[str, dict[str, bool]] = {}
    for server, parsers in (("vLLM", VLLM_PARSERS), ("SGLang", SGLANG_PARSERS)):
        for name in parsers:
            names.setdefault(name, {"vLLM": False, "SGLang": False})[server] = True
    return dict(sorted(names.items()))


def resolve(name: str, server: str | None = None) -> str | None:
    """The dialect a server's parser name stands for (``None`` when none is installed)."""
    if server is not None and (server, name) in PARSER_OVERRIDES:
        return PARSER_OVERRIDES[server, name]
    try:
        return tooletta.get_dialect(name).info.name  # type: ignore[no-any-return]
    except ToolettaError:
        return None


def parser_table() -> str:
    """The generated part of ``docs/migration.md``."""
    rows = [
        f"Names read from {VLLM_SOURCE} and {SGLANG_SOURCE}.",
        "",
        "| `--tool-call-parser` | vLLM | SGLang | tooletta dialect | note |",
        "|---|---|---|---|---|",
    ]
    for name, servers in server_names().items():
        targets = {resolve(name, s) for s, has in servers.items() if has}
        dialect = " / ".join(sorted(f"`{t}`" for t in targets if t)) or "—"
        note = PARSER_NOTES.get(name) or KNOWN_GAPS.get(name, "")
        mark = {True: "✓", False: ""}
        rows.append(
            f"| `{name}` | {mark[servers['vLLM']]} | {mark[servers['SGLang']]} | {dialect} | "
            f"{note} |"
        )
    return "\n".join(rows) + "\n"


BEGIN = "<!-- BEGIN generated by docs/generate.py: parser names -->\n"
END = "<!-- END generated -->\n"


def migration_page() -> str:
    """``docs/migration.md`` with its generated region replaced."""
    text = MIGRATION.read_text(encoding="utf-8")
    head, sep, rest = text.partition(BEGIN)
    _, sep2, tail = rest.partition(END)
    if not (sep and sep2):
        raise SystemExit(f"{MIGRATION}: the generated markers are missing")
    return head + BEGIN + parser_table() + END + tail


# -- Markdown helpers ------------------------------------------------------------------------


def code(text: str) -> str:
    """``text`` as an inline code span (newlines shown as ``\\n``)."""
    text = text.replace("\n", "\\n")
    ticks = 1
    while re.search(rf"(?<!`)`{{{ticks}}}(?!`)", text):
        ticks += 1
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{'`' * ticks}{pad}{text}{pad}{'`' * ticks}"


def cell(text: str) -> str:
    """A table cell: pipes escaped."""
    return text.replace("|", "\\|")


def codes(items: tuple[str, ...]) -> str:
    """Inline code spans joined by commas."""
    return ", ".join(code(x) for x in items)


def prose(text: str) -> str:
    """Plain text with every Markdown-active character escaped."""
    return re.sub(r"([\\`*_{}\[\]<>()#+\-!|~&$])", r"\\\1", text)


def fence(text: str, lang: str) -> str:
    """A fenced block long enough for any backticks inside ``text``."""
    longest = max((len(m) for m in re.findall(r"`+", text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{lang}\n{text}\n{marks}"


# -- the dialect reference -------------------------------------------------------------------


def page_name(plugin: str) -> str:
    """The page of a plugin: its entry-point name (the built-in module's last part)."""
    return plugin.rsplit(".", 1)[-1]


def families() -> dict[str, list[DialectEntry]]:
    """Installed dialects grouped by plugin, in detection order within each."""
    groups: dict[str, list[DialectEntry]] = {}
    for entry in get_registry().ordered():
        groups.setdefault(entry.plugin, []).append(entry)
    return dict(sorted(groups.items(), key=lambda kv: page_name(kv[0])))


def dialect_table() -> str:
    """One table of every installed dialect, in detection order, and the family pages."""
    rows = [
        "# Dialects",
        "",
        "Every installed dialect, in detection order. Generated by `docs/generate.py`; each",
        "family's page has the plugin's notes, the sources that pin its format and an example.",
        "",
        "| name | aliases | priority | plugin | models | markers |",
        "|---|---|---|---|---|---|",
    ]
    for e in get_registry().ordered():
        info = e.info
        link = f"[{cell(code(info.name))}]({page_name(e.plugin)}.md)"
        rows.append(
            f"| {link} | {cell(codes(info.aliases))} | {info.priority} | {e.plugin} | "
            f"{cell(codes(info.models))} | {cell(codes(info.markers))} |"
        )
    pages = [page_name(p) for p in families()]
    rows += ["", "```{toctree}", ":hidden:", "", *pages, "```", ""]
    return "\n".join(rows)


SAMPLE_CALLS = [
    tooletta.ToolCall("get_weather", {"city": "Paris", "days": 3}),
    tooletta.ToolCall("get_time", {"zone": "Europe/Paris"}),
]
SAMPLE_TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {
                "type": "object",
                "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
            },
        },
    },
    {
        "type": "function",
        "function": {
            "name": "get_time",
            "parameters": {"type": "object", "properties": {"zone": {"type": "string"}}},
        },
    },
]
CALL_SOURCE = {
    2: (
        "calls = [\n"
        '    ToolCall("get_weather", {"city": "Paris", "days": 3}),\n'
        '    ToolCall("get_time", {"zone": "Europe/Paris"}),\n'
        "]"
    ),
    1: 'calls = [ToolCall("get_weather", {"city": "Paris", "days": 3})]',
}
TOOLS_SOURCE = """tools = [
    {"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}},
    {"type": "function", "function": {"name": "get_time", "parameters": {
        "type": "object", "properties": {"zone": {"type": "string"}}}}},
]"""


def _round_trips(name: str, count: int, content: str, tools: Any) -> str | None:
    calls = SAMPLE_CALLS[:count]
    try:
        text = tooletta.render(calls, name, content=content)
        result = tooletta.parse(text, name, tools=tools)
    except ToolettaError:
        return None
    got = [(c.name, c.arguments) for c in result.calls]
    if got != [(c.name, c.arguments) for c in calls] or result.content != content:
        return None
    return text


def example(name: str) -> str:
    """A runnable example for one dialect: render sample calls, parse them back."""
    for count, content, tools in (
        (2, "Let me check.", None),
        (1, "Let me check.", None),
        (2, "", None),
        (1, "", None),
        (2, "Let me check.", SAMPLE_TOOLS),
        (1, "Let me check.", SAMPLE_TOOLS),
        (2, "", SAMPLE_TOOLS),
        (1, "", SAMPLE_TOOLS),
    ):
        text = _round_trips(name, count, content, tools)
        if text is not None:
            break
    else:
        return "No sample call round-trips through this dialect's renderer.\n"
    lines = ["import tooletta", "from tooletta import ToolCall", ""]
    if tools is not None:
        lines += [TOOLS_SOURCE, ""]
    lines.append(CALL_SOURCE[count])
    render_args = f'calls, "{name}"' + (f', content="{content}"' if content else "")
    lines.append(f"text = tooletta.render({render_args})")
    parse_args = f'text, "{name}"' + (", tools=tools" if tools is not None else "")
    lines.append(f"result = tooletta.parse({parse_args})")
    lines.append(f"assert result.content == {content!r}".replace("'", '"'))
    lines.append(
        "assert [(c.name, c.arguments) for c in result.calls] == "
        "[(c.name, c.arguments) for c in calls]"
    )
    why = " (this format needs the request's tools to parse)" if tools is not None else ""
    return "\n".join(
        [
            f"Rendered by `tooletta.render` and parsed back{why}:",
            "",
            fence("\n".join(lines), "python"),
            "",
            "`text` is:",
            "",
            fence(text, "text"),
            "",
        ]
    )


def readme(plugin: str, distribution: str | None) -> str:
    """The plugin's README without its title (the repo's copy, else the installed one)."""
    text = ""
    if distribution is not None:
        path = ROOT / "plugins" / distribution / "README.md"
        if path.exists():
            text = path.read_text(encoding="utf-8")
        else:
            try:
                text = metadata.distribution(distribution).metadata.get_payload() or ""  # type: ignore[attr-defined]
            except metadata.PackageNotFoundError:
                text = ""
    if distribution == "tooletta-core" or not text.strip():
        try:  # plugins load lazily: import the module itself for its docstring
            module = importlib.import_module(plugin)
        except ImportError:
            module = None
        doc = (module.__doc__ or "") if module is not None else ""
        return fence(doc.strip(), "text") + "\n" if doc.strip() else ""
    lines = text.strip().splitlines()
    if lines and lines[0].startswith("# "):
        lines = lines[1:]
    body = "\n".join(lines).strip()
    return body.replace("](../../README.md)", "](../index.md)") + "\n"


def family_page(plugin: str, entries: list[DialectEntry]) -> str:
    """One plugin's page."""
    dists = {p.name: p for p in get_plugins()}
    info = dists.get(plugin)
    distribution = info.distribution if info else None
    version = info.version if info else None
    title = distribution or plugin
    names = ", ".join(code(e.info.name) for e in entries)
    install = (
        f"`pip install {distribution}`"
        if distribution and distribution != "tooletta-core"
        else "built in (`pip install tooletta-core`)"
    )
    parts = [
        f"# {title}",
        "",
        f"Dialects: {names}. Plugin `{plugin}`"
        + (f", distribution `{distribution}` {version}" if distribution else "")
        + f"; install: {install}.",
        "",
        readme(plugin, distribution),
    ]
    for e in entries:
        i = e.info
        rows = [
            ("aliases", codes(i.aliases) or "—"),
            ("priority", str(i.priority)),
            ("plugin", f"{plugin} ({distribution} {version})" if distribution else plugin),
            ("models", codes(i.models) or "—"),
            ("markers", codes(i.markers) or "—"),
            ("supports", ", ".join(e.supports)),
            ("source", prose(i.source) or "—"),
        ]
        parts += [
            f"## Reference: `{i.name}`",
            "",
            prose(i.description) if i.description else "",
            "",
            "| | |",
            "|---|---|",
            *(f"| {k} | {cell(v)} |" for k, v in rows),
            "",
        ]
        if "render" in e.supports:
            parts.append(example(i.name))
    return "\n".join(parts).rstrip() + "\n"


def family_pages() -> dict[Path, str]:
    """Every family page, by path."""
    return {DIALECTS / f"{page_name(p)}.md": family_page(p, es) for p, es in families().items()}


# -- conversation formats -------------------------------------------------------------------

FORMATS_PAGE = DOCS / "concepts" / "conversation-formats.md"
_LONG = 1200
"""Texts longer than this are shown with their middle elided on the formats page."""


def _shown(text: str) -> str:
    """``text``, or its start and end with the number of characters left out between them
    (the fixed system texts of some templates run to thousands of characters)."""
    if len(text) <= _LONG:
        return text
    head, tail = text[: _LONG // 2], text[-_LONG // 3 :]
    return f"{head}\n[... {len(text) - len(head) - len(tail)} characters ...]\n{tail}"


def _format_example(name: str, tools: bool = True) -> tuple[str, str] | None:
    """A short conversation rendered with the format ``name`` (a user question, a call, its
    result, the answer; the sample weather tool declared) and the first assistant turn's
    generated text, or ``None`` when the format refuses it. ``tools`` false: a question and
    its answer, nothing declared (for a format that writes no tools)."""
    from tooletta import Message, ToolCall
    from tooletta.chat import render_spans

    call = ToolCall("get_weather", {"city": "Paris"}, "call_1")
    messages = [
        Message("user", "Weather in Paris?"),
        Message("assistant", "", tool_calls=[call]),
        Message("tool", '{"temp": 18}', tool_call_id="call_1", name="get_weather"),
        Message("assistant", "18 °C in Paris."),
    ]
    if not tools:
        messages = [messages[0], Message("assistant", "I cannot look it up.")]
    try:
        spans = render_spans(
            messages,
            dialect=name,
            tools=SAMPLE_TOOLS[:1] if tools else None,
            strftime_now=lambda f: "DATE",
        )
    except ToolettaError:
        return None
    _, (start, end) = spans.generated_spans()[0]
    return spans.text, spans.text[start:end]


def formats_page() -> str:
    """Every installed chat format: its dialect, the models it answers to, the template that
    pins it, and a conversation it renders."""
    from tooletta.chat import chat_formats_of

    parts = [
        "# Conversation formats",
        "",
        "Every installed chat format (see {doc}`conversations`), generated by `docs/generate.py`"
        " from the plugins' declarations. `model=` picks a format by the patterns below (the"
        " longest match wins); `dialect=` takes a format's name. Each example is a short"
        " conversation (a question, a `get_weather` call, its result, the answer, the tool"
        " declared; `strftime_now` pinned to `DATE`) rendered by `render_conversation`, then"
        " the first assistant turn as the model generates it (what `render(..., model=...,"
        " end_of_turn=True)` writes: without `end_of_turn=True`, `render` leaves the end token"
        " out). Differences from a template are on the family's page.",
        "",
        "A format whose template writes no tools at all (no tool declarations, no calls, no"
        " tool results: Mistral Small 3 and 3.1, Large 2411, Codestral) declares"
        " {attr}`~tooletta.chat.ChatFormat.writes_tools` false: every render refuses its tools"
        " with a {class}`~tooletta.RenderError` rather than drop them (see {doc}`refusals`), and"
        " {func}`~tooletta.chat.identify` names it only for a template that writes none"
        " either; its example is a question and its answer.",
        "",
    ]
    seen: set[str] = set()
    for entry in sorted(get_registry().ordered(), key=lambda e: (page_name(e.plugin), e.info.name)):
        for fmt in chat_formats_of(entry.dialect):
            if fmt.name in seen:
                continue
            seen.add(fmt.name)
            parts += [
                f"## `{fmt.name}`",
                "",
                f"Dialect `{entry.info.name}` ([{page_name(entry.plugin)}]"
                f"(../dialects/{page_name(entry.plugin)}.md)).",
                "",
                f"* models: {codes(tuple(fmt.models)) or 'none (by name only)'}",
                f"* template: {prose(fmt.source) if fmt.source else 'not named'}",
                "",
            ]
            tools = getattr(fmt, "writes_tools", True)
            shown = _format_example(fmt.name, tools)
            if not tools:
                parts += [
                    "The template writes no tools (`writes_tools = False`): the sample"
                    " conversation, its tool declared, its call and its result, is refused."
                    " A question and its answer:",
                    "",
                ]
            if shown is None:
                parts += ["The sample conversation is refused by this format.", ""]
                continue
            parts += [
                fence(_shown(shown[0]), "text"),
                "",
                "The call turn:" if tools else "The answer turn:",
                "",
                fence(shown[1], "text"),
                "",
            ]
    return "\n".join(parts).rstrip() + "\n"


# -- the CLI reference -----------------------------------------------------------------------


def cli_reference() -> str:
    """Every command's ``--help``, as Markdown."""
    parts = [
        "# CLI reference",
        "",
        "Generated from the click commands by `docs/generate.py`. How the lines of a `--jsonl`"
        " run map to output and rejects, and how a run stops on Ctrl-C or SIGTERM:"
        " [Datasets](concepts/datasets.md#how-input-lines-map-to-output).",
        "",
    ]
    ctx = click.Context(cli, info_name="tooletta", terminal_width=100, max_content_width=100)
    parts += ["## tooletta", "", "```text", cli.get_help(ctx), "```", ""]
    for name in sorted(cli.commands):
        command = cli.commands[name]
        sub = click.Context(command, info_name=name, parent=ctx)
        parts += [f"## tooletta {name}", "", "```text", command.get_help(sub), "```", ""]
    return "\n".join(parts)


# -- main ------------------------------------------------------------------------------------


def pages() -> dict[Path, str]:
    """Every generated page, by path."""
    makers: dict[Path, Callable[[], str]] = {
        DOCS / "cli.md": cli_reference,
        DIALECTS / "index.md": dialect_table,
        MIGRATION: migration_page,
        FORMATS_PAGE: formats_page,
    }
    out = {path: make() for path, make in makers.items()}
    out.update(family_pages())
    return out


def main(argv: list[str]) -> int:
    """Write (or with ``--check``, compare) the generated pages."""
    check = "--check" in argv
    wanted = pages()
    stale = [p for p, t in wanted.items() if not p.exists() or p.read_text("utf-8") != t]
    extra = [p for p in DIALECTS.glob("*.md") if p not in wanted]
    if check:
        for path in [*stale, *extra]:
            print(f"{path} is out of date: run python docs/generate.py", file=sys.stderr)
        return 1 if stale or extra else 0
    for path in stale:
        path.write_text(wanted[path], encoding="utf-8")
    for path in extra:
        path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
