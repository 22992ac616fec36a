"""The atheris targets keep working without atheris: fixed inputs replayed through them.

``fuzz/fuzz_engine.py``'s and ``fuzz/fuzz_render.py``'s ``one_input`` are plain functions;
here they run on deterministic pseudo-random bytes (a fixed seed; the engine target in each
of its three modes), so a change that breaks a target (or a law it checks) shows up in the
test suite, not only in a local fuzzing session.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from typing import Any

import pytest

from support import ROOT


def _load_target(file: str = "fuzz_engine") -> Any:
    name = f"tooletta_{file}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "fuzz" / f"{file}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


target = _load_target()
NAMES = len(target._setup()["names"])  # at collection, before any test registers a dialect


def _inputs(mode: int, count: int, seed: int) -> list[bytes]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        # dialect, mode, chunking, number of cuts, then the rest
        head = bytes([rng.randrange(NAMES), mode, rng.randrange(256), 0])
        out.append(head + body)
    return out


@pytest.mark.parametrize("mode", [0, 1, 2], ids=["raw", "tokens", "mutation"])
def test_replay_inputs_through_the_atheris_target(mode: int) -> None:
    for data in _inputs(mode, 150, seed=mode):
        try:
            target.one_input(data)
        except BaseException as exc:
            dialect, text, cuts, _ = target.build(data)
            raise AssertionError(f"{dialect}: {text[:300]!r}, cuts {(cuts or [])[:10]}") from exc


def test_build_is_total() -> None:
    """Any bytes, even none, stand for some dialect, text and chunking."""
    for data in (b"", b"\x00", b"\xff" * 64, bytes(range(256))):
        dialect, text, cuts, _ = target.build(data)
        assert isinstance(dialect, str) and isinstance(text, str)
        assert cuts is None or all(0 <= c <= len(text) for c in cuts)


render_target = _load_target("fuzz_render")


def test_replay_inputs_through_the_render_target() -> None:
    """Adversarial calls (NaN, infinities, huge integers, nesting around and far past the
    dialects' limits, long and empty names, lone surrogates) through render, parse, stream."""
    rng = random.Random(14)
    for _ in range(200):
        body = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 300)))
        data = bytes([rng.randrange(NAMES)]) + body
        try:
            render_target.one_input(data)
        except BaseException as exc:
            dialect, calls, content, _ = render_target.build(data)
            shown = [(c.name[:40], list(c.arguments)[:5]) for c in calls]  # repr: too deep
            raise AssertionError(f"{dialect}: {shown!r:.300}, content {content!r:.80}") from exc


def test_render_build_is_total() -> None:
    """Any bytes, even none, stand for some dialect, calls, content and chunking."""
    for data in (b"", b"\x00", b"\xff" * 64, bytes(range(256))):
        dialect, calls, content, cuts = render_target.build(data)
        assert isinstance(dialect, str) and calls and isinstance(content, str)
        assert cuts is None or all(isinstance(c, int) for c in cuts)
