"""Tokenizing datasets (issue 11): the CLI (`tokenize`, `render-chat`), Hugging Face
`datasets.map(num_proc=2)` and Ray Data on a local cluster, with an offline tokenizer."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import tooletta
from support import weather_row
from tooletta.chat import resolve_format
from tooletta.testing.training import bpe_tokenizer
from tooletta.training import TokenizeRows, tokenize_conversation

pytest.importorskip("tokenizers")

MODEL = "Qwen/Qwen3-8B"
TOOLS = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]


def _row(i: int) -> dict[str, Any]:
    """An OpenAI-style conversation row (arguments as JSON text, as datasets keep them)."""
    return {**weather_row(i, answer=True), "tools": TOOLS}


@pytest.fixture(scope="module")
def tokenizer_file(tmp_path_factory: pytest.TempPathFactory) -> str:
    fmt, _ = resolve_format(MODEL, None)
    texts = [
        tooletta.render_conversation(r["messages"], model=MODEL, tools=r["tools"])
        for r in map(_row, range(30))
    ]
    path = tmp_path_factory.mktemp("tok") / "tokenizer.json"
    bpe_tokenizer(texts, fmt.special_tokens).save(str(path))
    return str(path)


def _expected(row: dict[str, Any], path: str) -> tuple[list[int], list[float]]:
    from tokenizers import Tokenizer

    got = tokenize_conversation(
        row["messages"], Tokenizer.from_file(path), model=MODEL, tools=row["tools"]
    )
    return got.input_ids, got.weights


def _cli(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tooletta.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_render_chat_writes_the_models_text() -> None:
    row = _row(1)
    proc = _cli("render-chat", "--model", MODEL, "--generation-prompt", stdin=json.dumps(row))
    assert proc.returncode == 0, proc.stderr
    want = tooletta.render_conversation(
        row["messages"], model=MODEL, tools=row["tools"], add_generation_prompt=True
    )
    assert proc.stdout == want


def test_render_chat_jsonl_keeps_lines_and_rejects(tmp_path: Path) -> None:
    rows = [json.dumps(_row(0)), json.dumps({"messages": 5}), json.dumps(_row(2))]
    reject = tmp_path / "bad.jsonl"
    proc = _cli(
        "render-chat", "--jsonl", "-m", MODEL, "--reject", str(reject), stdin="\n".join(rows)
    )
    assert proc.returncode == 1
    assert "line 2" in proc.stderr and "Traceback" not in proc.stderr
    out = [json.loads(line)["text"] for line in proc.stdout.splitlines()]
    assert out[1] == tooletta.render_conversation(_row(2)["messages"], model=MODEL, tools=TOOLS)
    assert reject.read_text().strip() == rows[1]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_tokenize_jsonl(tokenizer_file: str, jobs: str) -> None:
    rows = [_row(i) for i in range(40)]
    stdin = "\n".join(json.dumps(r) for r in rows)
    proc = _cli(
        "tokenize", "--jsonl", "-m", MODEL, "--tokenizer", tokenizer_file, "-j", jobs, stdin=stdin
    )
    assert proc.returncode == 0, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(lines) == len(rows)
    for row, line in zip(rows, lines):
        ids, weights = _expected(row, tokenizer_file)
        assert line["input_ids"] == ids and line["weights"] == weights


def test_a_tokenizer_that_does_not_fit_the_model_is_one_fatal_error(
    tokenizer_file: str, tmp_path: Path
) -> None:
    """Qwen's tokenizer does not hold Llama 3's header tokens: one error before any row (exit
    3, as for a tokenizer file that does not load), not one rejected row per line."""
    rows = "\n".join(json.dumps(_row(i)) for i in range(50))
    reject = tmp_path / "rejects.jsonl"
    proc = _cli(
        "tokenize",
        "--jsonl",
        "-m",
        "meta-llama/Llama-3.1-8B-Instruct",
        "--tokenizer",
        tokenizer_file,
        "--reject",
        str(reject),
        stdin=rows,
    )
    assert proc.returncode == 3, proc.stderr
    assert proc.stdout == "" and len(proc.stderr.strip().splitlines()) == 1
    assert "as" in proc.stderr and "ids" in proc.stderr
    assert not reject.exists() or reject.read_text() == ""


def test_tokenize_parquet(tokenizer_file: str, tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    rows = [_row(i) for i in range(12)]
    out = tmp_path / "out.parquet"
    proc = _cli(
        "tokenize",
        "--jsonl",
        "-m",
        MODEL,
        "--tokenizer",
        tokenizer_file,
        "--format",
        "parquet",
        "-O",
        str(out),
        stdin="\n".join(json.dumps(r) for r in rows),
    )
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(out).to_pylist()
    assert [t["input_ids"] for t in table] == [_expected(r, tokenizer_file)[0] for r in rows]


def test_tokenize_split_writes_examples(tokenizer_file: str) -> None:
    row = _row(3)
    proc = _cli(
        "tokenize", "-m", MODEL, "--tokenizer", tokenizer_file, "--split", "per_turn",
        stdin=json.dumps(row),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    examples = json.loads(proc.stdout)["examples"]
    assert len(examples) == 2


def test_tokenize_rows_reports_bad_rows(tokenizer_file: str) -> None:
    out = TokenizeRows(tokenizer_file, model=MODEL)(
        {"messages": [_row(0)["messages"], "oops"], "tools": [TOOLS, None]}
    )
    assert out["error"][0] == "" and out["input_ids"][0]
    assert out["error"][1] and out["input_ids"][1] == []


def test_datasets_map_recipe(tokenizer_file: str) -> None:
    """The documented recipe: datasets.map(TokenizeRows(...), batched=True, num_proc=2)."""
    datasets = pytest.importorskip("datasets")
    rows = [_row(i) for i in range(60)]
    ds = datasets.Dataset.from_list(rows)
    out = ds.map(
        TokenizeRows(tokenizer_file, model=MODEL),
        batched=True,
        batch_size=16,
        num_proc=2,
        remove_columns=ds.column_names,
    )
    assert out["error"] == [""] * len(rows)
    for row, ids in zip(rows, out["input_ids"]):
        assert ids == _expected(row, tokenizer_file)[0]


_RAY_RECIPE = """
import json, sys
import ray
from tooletta.training import TokenizeRows

source, tokenizer, model = sys.argv[1:4]
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
try:
    ds = ray.data.read_json(source).map_batches(TokenizeRows(tokenizer, model=model), batch_size=8)
    rows = ds.take_all()
finally:
    ray.shutdown()
print(json.dumps([[list(map(int, r["input_ids"])), str(r["error"])] for r in rows]))
"""


@pytest.mark.slow
def test_ray_data_recipe(tokenizer_file: str, tmp_path: Path) -> None:
    """The documented recipe on a local Ray cluster started by the test:
    ``ray.data.read_json(...).map_batches(TokenizeRows(...))``, in its own process (Ray keeps
    state and handlers in the process that starts it).

    Under ``uv run`` (as here and in CI) Ray would start its workers with ``uv run`` in a copy
    of the working directory, outside this environment: ``RAY_ENABLE_UV_RUN_RUNTIME_ENV=0``
    turns that hook off, so the workers run this interpreter."""
    pytest.importorskip("ray")
    rows = [_row(i) for i in range(40)]
    source = tmp_path / "rows.jsonl"
    source.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    script = tmp_path / "recipe.py"
    script.write_text(_RAY_RECIPE, encoding="utf-8")
    env = {**os.environ, "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0"}
    proc = subprocess.run(
        [sys.executable, str(script), str(source), tokenizer_file, MODEL],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert all(error == "" for _, error in got)
    want = [_expected(r, tokenizer_file)[0] for r in rows]
    assert sorted(ids for ids, _ in got) == sorted(want)  # Ray may reorder blocks
