"""One id policy: a call without an id gets the same derived id on every path that must write
one (``ToolCall.to_openai``, ``messages_to_openai``, ``ensure_ids``, ``render(calls,
"openai")``, ``tooletta parse --format openai``, ``tooletta convert --to openai``)."""

from __future__ import annotations

import json

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta.cli import cli
from tooletta.interop import Message, ensure_ids, messages_to_openai
from tooletta.limits import derived_call_id

HERMES = '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
CALL = tooletta.ToolCall("get_weather", {"city": "Paris"})
EXPECTED = derived_call_id("get_weather", '{"city": "Paris"}', 0)


def _ids_on_every_path(calls: list[tooletta.ToolCall]) -> list[list[str]]:
    from_ir = [c.to_openai(i)["id"] for i, c in enumerate(calls)]
    (message,) = messages_to_openai([Message("assistant", "", tool_calls=calls)])
    from_messages = [item["id"] for item in message["tool_calls"]]
    rendered = json.loads(tooletta.render(calls, "openai"))
    from_render = [item["id"] for item in rendered]
    (filled,) = ensure_ids([Message("assistant", "", tool_calls=calls)], "call_")
    from_ensure = [c.id or "" for c in filled.tool_calls]
    return [from_ir, from_messages, from_render, from_ensure]


def test_a_call_gets_one_id_whatever_the_path() -> None:
    paths = _ids_on_every_path([CALL])
    assert paths == [[EXPECTED]] * 4
    assert EXPECTED.startswith("call_") and len(EXPECTED) == 29


def test_the_cli_writes_the_same_id() -> None:
    out = CliRunner().invoke(cli, ["parse", "-d", "hermes", "--format", "openai"], input=HERMES)
    assert out.exit_code == 0, out.output
    assert EXPECTED in out.stdout
    out = CliRunner().invoke(cli, ["convert", "--from", "hermes", "--to", "openai"], input=HERMES)
    assert out.exit_code == 0, out.output
    assert json.loads(out.stdout)[0]["id"] == EXPECTED


_names = st.sampled_from(["f", "get_weather", "lookup"])
_args = st.dictionaries(st.sampled_from(["a", "b", "é"]), st.integers() | st.text(max_size=5))


@given(st.lists(st.builds(tooletta.ToolCall, _names, _args), min_size=1, max_size=4))
def test_parallel_calls_get_one_id_each_whatever_the_path(calls: list[tooletta.ToolCall]) -> None:
    first, *others = _ids_on_every_path(calls)
    assert all(other == first for other in others)
