"""Issue 21 extras: a learned format's Hugging Face response template, the ``tool_responses``
message form, and the compile-lean jinja2 environment identify renders templates in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import Message, ToolCall, ToolettaError
from tooletta.chat.identify import _tool_results
from tooletta.chat.jinja import _environment, render_jinja
from tooletta.chat.probes import base_probes
from tooletta.cli import cli
from tooletta.interop import hf
from tooletta.interop.hf.learned import hf_gap, learned_response_template

pytest.importorskip("jinja2")

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = Path(__file__).parent / "fixtures" / "templates"
REKA = TEMPLATES / "Reka-Edge.jinja"


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


@pytest.fixture(scope="module")
def reka() -> Any:
    return tooletta.learn(str(REKA), name="extras-reka")


def _reply(name: str, calls: list[ToolCall], content: str) -> tuple[str, str]:
    """The prompt (up to the generation prompt) and the assistant's reply after it, as the
    learned format ``name`` writes them."""
    ask = [Message("user", "Weather?")]
    prompt = tooletta.render_conversation(ask, dialect=name, add_generation_prompt=True)
    whole = tooletta.render_conversation(
        [*ask, Message("assistant", content, tool_calls=calls)], dialect=name
    )
    assert whole.startswith(prompt)
    return prompt, whole[len(prompt) :]


# -- the learned format's response template --------------------------------------------------


def test_learned_json_calls_export_a_template(reka: Any) -> None:
    template = learned_response_template(reka.spec)
    assert template["start_anchor"] == "assistant:"
    calls = template["fields"]["tool_calls"]
    assert calls["open_pattern"] == r"\s*<tool_call>\s*" and calls["content"] == "json"
    assert template["fields"]["content"]["close_pattern"] == r"\s*(?:<sep>)\s*"
    assert hf.to_response_template(reka.name) == template  # the dialect declares it
    assert reka.name in hf.exportable_dialects()


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=6,
)
_CALLS = st.lists(
    st.builds(
        ToolCall,
        st.sampled_from(["get_weather", "search", "now"]),
        st.dictionaries(st.text("abcdef_", min_size=1, max_size=5), _VALUES, max_size=3),
    ),
    min_size=1,
    max_size=3,
)


@settings(max_examples=40, deadline=None)
@given(_CALLS, st.sampled_from(["", "Let me look.", "Two\nlines."]))
def test_transformers_reads_what_the_learned_format_writes(
    reka: Any, calls: list[ToolCall], content: str
) -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    prompt, reply = _reply(reka.name, calls, content)
    message = chat_parsing.parse_response(
        reply, learned_response_template(reka.spec), prefix=prompt
    )
    got = [(c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]]
    assert got == [(c.name, c.arguments) for c in calls]
    assert message.get("content", "") == content


def test_calls_of_an_installed_dialect_reuse_its_template() -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    bielik = TEMPLATES / "Bielik-11B-v3.0-Instruct.jinja"
    learned = tooletta.learn(str(bielik), name="extras-bielik", lenient=True)
    assert learned.spec["calls"]["kind"] == "installed"
    template = learned_response_template(learned.spec)
    own = hf.to_response_template(learned.spec["calls"]["dialect"])
    assert template["fields"]["tool_calls"] == own["fields"]["tool_calls"]
    assert template["start_anchor"] == learned.spec["chat"]["turns"]["assistant"][0].strip()
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3})]
    prompt, reply = _reply(learned.name, calls, "Checking.")
    message = chat_parsing.parse_response(reply, template, prefix=prompt)
    assert message["content"] == "Checking."
    assert message["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": {"city": "Paris", "days": 3},
    }


def test_a_format_without_calls_says_why() -> None:
    smol = tooletta.learn(str(TEMPLATES / "HuggingFaceTB-SmolLM3-3B.jinja"), name="extras-smol")
    assert "writes no tool calls" in hf_gap(smol.spec)
    with pytest.raises(ToolettaError, match="writes no tool calls"):
        learned_response_template(smol.spec)
    with pytest.raises(ToolettaError, match="writes no tool calls"):
        hf.to_response_template(smol.name)
    assert "writes no tool calls" in hf.TEMPLATE_GAPS[smol.name]


def test_calls_without_a_closing_marker_or_with_fixed_text_say_why(reka: Any) -> None:
    spec = json.loads(json.dumps(reka.spec))
    spec["calls"]["close"] = ""
    assert "no closing marker" in hf_gap(spec)
    spec["calls"]["close"] = "</tool_call>"
    spec["calls"]["between"] = "\n;\n"
    assert "fixed text outside their JSON" in hf_gap(spec)
    spec["calls"]["between"] = ""
    spec["calls"]["args_key"] = "the args"
    assert "not plain words" in hf_gap(spec)
    spec["calls"]["args_key"] = "parameters"
    template = learned_response_template(spec)
    assert template["fields"]["tool_calls"]["transform"]["function"] == {
        "name": "{content.name}",
        "arguments": "{content.parameters}",
    }


def test_cli_export_hf(tmp_path: Path) -> None:
    out = tmp_path / "reka.json"
    result = CliRunner().invoke(
        cli, ["learn", str(REKA), "--name", "extras-cli-reka", "--export-hf", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert f"HF response template written to {out}" in result.output
    assert json.loads(out.read_text(encoding="utf-8"))["start_anchor"] == "assistant:"
    smol = str(TEMPLATES / "HuggingFaceTB-SmolLM3-3B.jinja")
    none = tmp_path / "smol.json"
    result = CliRunner().invoke(
        cli, ["learn", smol, "--name", "extras-cli-smol", "--export-hf", str(none)]
    )
    assert result.exit_code == 0, result.output
    assert "no HF response template: the template writes no tool calls" in result.output
    assert not none.exists()


# -- the tool_responses message form ----------------------------------------------------------


def test_the_folded_form_is_tried_only_for_templates_that_read_no_tool_message() -> None:
    folded = "{% for m in messages %}{{ m.tool_responses }}{% endfor %}"
    both = folded + "{% if m['role'] == 'tool' %}x{% endif %}"
    assert _tool_results(folded) == ["messages", "tool_responses"]
    assert _tool_results(both) == ["messages"]
    assert _tool_results("{{ messages }}") == ["messages"]


def test_an_unknown_tool_result_form_is_refused() -> None:
    with pytest.raises(ToolettaError, match="tool_results"):
        render_jinja("{{ messages }}", [Message("user", "hi")], tool_results="inline")


# -- the shared, compile-lean environment --------------------------------------------------------


def test_one_environment_without_the_optimizer() -> None:
    env = _environment()
    assert env is _environment()
    assert env.optimized is False and env.trim_blocks and env.lstrip_blocks
    assert env.filters["tojson"]("é") == '"é"'


@pytest.mark.parametrize(
    "path",
    [
        "plugins/tooletta-dialect-hermes/tests/templates/Qwen3.jinja",
        "plugins/tooletta-dialect-gemma/tests/templates/google-gemma-4-31B-it.jinja",
        "plugins/tooletta-dialect-kimi/tests/templates/Kimi-K3.jinja",
    ],
)
def test_the_optimizer_changes_no_render(path: str) -> None:
    text = (ROOT / path).read_text(encoding="utf-8")
    optimized = _environment.__wrapped__()
    optimized.optimized = True
    compiled = optimized.from_string(text)
    for probe in base_probes():
        ours = render_jinja(
            text,
            probe.messages,
            tools=list(probe.tools) or None,
            add_generation_prompt=probe.add_generation_prompt,
        )
        from tooletta.chat.jinja import to_template_messages

        theirs = compiled.render(
            messages=to_template_messages(probe.messages),
            tools=list(probe.tools) or None,
            add_generation_prompt=probe.add_generation_prompt,
            bos_token="",
            eos_token="",
        )
        assert ours == theirs, probe.name
