"""Throughput of ``tooletta convert --jsonl`` and ``tooletta tokenize --jsonl`` against bare loops.

    uv run --no-sync python bench/jsonl.py                      # both, 50 MB, 5 rounds
    uv run --no-sync python bench/jsonl.py --what convert --mb 100 --rounds 3
    uv run --no-sync python bench/jsonl.py --jobs 1 2 4
    uv run --no-sync python bench/jsonl.py --parts               # where a convert row's time goes

Every setting runs in its own process over the same file, output to ``/dev/null``, the
settings interleaved round by round and the best round of each kept (the issue's rule: every
figure a ratio measured in one run). The targets (issue 13): ``--jobs 1`` at ≥ 0.5× the bare
loop's throughput, ``--jobs 2`` ≥ 1.7× ``--jobs 1`` on 2 cores.

* **convert**: rows ``{"id": N, "text": <hermes model output>}`` with 0 to 4 calls and some
  prose (about 1 KB each), converted from hermes to mistral. The bare loop is the floor of any
  JSONL tool: ``msgspec.json.Decoder().decode`` and ``Encoder().encode`` of every row, written
  a batch at a time, nothing else.
* **tokenize**: rows ``{"messages": [...]}`` (system, user, assistant turns, some with tool
  calls and their results) tokenized in the Qwen3 chat format with a byte-level BPE trained
  on the rendered texts (``tooletta.testing.training.bpe_tokenizer``, saved as a
  ``tokenizer.json``). The bare loop reads the same conversations already rendered
  (``{"text": ...}``) and runs the same tokenizer's batched encode (``encode_batch``, 512 rows
  per call) and writes ``{"input_ids", "weights"}``: tokenizing without any chat format.

The datasets (``bench/data/``, not committed) are generated deterministically on first use.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

import msgspec

HERE = Path(__file__).resolve().parent
DATA = HERE / "data"
TOOLETTA = str(Path(sys.executable).with_name("tooletta"))
FORMAT = "qwen3"  # the chat format of the tokenize dataset
BARE_BATCH = 512


# -- datasets ------------------------------------------------------------------------------


def _write_rows(path: Path, megabytes: float, row: Callable[[int], Any]) -> int:
    """Write rows ``row(0), row(1)...`` as JSON lines until ``megabytes``; return the count."""
    encode = msgspec.json.encode
    target = megabytes * 1_000_000
    size = rows = 0
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as f:
        while size < target:
            line = encode(row(rows)) + b"\n"
            f.write(line)
            size += len(line)
            rows += 1
    tmp.replace(path)
    return rows


def convert_dataset(path: Path, megabytes: float, seed: int = 5) -> int:
    """Write the convert dataset (hermes outputs) to ``path``; return its number of rows."""
    sys.path.insert(0, str(HERE))
    from inputs import make_calls, prose

    import tooletta

    rng = random.Random(seed)
    pool = make_calls(64, seed=seed)
    texts = []
    for i in range(512):  # distinct rows, reused in a fixed order
        n = rng.randint(0, 4)
        calls = [pool[(i * 7 + k) % len(pool)] for k in range(n)]
        content = prose(rng.randint(40, 900), seed=i).replace("<b>", "<em>")
        texts.append(tooletta.render(calls, "hermes", content=content))
    return _write_rows(path, megabytes, lambda r: {"id": r, "text": texts[r % len(texts)]})


def _conversations(seed: int = 9) -> list[list[dict[str, Any]]]:
    """512 distinct conversations (OpenAI-style dicts): 1-3 exchanges, some with tool calls."""
    sys.path.insert(0, str(HERE))
    from inputs import make_calls, prose

    rng = random.Random(seed)
    pool = make_calls(64, seed=seed)
    out = []
    for i in range(512):
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": "You are a helpful assistant."}
        ]
        for turn in range(rng.randint(1, 3)):
            messages.append({"role": "user", "content": prose(rng.randint(30, 300), seed=i + turn)})
            if rng.random() < 0.4:
                calls = [pool[(i * 5 + turn + k) % len(pool)] for k in range(rng.randint(1, 2))]
                messages.append(
                    {
                        "role": "assistant",
                        "content": "",
                        "tool_calls": [c.to_openai() for c in calls],
                    }
                )
                for c, item in zip(calls, messages[-1]["tool_calls"]):
                    messages.append(
                        {
                            "role": "tool",
                            "tool_call_id": item["id"],
                            "name": c.name,
                            "content": '{"ok": true, "value": 42}',
                        }
                    )
            messages.append(
                {"role": "assistant", "content": prose(rng.randint(60, 600), seed=i * 3 + turn)}
            )
        out.append(messages)
    return out


def tokenize_datasets(folder: Path, megabytes: float) -> tuple[Path, Path, Path, int]:
    """The tokenize dataset, the same rows rendered (for the bare loop) and the tokenizer
    (written when missing); and the number of rows."""
    import tooletta

    rows_path = folder / f"chat-{megabytes:g}mb.jsonl"
    texts_path = folder / f"chat-{megabytes:g}mb.texts.jsonl"
    tokenizer_path = folder / f"tokenizer-{FORMAT}.json"
    conversations = _conversations()
    if not tokenizer_path.exists() or not texts_path.exists():
        texts = [tooletta.render_conversation(c, dialect=FORMAT) for c in conversations]
    if not tokenizer_path.exists():
        from tooletta.chat import resolve_format
        from tooletta.testing.training import bpe_tokenizer

        fmt = resolve_format(None, FORMAT)[0]
        specials = [*fmt.special_tokens, fmt.end_of_turn]
        bpe_tokenizer(texts, specials, vocab_size=2000).save(str(tokenizer_path))
    if not rows_path.exists():
        rows = _write_rows(
            rows_path, megabytes, lambda r: {"messages": conversations[r % len(conversations)]}
        )
    else:
        rows = _count(rows_path)
    if not texts_path.exists():
        _write_rows_count(texts_path, rows, lambda r: {"text": texts[r % len(texts)]})
    return rows_path, texts_path, tokenizer_path, rows


def _write_rows_count(path: Path, count: int, row: Callable[[int], Any]) -> None:
    encode = msgspec.json.encode
    tmp = path.with_suffix(".tmp")
    with tmp.open("wb") as f:
        for r in range(count):
            f.write(encode(row(r)) + b"\n")
    tmp.replace(path)


def _count(path: Path) -> int:
    with path.open("rb") as f:
        return sum(1 for _ in f)


# -- the bare loops (run in their own process: ``jsonl.py --bare convert|tokenize``) -------


def bare_convert(src: Any, out: Any) -> None:
    """Decode and re-encode every row with msgspec, a batch of lines at a time."""
    decode = msgspec.json.Decoder().decode
    encode = msgspec.json.Encoder().encode
    lines = iter(src)
    while batch := list(islice(lines, BARE_BATCH)):
        out.write(b"\n".join([encode(decode(line)) for line in batch] + [b""]))


def bare_tokenize(src: Any, out: Any, tokenizer_path: str) -> None:
    """Decode rendered texts, encode each batch with the tokenizer, write ids and weights."""
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(tokenizer_path)
    decode = msgspec.json.Decoder().decode
    encode = msgspec.json.Encoder().encode
    lines = iter(src)
    while batch := list(islice(lines, BARE_BATCH)):
        texts = [decode(line)["text"] for line in batch]
        encoded = tokenizer.encode_batch(texts, add_special_tokens=False)
        rows = [encode({"input_ids": e.ids, "weights": [1.0] * len(e.ids)}) for e in encoded]
        out.write(b"\n".join([*rows, b""]))


# -- timing --------------------------------------------------------------------------------

PAIR = "2 × --jobs 1, one per half, at once"
"""The machine's own parallelism in this run: two independent processes on the two halves of
the file. On a shared machine the cores are not all ours: ``--jobs 2`` cannot scale better
than this, so its speed-up is also reported as a share of this one's."""


def environment() -> dict[str, str]:
    """The timed processes run with a bytecode cache, as an installed package does (this
    machine sets ``PYTHONDONTWRITEBYTECODE``: every start would compile every module)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(DATA / "pycache")
    return env


def _cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _time(runs: list[tuple[list[str], Path]], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (every process, workers included) of ``runs`` started
    together, each reading its file on stdin, output discarded."""
    cpu = _cpu()
    with open(os.devnull, "wb") as out:
        sources = [path.open("rb") for _, path in runs]
        try:
            start = time.perf_counter()
            procs = [
                subprocess.Popen(cmd, stdin=src, stdout=out, env=env)
                for (cmd, _), src in zip(runs, sources)
            ]
            codes = [p.wait() for p in procs]
            wall = time.perf_counter() - start
        finally:
            for src in sources:
                src.close()
    if any(codes):
        raise SystemExit(f"a run failed: {runs} -> {codes}")
    return wall, _cpu() - cpu


def halves(path: Path) -> tuple[Path, Path]:
    """The first and second half of ``path``'s lines, as two files (written once)."""
    first, second = path.with_suffix(".half1"), path.with_suffix(".half2")
    if not first.exists() or not second.exists():
        lines = path.read_bytes().splitlines(keepends=True)
        cut = len(lines) // 2
        first.write_bytes(b"".join(lines[:cut]))
        second.write_bytes(b"".join(lines[cut:]))
    return first, second


Settings = dict[str, list[tuple[list[str], Path]]]


def settings(
    what: str, jobs: list[int], folder: Path, megabytes: float
) -> tuple[Settings, Path, int]:
    """The runs to time (the bare loop first), by label; the input file; its rows."""
    me = [sys.executable, str(Path(__file__).resolve()), "--bare"]
    if what == "convert":
        path = folder / f"rows-{megabytes:g}mb.jsonl"
        rows = convert_dataset(path, megabytes) if not path.exists() else _count(path)
        base = [TOOLETTA, "convert", "--jsonl", "--from", "hermes", "--to", "mistral"]
        out: Settings = {"bare msgspec loop": [([*me, "convert"], path)]}
    else:
        path, texts, tokenizer, rows = tokenize_datasets(folder, megabytes)
        base = [TOOLETTA, "tokenize", "--jsonl", "-d", FORMAT, "--tokenizer", str(tokenizer)]
        out = {"bare encode_batch loop": [([*me, "tokenize", str(tokenizer)], texts)]}
    for n in jobs:
        out[f"--jobs {n}"] = [([*base, "--jobs", str(n), "-"], path)]
    if 1 in jobs and 2 in jobs:
        out[PAIR] = [([*base, "--jobs", "1", "-"], half) for half in halves(path)]
    return out, path, rows


def measure(
    what: str, jobs: list[int], rounds: int, folder: Path, megabytes: float
) -> tuple[dict[str, tuple[float, float]], Path, int]:
    """Best wall seconds of each setting over ``rounds`` interleaved rounds, and the CPU
    seconds of that best round."""
    runs, path, rows = settings(what, jobs, folder, megabytes)
    env = environment()
    best = dict.fromkeys(runs, (float("inf"), 0.0))
    for _ in range(rounds):
        for label, run in runs.items():
            wall, cpu = _time(run, env)
            if wall < best[label][0]:
                best[label] = (wall, cpu)
    return best, path, rows


def report(what: str, best: dict[str, tuple[float, float]], path: Path, rows: int) -> str:
    """A Markdown table: seconds, MB/s, rows/s, × the bare loop, speed-up over ``--jobs 1``."""
    size = path.stat().st_size
    labels = list(best)
    bare = best[labels[0]][0]
    one = best.get("--jobs 1", (0.0, 0.0))[0]
    pair = best.get(PAIR, (0.0, 0.0))[0]
    lines = [
        f"{what}: {path.name}, {size / 1e6:.1f} MB, {rows:,} rows",
        "",
        "| setting | seconds | CPU seconds | MB/s | rows/s | × bare loop (goal ≥ 0.5 at --jobs 1)"
        " | speed-up over --jobs 1 (goal ≥ 1.7 at 2) |",
        "|---|---|---|---|---|---|---|",
    ]
    for label in labels:
        t, cpu = best[label]
        speed = ""
        if one and (label.startswith("--jobs") or label == PAIR):
            speed = f"{one / t:.2f}"
            if label == "--jobs 2" and pair:
                speed += f" ({pair / t:.0%} of the machine's)"
        lines.append(
            f"| {label} | {t:.2f} | {cpu:.2f} | {size / 1e6 / t:.1f} | {rows / t:,.0f} "
            f"| {bare / t:.2f} | {speed} |"
        )
    return "\n".join(lines)


def convert_parts(folder: Path, megabytes: float, rounds: int = 10, rows: int = 3000) -> str:
    """Where a convert row's time goes, in this process: a Markdown table of µs per row (best
    of ``rounds`` interleaved) and each part over the bare decode+encode."""
    from tooletta import api
    from tooletta.cli.jsonl import BLOCK
    from tooletta.cli.rows import RowJob, work_block
    from tooletta.dialect import to_json

    path = folder / f"rows-{megabytes:g}mb.jsonl"
    if not path.exists():
        convert_dataset(path, megabytes)
    with path.open("rb") as f:
        lines = list(islice(f, rows))
    data = b"".join(lines)
    blocks = []
    start = 0
    while start < len(data):
        end = data.rfind(b"\n", start, start + BLOCK) + 1 or len(data)
        blocks.append(data[start:end])
        start = end
    decode = msgspec.json.Decoder().decode
    encode = msgspec.json.Encoder().encode
    records = [decode(line) for line in lines]
    parsed = [api.parse(r["text"], "hermes", strict=True) for r in records]
    job = RowJob("convert", source="hermes", target="mistral")
    parts: dict[str, Callable[[], object]] = {
        "bare decode + encode": lambda: [encode(decode(line)) for line in lines],
        "`tooletta.parse` (hermes, one-shot)": lambda: [
            api.parse(r["text"], "hermes", strict=True) for r in records
        ],
        "`tooletta.render` (mistral)": lambda: [
            api.render_with_reasoning(p.calls, "mistral", content=p.content) for p in parsed
        ],
        "— of which `to_json` of the arguments": lambda: [
            [to_json(c.arguments) for c in p.calls] for p in parsed
        ],
        "`tooletta.convert`": lambda: [
            api.convert(r["text"], "hermes", "mistral") for r in records
        ],
        "the CLI's work per row (decode, convert, encode, accounting)": lambda: [
            work_block(job, b) for b in blocks
        ],
    }
    best = dict.fromkeys(parts, float("inf"))
    for _ in range(rounds):
        for label, fn in parts.items():
            start_time = time.perf_counter()
            fn()
            best[label] = min(best[label], time.perf_counter() - start_time)
    bare = best["bare decode + encode"]
    out = ["| per row | µs | × bare decode+encode |", "|---|---|---|"]
    out += [f"| {k} | {v / len(lines) * 1e6:.1f} | {v / bare:.1f} |" for k, v in best.items()]
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    """Generate (once) and time the runs; print one Markdown table per command."""
    args_in = sys.argv[1:] if argv is None else argv
    if args_in[:1] == ["--bare"]:
        if args_in[1] == "convert":
            bare_convert(sys.stdin.buffer, sys.stdout.buffer)
        else:
            bare_tokenize(sys.stdin.buffer, sys.stdout.buffer, args_in[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--what", nargs="+", default=["convert", "tokenize"])
    ap.add_argument("--mb", type=float, default=50, help="dataset size in MB (default 50)")
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (best is kept)")
    ap.add_argument("--data", type=Path, default=DATA, help="where the datasets are kept")
    ap.add_argument("--parts", action="store_true", help="where a convert row's time goes")
    args = ap.parse_args(args_in)
    args.data.mkdir(parents=True, exist_ok=True)
    if args.parts:
        print(convert_parts(args.data, args.mb))
        return 0
    for what in args.what:
        best, path, rows = measure(what, args.jobs, args.rounds, args.data, args.mb)
        print(report(what, best, path, rows))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
