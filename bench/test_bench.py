"""pytest-benchmark suite (CI runs it with --benchmark-disable as a smoke test)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import hf
from inputs import make_calls
from limits import family_for, family_parser, minimal_for, minimal_hermes, minimal_stream, scan_all

import tooletta
from tooletta.testing import tools_for

TEXTS = {n: tooletta.render(make_calls(n), "hermes", content="Let me check.") for n in (1, 8, 64)}
FAMILIES = ["hermes", "mistral", "kimi_k2", "deepseek_v31", "harmony", "qwen3_coder", "glm45"]


@pytest.mark.parametrize("n", [1, 8, 64])
def test_parse_hermes(benchmark, n: int) -> None:  # type: ignore[no-untyped-def]
    result = benchmark(tooletta.parse, TEXTS[n], "hermes")
    assert len(result.calls) == n


@pytest.mark.parametrize("n", [1, 8, 64])
def test_stream_hermes_4_char_deltas(benchmark, n: int) -> None:  # type: ignore[no-untyped-def]
    text = TEXTS[n]
    deltas = [text[i : i + 4] for i in range(0, len(text), 4)]

    def run() -> int:
        parser = tooletta.stream("hermes")
        count = sum(len(parser.feed(d).calls) for d in deltas)
        parser.finish()
        return count

    assert benchmark(run) > 0


@pytest.mark.parametrize("dialect", FAMILIES)
def test_parse_family(benchmark, dialect: str) -> None:  # type: ignore[no-untyped-def]
    calls = make_calls(8)
    tools = tools_for(calls)
    text = tooletta.render(calls, dialect, content="Let me check.")
    result = benchmark(tooletta.parse, text, dialect, tools=tools)
    assert [(c.name, c.arguments) for c in result.calls] == [(c.name, c.arguments) for c in calls]


def test_minimal_parser_agrees(benchmark) -> None:  # type: ignore[no-untyped-def]
    calls = benchmark(minimal_hermes, TEXTS[8])
    assert [c.name for c in calls] == [c.name for c in tooletta.parse(TEXTS[8], "hermes").calls]


def _pairs(found: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(c.name, c.arguments) if hasattr(c, "name") else c for c in found]


@pytest.mark.parametrize("dialect", FAMILIES)
def test_every_minimal_parser_reads_its_family(dialect: str) -> None:
    """The limits parse the benchmark texts exactly as tooletta does (one-shot and streamed)."""
    calls = make_calls(8)
    tools = tools_for(calls)
    text = tooletta.render(calls, dialect, content="Let me check that for you.")
    found = minimal_for(dialect, tools)
    assert found is not None
    parse, marker = found
    want = [(c.name, c.arguments) for c in tooletta.parse(text, dialect, tools=tools).calls]
    assert _pairs(parse(text)) == want
    deltas = [text[i : i + 4] for i in range(0, len(text), 4)]
    assert _pairs(minimal_stream(deltas, marker, parse)) == want


def test_report_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """``run.py --quick`` prints its table (the full report is the README's)."""
    import run

    sys.argv = ["run.py", "--quick", "-d", "hermes", "--rounds", "1"]
    try:
        assert run.main() == 0
    finally:
        sys.argv = sys.argv[:1]
    out = capsys.readouterr().out
    assert "| hermes | 8 |" in out


def test_conversations_bench_runs() -> None:
    """Smoke: the conversation benchmark renders every tested format both ways."""
    import conversations

    rows = conversations.measure_rendering(1)
    assert rows and all(native > 0 and jinja > 0 for _, native, jinja in rows)
    conversations.measure_tokenizing(1)


def test_jsonl_bench_runs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Smoke: the JSONL benchmark times both commands against their bare loops."""
    import jsonl

    argv = ["--mb", "0.02", "--rounds", "1", "--data", str(tmp_path)]
    assert jsonl.main(argv) == 0
    out = capsys.readouterr().out
    for label in ("bare msgspec loop", "bare encode_batch loop", "--jobs 2", jsonl.PAIR):
        assert f"| {label} |" in out
    assert "| `tooletta.convert` |" in jsonl.convert_parts(tmp_path, 0.02, rounds=1, rows=20)


def _family_dialects() -> list[str]:
    calls = make_calls(1)
    tools = tools_for(calls)
    return [i.name for i in tooletta.list_dialects() if family_for(i.name, tools) is not None]


def test_every_dialect_but_canonical_has_a_minimal_reading() -> None:
    """``run.py`` compares every first-party dialect with its minimal reading; ``canonical``
    (tooletta's own JSON document) is the one without (bench/README.md says why). Formats
    learned in this process (``tooletta.learn``, or a template resolved to a learned format:
    registered and listed until the registry is reloaded) are not installed dialects and
    have none: left out, so that the test does not depend on what ran before it in the
    same process (bench/ has no module-level forgetting like tests/conftest.py)."""
    from tooletta.plugins import get_registry

    learned = {
        entry.info.name for entry in get_registry().entries if entry.plugin.startswith("learned (")
    }
    names = {i.name for i in tooletta.list_dialects()} - learned
    assert names - set(_family_dialects()) <= {"canonical"}


def test_the_minimal_reading_check_holds_after_a_format_is_learned() -> None:
    """A format learned earlier in the process (it stays registered and listed) does not
    make :func:`test_every_dialect_but_canonical_has_a_minimal_reading` fail: the check was
    order-dependent before."""
    from tooletta import plugins

    template = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "templates"
    tooletta.learn(str(template / "HuggingFaceTB-SmolLM3-3B.jinja"), name="bench-order-check")
    try:
        assert "bench-order-check" in {i.name for i in tooletta.list_dialects()}
        test_every_dialect_but_canonical_has_a_minimal_reading()
    finally:
        plugins.reset()


@pytest.mark.parametrize("n", [1, 8])
@pytest.mark.parametrize("dialect", _family_dialects())
def test_minimal_scanners_read_their_family(dialect: str, n: int) -> None:
    """Each family's minimal one-shot parser and incremental scanner read the benchmark text
    as tooletta does, whatever the delta size (so the ratios compare like with like), for
    one call (the formats that write a single call differently) and for several."""
    calls = make_calls(n)
    tools = tools_for(calls)
    text = tooletta.render(calls, dialect, content="Let me check that for you.")
    fam = family_for(dialect, tools)
    assert fam is not None
    want = _typed_json(
        [(c.name, c.arguments) for c in tooletta.parse(text, dialect, tools=tools).calls]
    )
    assert _typed_json(_pairs(family_parser(fam)(text))) == want
    for size in (1, 4, 7):
        deltas = [text[i : i + size] for i in range(0, len(text), size)]
        assert _typed_json(_pairs(scan_all(fam, deltas))) == want


def _typed_json(pairs: list[tuple[str, dict[str, Any]]]) -> bytes:
    """The calls as JSON with sorted keys: ``True`` and ``1``, ``3`` and ``3.0`` differ."""
    return msgspec.json.encode(pairs, order="sorted")


@pytest.mark.skipif(not hf.available(), reason="transformers is not installed")
@pytest.mark.parametrize("dialect", sorted(hf.TEMPLATES))
def test_transformers_templates_read_as_tooletta(dialect: str) -> None:
    """transformers' ResponseParser, with the bench's template, reads the calls tooletta reads
    (one-shot and streamed)."""
    calls = make_calls(8)
    tools = tools_for(calls)
    text = tooletta.render(calls, dialect, content="Let me check that for you.")
    want = [(c.name, c.arguments) for c in tooletta.parse(text, dialect, tools=tools).calls]
    assert hf.hf_parse(dialect, text, tools) == want
    deltas = [text[i : i + 4] for i in range(0, len(text), 4)]
    assert hf.hf_stream(dialect, deltas, tools) == want


def test_memory_bench_runs() -> None:
    """Smoke: the memory measurement counts something for a stream and the minimal scanner."""
    import memory

    row = memory.measure("hermes", 50)
    assert row["ours"] > 0 and row["minimal"] > 0 and row["idle"] > 0


def test_training_bench_runs() -> None:
    """bench/training.py measures (a few conversations, one round)."""
    import training
    from jsonl import _conversations

    pytest.importorskip("tokenizers")
    result = training.measure("qwen3", _conversations()[:8], 1)
    assert set(result) == {
        "render",
        "encode",
        "floor",
        "floor_fast",
        "tokenize",
        "ratio",
        "ratio_fast",
        "bare",
    }


def test_the_stock_jinja_peer_renders_as_tooletta_s_jinja() -> None:
    """The benchmarks' peer (stock jinja2, :mod:`stockjinja`) writes what tooletta's faster
    Jinja environment writes, on the templates and conversations the benchmarks time."""
    from learn import TEMPLATES
    from stockjinja import render_stock

    from tooletta.chat.jinja import load_chat_template, render_jinja
    from tooletta.chat.messages import read_tool_definitions
    from tooletta.testing.conversations import SAMPLE_TOOLS
    from tooletta.testing.samples import sample_conversations

    compared = 0
    for _label, path, _native, options in TEMPLATES:
        template, tokens = load_chat_template(str(path))
        for messages, uses_tools in sample_conversations().values():
            tools = read_tool_definitions(SAMPLE_TOOLS if uses_tools else None)
            try:
                want = render_jinja(
                    template, messages, tools=tools, tokens=tokens, engine_fallback=False, **options
                )
            except tooletta.ToolettaError:
                continue
            got = render_stock(template, messages, tools=tools, tokens=tokens, **options)
            assert got == want, path.name
            compared += 1
    assert compared >= 40


def _limit_cases() -> list[tuple[str, str, Any, Any, list[Any], list[dict[str, Any]]]]:
    """Every (template label, case name, template, options, messages, tools) that
    ``learn.py`` can time a limit renderer on: the sample conversations (with and without
    ids) and ``--long``'s long conversations, wherever the template renders them."""
    from learn import LONG_REPEATS, TEMPLATES, long_conversation

    from tooletta.chat.messages import read_tool_definitions
    from tooletta.testing.conversations import SAMPLE_TOOLS
    from tooletta.testing.samples import sample_conversations

    tools = read_tool_definitions(SAMPLE_TOOLS)
    conversations = [
        (f"{name}{' ids' if ids else ''}", messages, tools if uses_tools else [])
        for ids in (False, True)
        for name, (messages, uses_tools) in sample_conversations(ids=ids).items()
    ]
    conversations += [(f"long x{n}", long_conversation(n), tools) for n in LONG_REPEATS]
    return [
        (label, name, path, options, messages, defs)
        for label, path, _native, options in TEMPLATES
        for name, messages, defs in conversations
    ]


def test_every_template_has_a_limit_renderer() -> None:
    """``learn.py`` times a limit renderer beside every template it learns."""
    from learn import TEMPLATES
    from render_limits import LIMITS

    assert [t[0] for t in TEMPLATES] == list(LIMITS)


def test_limit_renderers_write_what_the_templates_write() -> None:
    """Each minimal renderer of ``render_limits.py`` writes exactly what its template writes
    (``render_jinja``) on every conversation ``learn.py`` may time it on (the template's own
    refusals aside), so that the limit is a renderer of the same text."""
    from render_limits import LIMITS

    from tooletta.chat.jinja import load_chat_template, render_jinja

    compared = 0
    for label, name, path, options, messages, tools in _limit_cases():
        template, tokens = load_chat_template(str(path))
        try:
            want = render_jinja(template, messages, tools=tools, tokens=tokens, **options)
        except tooletta.ToolettaError:
            continue
        assert LIMITS[label](messages, tools) == want, (label, name)
        compared += 1
    assert compared >= 140
