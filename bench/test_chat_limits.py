"""The minimal conversation renderers of ``chat_limits.py`` write exactly what tooletta writes
(and so what the templates write) for the conversations the bench renders."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from chat_limits import LIMITS
from conversations import bench_cases

import tooletta


@pytest.mark.parametrize("name", sorted(LIMITS))
def test_limit_renderer_writes_what_tooletta_writes(name: str) -> None:
    model, limit = LIMITS[name]
    _, cases, options = bench_cases(name)
    assert cases
    for messages, tools in cases:
        want = tooletta.render_conversation(messages, model=model, tools=tools, **options)
        assert limit(messages, tools) == want
