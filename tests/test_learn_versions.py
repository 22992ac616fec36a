"""Saved learned specs across versions: a version 1 spec (written before the optional keys of
version 2 existed) still loads and renders as its template; a newer spec, or one with no
version, is refused with a reason that says so (by ``load_learned`` and ``dialect_from_spec``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import tooletta
from tooletta import LearnError
from tooletta.chat import read_conversation
from tooletta.chat.jinja import render_jinja
from tooletta.chat.learn import dialect_from_spec
from tooletta.chat.learn.chatspec import SPEC_VERSION, SPEC_VERSIONS_READ
from tooletta.chat.learn.probes import SUITE_VERSION

pytest.importorskip("jinja2")


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


TEMPLATE = (
    "{% if tools %}<|s|>TOOLS:{% for t in tools %}\n{{ t | tojson }}{% endfor %}<|end|>{% endif %}"
    "{% for m in messages %}"
    "{% if m.role == 'assistant' %}<|a|>{{ m.content }}"
    "{% for c in m.tool_calls or [] %}<call>{{ {'name': c.function.name,"
    " 'arguments': c.function.arguments} | tojson }}</call>{% endfor %}<|end|>"
    "{% elif m.role == 'tool' %}<|t|>{{ m.content }}<|end|>"
    "{% else %}<|{{ m.role[0] }}|>{{ m.content }}<|end|>{% endif %}{% endfor %}"
    "{% if add_generation_prompt %}<|a|>{% endif %}"
)
"""A made-up template with every piece a version 1 spec already expressed."""

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "get_weather",
            "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
        },
    }
]
CONVERSATION: list[dict[str, Any]] = [
    {"role": "system", "content": "Be brief."},
    {"role": "user", "content": "Weather in Bern?"},
    {
        "role": "assistant",
        "content": "",
        "tool_calls": [
            {"id": "c1", "function": {"name": "get_weather", "arguments": {"city": "Bern"}}}
        ],
    },
    {"role": "tool", "tool_call_id": "c1", "content": "rain"},
    {"role": "assistant", "content": "Rain."},
]

VERSION_2_KEYS = {
    "chat": (
        "content_cut",
        "content_parts",
        "history_strip",
        "plain_footers",
        "empty_system",
        "after_results",
        "prompt_after_results",
        "content_beside_calls",
    ),
    "calls": ("written_ids",),
}
"""The optional keys version 2 added at the spec's top levels (and ``tools.own_turn``,
``results.id`` below them)."""


def _as_version_1(spec: dict[str, Any]) -> dict[str, Any]:
    old: dict[str, Any] = json.loads(json.dumps(spec))
    for part, keys in VERSION_2_KEYS.items():
        for key in keys:
            old[part].pop(key, None)
    if old["chat"].get("tools"):
        old["chat"]["tools"].pop("own_turn", None)
    old["chat"]["results"].pop("id", None)
    old["spec_version"], old["probe_suite"] = 1, 1
    return old


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    learned = tooletta.learn(TEMPLATE, name="test-versions")
    return dict(learned.spec)


def test_the_versions_saved_are_the_current_ones(saved: dict[str, Any]) -> None:
    assert saved["spec_version"] == SPEC_VERSION == 5
    assert saved["probe_suite"] == SUITE_VERSION == 4
    assert sorted(SPEC_VERSIONS_READ) == [1, 2, 3, 4, 5]


def test_a_version_3_spec_loads_unchanged(tmp_path: Path, saved: dict[str, Any]) -> None:
    """Version 4 added optional keys only (the installed calls' ``between``, the results'
    ``encoding``): a version 3 spec, which has neither, renders as it did."""
    old = {**json.loads(json.dumps(saved)), "name": "test-versions-v3", "spec_version": 3}
    assert "encoding" not in old["chat"]["results"]
    path = tmp_path / "v3.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    loaded = tooletta.load_learned(path)
    assert loaded.spec["spec_version"] == 3
    text = tooletta.render_conversation(CONVERSATION, dialect=loaded.name, tools=TOOLS)
    assert text == render_jinja(TEMPLATE, read_conversation(CONVERSATION), tools=TOOLS)


def test_a_version_1_spec_still_loads(tmp_path: Path, saved: dict[str, Any]) -> None:
    old = _as_version_1(saved)
    old["name"] = "test-versions-v1"
    assert not set(VERSION_2_KEYS["chat"]) & set(old["chat"])
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    loaded = tooletta.load_learned(path)
    assert loaded.spec["spec_version"] == 1
    for prompt in (False, True):
        messages = CONVERSATION if not prompt else CONVERSATION[:-1]
        text = tooletta.render_conversation(
            messages, dialect=loaded.name, tools=TOOLS, add_generation_prompt=prompt
        )
        assert text == render_jinja(
            TEMPLATE, read_conversation(messages), tools=TOOLS, add_generation_prompt=prompt
        )
    read = tooletta.parse_conversation(text, dialect=loaded.name)
    assert [m.role for m in read] == [m["role"] for m in CONVERSATION[:-1]]
    assert dialect_from_spec(old).info.name == "test-versions-v1"


@pytest.mark.parametrize("version", [SPEC_VERSION + 1, 99])
def test_a_newer_spec_is_refused_clearly(
    tmp_path: Path, saved: dict[str, Any], version: int
) -> None:
    newer = {**saved, "name": "test-versions-newer", "spec_version": version}
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(newer), encoding="utf-8")
    with pytest.raises(LearnError, match=f"version {version}.*reads versions 1, 2.*upgrade"):
        tooletta.load_learned(path)
    with pytest.raises(LearnError, match="upgrade tooletta"):
        dialect_from_spec(newer)
    assert "test-versions-newer" not in {d.name for d in tooletta.list_dialects()}


@pytest.mark.parametrize("version", [None, "2", 2.0, 0, True])
def test_a_spec_without_a_known_integer_version_is_refused(
    tmp_path: Path, saved: dict[str, Any], version: Any
) -> None:
    bad = {**saved, "name": "test-versions-bad", "spec_version": version}
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(LearnError, match="spec"):
        tooletta.load_learned(path)
