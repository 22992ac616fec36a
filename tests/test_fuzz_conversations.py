"""``fuzz/fuzz_conversations.py`` keeps working without atheris: fixed pseudo-random inputs
replayed through its ``one_input`` (every mode: random message lists, the one-oddity
matrix, mutated renders). No input may raise anything but a refusal's ToolettaError inside
the target, in any format: an untyped exception (``render raised``/``parse raised``) fails
everywhere, and so does any conversation read back as other messages in a format not listed
in KNOWN (none is)."""

from __future__ import annotations

import importlib.util
import random
import sys
from typing import Any

from support import ROOT

KNOWN: set[str] = set()
"""None left: the formats the law first found (issue 22 item 6: apertus2509, deepseek_v31/v32,
hunyuan_a13b, kimi_k2_thinking, nemotron_nano_v2) and the later fuzz findings are fixed."""


def _target() -> Any:
    name = "tooletta_fuzz_conversations"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "fuzz" / "fuzz_conversations.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_replay_inputs_through_the_atheris_target() -> None:
    target = _target()
    rng = random.Random(22)
    failures = []
    for _ in range(1500):
        data = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 160)))
        try:
            target.one_input(data)
        except AssertionError as exc:
            name, mode, _, _ = target.build(data)
            message = str(exc)
            untyped = message.startswith(("render raised", "parse raised"))
            if untyped or name not in KNOWN:
                failures.append(f"{name} mode {mode}: {message[:500]}")
    assert not failures, "\n".join(failures[:5])


def test_build_is_total() -> None:
    target = _target()
    for data in (b"", b"\x00", b"\xff" * 64, bytes(range(256))):
        name, mode, _, _ = target.build(data)
        assert isinstance(name, str) and mode in (0, 1, 2)
