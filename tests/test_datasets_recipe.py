"""The dataset recipe from docs/concepts/datasets.md, run for real with Hugging Face datasets."""

from __future__ import annotations

import json
from typing import Any

import pytest

from support import weather_row
from tooletta.interop import convert_rows

datasets = pytest.importorskip("datasets")


def to_hermes(batch: dict[str, list[Any]]) -> dict[str, list[Any]]:
    """The map function the docs show: render every assistant call as hermes text."""
    return convert_rows(batch, target_dialect="hermes", direction="render")  # type: ignore[no-any-return]


def test_datasets_map_with_two_processes() -> None:
    ds = datasets.Dataset.from_list([weather_row(i) for i in range(200)])
    out = ds.map(to_hermes, batched=True, batch_size=50, num_proc=2)
    assert out["error"] == [None] * 200
    texts = [row["messages"][1]["content"] for row in out]
    assert all(t.startswith("Let me check.\n<tool_call>\n") for t in texts)
    back = convert_rows(list(out), direction="parse", source_dialect="hermes")
    call = back[7]["messages"][1]["tool_calls"][0]
    assert json.loads(call["function"]["arguments"]) == {"city": "Zürich", "days": 0}
