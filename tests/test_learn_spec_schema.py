"""A learned spec edited by hand or damaged is refused with the key's path
(:func:`tooletta.chat.learn.specschema.check_spec`), never a raw error in a later render."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import LearnedSpecError, LearnError
from tooletta.chat.learn import dialect_from_spec, load_learned
from tooletta.chat.learn.specschema import check_spec

pytest.importorskip("jinja2")

FIXTURES = Path(__file__).parent / "fixtures" / "templates"


pytestmark = pytest.mark.usefixtures("forget_learned")
"""Formats learned here are forgotten after this module (``tests/conftest.py``)."""


@pytest.fixture(scope="module")
def specs() -> dict[str, dict[str, Any]]:
    """Specs of three layouts: calls by an installed dialect (Bielik, lenient), learned JSON
    calls and a result id (Reka Edge), no calls and plain footers (RWKV World)."""
    found = {}
    for stem, lenient in (
        ("Bielik-11B-v3.0-Instruct", True),
        ("Reka-Edge", False),
        ("llama-cpp-rwkv-world", False),
    ):
        learned = tooletta.learn(
            str(FIXTURES / f"{stem}.jinja"), name=f"schema-{stem.lower()}", lenient=lenient
        )
        found[stem] = json.loads(json.dumps(dict(learned.spec)))
    return found


def test_every_spec_learn_writes_has_the_layout(specs: dict[str, dict[str, Any]]) -> None:
    for spec in specs.values():
        check_spec(spec)


def _set(spec: dict[str, Any], path: tuple[str | int, ...], value: Any) -> dict[str, Any]:
    edited = copy.deepcopy(spec)
    where: Any = edited
    for key in path[:-1]:
        where = where[key]
    where[path[-1]] = value
    return edited


@pytest.mark.parametrize(
    ("path", "value", "shown"),
    [
        (("chat", "end_of_turn"), 5, "$.chat.end_of_turn"),
        (("chat", "turns", "user"), "<|u|>", "$.chat.turns.user"),
        (("chat", "reasoning", "keep"), "after_lunch", "$.chat.reasoning.keep"),
        (("chat", "tools", "item", "indent"), "two", "$.chat.tools.item.indent"),
        (("chat", "prompts"), [[{}, 3]], "$.chat.prompts[0][1]"),
        (("chat", "results", "grouped"), "yes", "$.chat.results.grouped"),
        (("chat", "end_of_turn_typo"), "", "end_of_turn_typo"),
        (("calls", "kind"), "xml", "$.calls"),
    ],
)
def test_a_damaged_spec_is_refused_with_the_keys_path(
    specs: dict[str, dict[str, Any]], tmp_path: Path, path: tuple[str, ...], value: Any, shown: str
) -> None:
    spec = _set(specs["Bielik-11B-v3.0-Instruct"], path, value)
    spec["name"] = "schema-damaged"
    saved = tmp_path / "spec.json"
    saved.write_text(json.dumps(spec), encoding="utf-8")
    with pytest.raises(LearnedSpecError) as caught:
        load_learned(saved)
    assert shown in str(caught.value)
    assert str(saved) in str(caught.value)
    assert not str(caught.value).startswith("cannot learn")
    with pytest.raises(LearnedSpecError):
        dialect_from_spec(spec)


def test_a_learned_spec_error_is_a_learn_error(tmp_path: Path) -> None:
    saved = tmp_path / "spec.json"
    saved.write_text(json.dumps({"spec_version": "2"}), encoding="utf-8")
    with pytest.raises(LearnError, match="no integer spec_version"):
        load_learned(saved)


_LEAVES = st.sampled_from(
    [
        ("chat", "bos"),
        ("chat", "end_of_turn"),
        ("chat", "turns", "assistant"),
        ("chat", "results", "wrap"),
        ("chat", "results", "separator"),
        ("chat", "tools", "head"),
        ("chat", "tools", "join"),
        ("chat", "tools", "item", "what"),
        ("chat", "reasoning", "open"),
        ("chat", "reasoning", "empty"),
        ("chat", "system"),
        ("calls", "lead_alone"),
        ("calls", "ids"),
        ("name",),
    ]
)
_WRONG = st.one_of(
    st.integers(),
    st.floats(allow_nan=False),
    st.lists(st.integers(), max_size=2),
    st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@given(path=_LEAVES, value=_WRONG)
def test_any_value_of_the_wrong_type_is_refused_before_rendering(
    specs: dict[str, dict[str, Any]], path: tuple[str, ...], value: Any
) -> None:
    spec = _set(specs["Bielik-11B-v3.0-Instruct"], path, value)
    with pytest.raises(LearnedSpecError, match="malformed learned spec"):
        check_spec(spec)
