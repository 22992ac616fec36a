"""Atheris target for the core scanner: ``parse`` and ``stream`` under random chunking.

Each input picks a dialect (any installed one), builds a text in one of three ways, and checks
every law on it with :func:`fuzzlib.check_text` (lenient and strict parse, stream equals
one-shot for the chosen chunking, detect, nothing lost):

* raw: the bytes as UTF-8, invalid bytes turned into lone surrogates;
* tokens: bytes below 0x80 are characters, the others stand for markup of any dialect or
  hostile strings (NUL, surrogates, deep nesting, huge numbers), so coverage guidance
  composes markers without having to guess them;
* mutation: a golden fixture or rendered output of the dialect, edited by
  :func:`fuzzlib.mutate`.

Run (see README.md)::

    uv pip install atheris
    uv run --no-sync python fuzz/fuzz_engine.py -max_total_time=600 fuzz/corpus

Without atheris, :func:`one_input` is a plain function (the test suite replays inputs with it).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))


class Provider:
    """Reads integers and text off the fuzzer's bytes (zeros once they run out)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        self.pos += 1
        return self.data[self.pos - 1]

    def u16(self) -> int:
        return self.byte() | self.byte() << 8

    def take(self, n: int) -> bytes:
        out = self.data[self.pos : self.pos + n]
        self.pos += len(out)
        return out


_state: dict[str, Any] = {}


def _setup() -> dict[str, Any]:
    if not _state:
        import fuzzlib

        names = fuzzlib.dialect_names()
        pools = {d: (*fuzzlib.markup(d), *fuzzlib.all_markup(), *fuzzlib.HOSTILE) for d in names}
        _state.update(fuzzlib=fuzzlib, names=names, pools=pools)
    return _state


def build(data: bytes) -> tuple[str, str, list[int] | None, Any]:
    """The dialect, text, cuts and tools an input stands for."""
    s = _setup()
    fuzzlib = s["fuzzlib"]
    p = Provider(data)
    dialect = s["names"][p.byte() % len(s["names"])]
    mode = p.byte() % 3
    chunking = p.byte()
    ncuts = p.byte() % 24
    cut_values = [p.u16() for _ in range(ncuts)]
    tools = None
    if mode == 0:
        text = p.take(len(data)).decode("utf-8", "surrogateescape")
    elif mode == 1:
        pool = s["pools"][dialect]
        parts = []
        for b in p.take(len(data)):
            parts.append(chr(b) if b < 0x80 else pool[(b - 0x80) % len(pool)])
        text = "".join(parts)
    else:
        seeds = fuzzlib.seeds(dialect)
        text, tools = seeds[p.byte() % len(seeds)]
        edits = [(p.byte(), p.u16() | p.byte() << 16, p.u16()) for _ in range(p.byte() % 7)]
        text = fuzzlib.mutate(dialect, text, edits)
    cuts: list[int] | None
    if chunking % 8 == 0 and len(text) <= 4000:
        cuts = None  # one character at a time
    elif chunking % 8 == 1:
        step = 1 + chunking // 8
        cuts = list(range(step, len(text), step))
    else:
        cuts = [c % (len(text) + 1) for c in cut_values]
    return dialect, text, cuts, tools


def one_input(data: bytes) -> None:
    """Check every law on the text ``data`` stands for (raises on a violation)."""
    dialect, text, cuts, tools = build(data)
    _state["fuzzlib"].check_text(dialect, text, cuts, tools)


def main() -> None:
    """Fuzz :func:`one_input` with atheris (``fuzzmain.run``)."""
    import fuzzmain

    fuzzmain.run(one_input, _setup)


if __name__ == "__main__":
    main()
