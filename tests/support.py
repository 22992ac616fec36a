"""Helpers shared by the core tests (importable: tests/ is on pytest's pythonpath)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import types
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from tooletta import Message, ParseResult
    from tooletta.chat import ChatFormat, Turn
    from tooletta.engine import Grammar

ROOT = Path(__file__).resolve().parent.parent
PYTEST = (sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider")
"""The command that runs pytest in a fresh interpreter (without plugins that keep state)."""
TEMPLATES = ROOT / "tests" / "fixtures" / "templates"
"""The chat templates vendored for the core tests (their sources in its SOURCES.md)."""


def uv() -> list[str]:
    """The command that runs uv here."""
    found = shutil.which("uv")
    return [found] if found else [sys.executable, "-m", "uv"]


def run(cmd: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    """Run a command, failing the test with its output when it fails."""
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)  # type: ignore[call-overload]
    if proc.returncode != 0:
        pytest.fail(f"{' '.join(map(str, cmd))} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc  # type: ignore[no-any-return]


def rule_chat(rule: str) -> type:
    """A toy conversation format whose reasoning history rule is ``rule`` (``[U]``/``[A]``/
    ``[T]`` turns, ``<e>`` ending the assistant's, ``<t>...</t>`` reasoning): the keep-rule
    tests of :mod:`tooletta.chat.declare` render and read it."""
    from tooletta.chat import ChatFormat, Reasoning, Turn, roles

    class RuleChat(ChatFormat):
        """A toy format declaring the rule."""

        name = f"toy_{rule}"
        turns = roles(
            user=Turn("[U]", "[/U]"), assistant=Turn("[A]", "<e>"), tool=Turn("[T]", "[/T]")
        )
        end_of_turn = "<e>"
        reasoning = Reasoning("<t>", "</t>", strip="", keep=rule)  # type: ignore[arg-type]

    return RuleChat


def kind_message(kind: int) -> Message:
    """A message of a kind the keep-rule tests draw: 0 a user query, 1 an answer with
    reasoning, 2 a call turn with reasoning, else a tool result."""
    from tooletta import Message, ToolCall

    if kind == 0:
        return Message("user", "q")
    if kind == 1:
        return Message("assistant", "answer", reasoning="r")
    if kind == 2:
        return Message("assistant", "", tool_calls=[ToolCall("f", {})], reasoning="r")
    return Message("tool", "result")


def installed_formats() -> dict[str, tuple[ChatFormat, Any]]:
    """Every installed chat format once, by name (sorted), with the first dialect (in
    registry order) that declares it."""
    from tooletta.chat import chat_formats_of
    from tooletta.plugins import get_registry

    seen: dict[str, tuple[ChatFormat, Any]] = {}
    for entry in get_registry().ordered():
        for fmt in chat_formats_of(entry.dialect):
            seen.setdefault(fmt.name, (fmt, entry.dialect))
    return dict(sorted(seen.items()))


def weather_tool(description: str) -> dict[str, Any]:
    """The OpenAI definition of ``get_weather(city: string)`` described as ``description``
    (the tool the learn tests declare)."""
    return {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": description,
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }


def render_template_file(path: str | Path, messages: Any, **kwargs: Any) -> str:
    """The chat template file at ``path`` rendered for ``messages`` with its special tokens
    (:func:`~tooletta.chat.jinja.load_chat_template`, then
    :func:`~tooletta.chat.jinja.render_jinja` with ``kwargs``); messages given as dicts are
    read first (:func:`~tooletta.chat.read_conversation`), ``Message`` objects passed as
    they are."""
    from tooletta.chat import read_conversation
    from tooletta.chat.jinja import load_chat_template, render_jinja

    template, tokens = load_chat_template(str(path))
    if messages and isinstance(messages[0], dict):
        messages = read_conversation(messages)
    return render_jinja(template, messages, tokens=tokens, **kwargs)


def weather_row(i: int, *, answer: bool = False) -> dict[str, Any]:
    """An OpenAI-style dataset row, numbered ``i``: a query, a ``get_weather`` call with its
    arguments as JSON text (as datasets keep them), its result and, with ``answer``, the
    final answer."""
    args = {"city": ["Paris", "Zürich", "東京"][i % 3], "days": i % 7}
    messages: list[dict[str, Any]] = [
        {"role": "user", "content": f"Weather {i}?"},
        {
            "role": "assistant",
            "content": "Let me check.",
            "tool_calls": [
                {
                    "id": f"call_{i}",
                    "type": "function",
                    "function": {"name": "get_weather", "arguments": json.dumps(args)},
                }
            ],
        },
        {"role": "tool", "tool_call_id": f"call_{i}", "content": "18C"},
    ]
    if answer:
        messages.append({"role": "assistant", "content": f"Sunny, {i}."})
    return {"messages": messages}


def cpu_ratio(small: Callable[[], object], large: Callable[[], object], runs: int = 3) -> float:
    """Best CPU time of ``large`` over that of ``small``, runs interleaved (load-robust)."""
    best_small = best_large = float("inf")
    for _ in range(runs):
        start = time.process_time()
        small()
        best_small = min(best_small, time.process_time() - start)
        start = time.process_time()
        large()
        best_large = min(best_large, time.process_time() - start)
    return best_large / max(best_small, 2e-3)


def linear_ratio(small: Callable[[], object], large: Callable[[], object], bound: float) -> float:
    """:func:`cpu_ratio` of ``large`` (4x ``small``'s input) over ``small``, measured again
    (twice at most, five runs each) while it is at or above ``bound``: the smallest of the
    measurements. A machine busy with other work inflates one measurement now and then (CI
    once saw 8.85 for a linear reader); a superlinear cost (16x for a quadratic one) stays
    above the bound in every measurement."""
    ratio = cpu_ratio(small, large)
    for _ in range(2):
        if ratio < bound:
            break
        ratio = min(ratio, cpu_ratio(small, large, runs=5))
    return ratio


def plugin_pyproject(distribution: str, entry: str, module: str) -> str:
    """The ``pyproject.toml`` of a one-module third-party plugin: ``distribution`` depends on
    tooletta-core and registers ``module`` (``<module>.py``) as the ``tooletta`` entry point
    ``entry``, built by hatchling."""
    return f"""
[project]
name = "{distribution}"
version = "1.0.0"
dependencies = ["tooletta-core"]

[project.entry-points.tooletta]
{entry} = "{module}"

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.hatch.build.targets.wheel]
include = ["{module}.py"]
"""


def stream_in_lengths(grammar: Grammar, text: str, lengths: list[int]) -> ParseResult:
    """``text`` fed to a fresh :class:`~tooletta.engine.Engine` of ``grammar`` (dialect
    ``"t"``) in pieces of ``lengths`` characters, the rest last, its updates assembled."""
    from itertools import accumulate

    from tooletta.engine import Engine
    from tooletta.testing import assemble, split_text

    engine = Engine(grammar, "t")
    updates = [engine.feed(p) for p in split_text(text, accumulate(lengths))]
    updates.append(engine.finish())
    return assemble(updates)


def tag_turns() -> Mapping[str, Turn]:
    """The turns of the core tests' toy chat formats: ``<s>``, ``<u>``, ``<a>`` and ``<t>``
    tags around the system, user, assistant and tool messages (``</a>`` ends the
    assistant's)."""
    from tooletta.chat import Turn, roles

    return roles(
        system=Turn("<s>", "</s>"),
        user=Turn("<u>", "</u>"),
        assistant=Turn("<a>", "</a>"),
        tool=Turn("<t>", "</t>"),
    )


def bracket_turns() -> Mapping[str, Turn]:
    """The turns of the core tests' bracketed toy chat formats: ``[S]``, ``[U]``, ``[A]`` and
    ``[T]`` headers, ``[/S]``, ``[/U]`` and ``[/T]`` footers, and ``<e>`` ending the
    assistant's turn."""
    from tooletta.chat import Turn, roles

    return roles(
        system=Turn("[S]", "[/S]"),
        user=Turn("[U]", "[/U]"),
        assistant=Turn("[A]", "<e>"),
        tool=Turn("[T]", "[/T]"),
    )


def load_fuzzlib() -> Any:
    """``fuzz/fuzzlib.py``, imported as ``fuzzlib`` (the same module the atheris target uses)."""
    import importlib

    folder = str(ROOT / "fuzz")
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return importlib.import_module("fuzzlib")


def plugin_module(name: str, *objects: Any) -> types.ModuleType:
    """A module ``name`` that is a plugin: its ``register_dialects`` hook registers each of
    ``objects`` (dialects, chat formats, model rows)."""
    import tooletta

    module = types.ModuleType(name)

    @tooletta.hookimpl
    def register_dialects(register: Any) -> None:
        for obj in objects:
            register(obj)

    module.register_dialects = register_dialects  # type: ignore[attr-defined]
    return module
