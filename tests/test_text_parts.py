"""A text part whose ``text`` is not a string is refused, in the API and as a CLI row error
(issue 22, item 11): ``{"type": "text", "text": 5}`` was written as ``5`` and read back as
the string ``"5"``."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

import tooletta
from tooletta import RenderError
from tooletta.chat.messages import text_of
from tooletta.cli import cli


@pytest.mark.parametrize("bad", [5, 1.5, None, ["x"], {"t": "x"}, True])
def test_text_part_must_hold_a_string(bad: Any) -> None:
    part: dict[str, Any] = {"type": "text", "text": bad}
    if bad is None:
        del part["text"]
    with pytest.raises(RenderError, match="content part 1 is a text part"):
        text_of(["a", part])
    with pytest.raises(RenderError):
        tooletta.render_conversation([{"role": "user", "content": [part]}], dialect="qwen3")


def test_text_parts_that_hold_strings_are_joined() -> None:
    parts = [{"type": "text", "text": "a"}, "b", {"type": "input_text", "text": "c"}]
    assert text_of(parts, "-") == "a-b-c"


def test_cli_reports_the_row_and_keeps_the_others() -> None:
    rows = [
        {"messages": [{"role": "user", "content": [{"type": "text", "text": 5}]}]},
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "ok"}]}]},
    ]
    data = "".join(json.dumps(r) + "\n" for r in rows)
    result = CliRunner().invoke(cli, ["render-chat", "-d", "qwen3", "--jsonl"], input=data)
    assert result.exit_code == 1
    out = result.stdout.splitlines()
    assert out == ['{"text":"<|im_start|>user\\nok<|im_end|>\\n"}']
    assert result.stderr.startswith("line 1: ")
    assert "content part 0 is a text part whose text is int" in result.stderr
