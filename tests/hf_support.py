"""Helpers shared by the Hugging Face interop tests (``tooletta.interop.hf``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import tooletta
from support import ROOT
from tooletta import ToolCall, plugins
from tooletta.interop import hf
from tooletta.testing import load_cases, tools_for

TRL_FILE = ROOT / "tests" / "fixtures" / "hf" / "trl_response_templates.json"
TRL_TEMPLATES: dict[str, dict[str, Any]] = json.loads(TRL_FILE.read_text(encoding="utf-8"))[
    "templates"
]
"""TRL 1.16's shipped response templates (source and license in the file)."""

TRL_FORMATS = {
    "qwen3": "hermes",
    "qwen3_5": "qwen3_coder",
    "glm4moe": "glm45",
    "llama3": "llama3_json",
    "gptoss": "harmony",
    "lfm2_2_5": "lfm2",
    "nemotron_3": "qwen3_coder",
    "gemma4": "gemma4",
}
"""Each TRL template with tool calls, and the first-party dialect whose golden fixtures are
written in its format (deepseek_r1_distill has no tool_calls field)."""


def registered_trl() -> Iterator[None]:
    """For a module-scoped fixture: every TRL template registered for the module's tests,
    and forgotten after them (``plugins.reset()``), so that other tests see only the
    installed dialects."""
    for template in TRL_TEMPLATES:
        imported(template)
    yield
    plugins.reset()


def imported(template: str) -> str:
    """The name under which the TRL template ``template`` is registered (once, at a priority
    below every installed dialect)."""
    name = f"hf_trl_{template}"
    try:
        tooletta.get_dialect(name)
    except tooletta.UnknownDialectError:
        dialect = hf.dialect_from_response_template(
            TRL_TEMPLATES[template], name=name, priority=-1000
        )
        tooletta.register_dialect(dialect)
    return name


def fixture_cases(dialect: str) -> list[dict[str, Any]]:
    """The golden cases of a first-party dialect."""
    found = list((ROOT / "plugins").glob(f"*/tests/fixtures/{dialect}.json"))
    assert len(found) == 1, (dialect, found)
    return load_cases(found[0])


def expected_calls(case: dict[str, Any]) -> list[ToolCall]:
    """A case's expected calls."""
    return [ToolCall(c["name"], c.get("arguments", {}), c.get("id")) for c in case["calls"]]


def case_tools(case: dict[str, Any]) -> list[dict[str, Any]]:
    """The request's tools for a case: its own, or schemas typing its expected values."""
    return case.get("tools") or tools_for(expected_calls(case))


def fixture_path(dialect: str) -> Path:
    """The golden-fixture file of a first-party dialect."""
    return next((ROOT / "plugins").glob(f"*/tests/fixtures/{dialect}.json"))
