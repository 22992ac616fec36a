"""The conversation building blocks that replaced code the plugins' chat modules repeated:
:func:`~tooletta.chat.each_role` (a turn table whose roles are all written alike) and
:class:`~tooletta.chat.PythonTypes` (the ``json_to_python_type`` macros of the Hermes and
Command R+ templates)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta.chat
import tooletta.plugin
from tooletta.chat import IM_END, IM_START, PythonTypes, Turn, chatml, each_role, roles

role_names = st.text(alphabet="abcdefghij _", min_size=1, max_size=8)


def _turn(role: str) -> Turn:
    return Turn(f"<{role}>", f"</{role}>")


def test_the_faces_export_them() -> None:
    for name in ("each_role", "PythonTypes"):
        assert name in tooletta.chat.__all__ and name in tooletta.plugin.__all__
        assert getattr(tooletta.plugin, name) is getattr(tooletta.chat, name)


@given(role_names)
def test_each_role_writes_every_role_alike(tool: str) -> None:
    """system, user and assistant as the maker writes them, the tool turn under its role's
    name, in the order :func:`roles` gives them."""
    table = each_role(_turn, tool=tool)
    expected = roles(
        system=_turn("system"), user=_turn("user"), assistant=_turn("assistant"), tool=_turn(tool)
    )
    assert list(table.items()) == list(expected.items())
    assert dict(each_role(_turn)) == {**expected, "tool": _turn("tool")}


def test_each_role_takes_a_tool_turn_and_others() -> None:
    """A :class:`Turn` for the tool is written as it is; others replace a role in its place or
    add one after the four."""
    result = Turn(f"{IM_START}user", f"{IM_END}\n")
    table = each_role(chatml, tool=result, assistant=_turn("ai"), developer=_turn("dev"))
    assert list(table) == ["system", "user", "assistant", "tool", "developer"]
    assert table["tool"] is result and table["assistant"] == _turn("ai")
    assert table["user"] == chatml("user")
    assert each_role(chatml, tool="user")["tool"] == chatml("user")


def test_each_role_gives_a_read_only_table() -> None:
    table: Any = each_role(_turn)
    with pytest.raises(TypeError):
        table["tool"] = _turn("x")


HERMES = PythonTypes(array="list[Union[]]", mapping="dict", plain_object="dict")
COMMAND_R = PythonTypes(
    array="List[Union[]]", mapping="Dict", plain_object="Dict[str, Any]", null="None"
)


@pytest.mark.parametrize(
    ("spec", "hermes", "command_r"),
    [
        ({"type": "string"}, "str", "str"),
        ({"type": "number"}, "float", "float"),
        ({"type": "integer"}, "int", "int"),
        ({"type": "boolean"}, "bool", "bool"),
        ({"type": "array", "items": {"type": "string"}}, "list[Union[]]", "List[Union[]]"),
        ({"type": "object"}, "dict", "Dict[str, Any]"),
        (
            {"type": "object", "additionalProperties": {"type": "integer"}},
            "dict[str, int]",
            "Dict[str, int]",
        ),
        (
            {"type": "object", "additionalProperties": True},
            "dict[str, Union[]]",
            "Dict[str, Union[]]",
        ),
        ({"type": "null"}, "Any", "None"),
        ({"type": "date"}, "Any", "Any"),
        ({"type": ["string", "null"]}, "Union[str,Any]", "Union[str,None]"),
        ({"enum": ["a"]}, "Union[]", "Union[]"),
        ("string", "Union[]", "Union[]"),
        ({"type": 3}, "Any", "Any"),
    ],
)
def test_python_types_as_each_macro_names_them(spec: Any, hermes: str, command_r: str) -> None:
    assert HERMES.name(spec) == hermes
    assert COMMAND_R.name(spec) == command_r


def test_the_plugins_name_types_through_it() -> None:
    """Hermes's and Command R+'s ``python_type`` are the declared spellings."""
    from tooletta_dialect_cohere.chat_r_plus import python_type as command_r_type
    from tooletta_dialect_hermes.chat import python_type as hermes_type

    spec = {"type": ["array", "object", "null", "string"]}
    assert hermes_type(spec) == HERMES.name(spec) == "Union[list[Union[]],dict,Any,str]"
    assert command_r_type(spec) == COMMAND_R.name(spec)


scalars = st.sampled_from(["string", "number", "integer", "boolean", "array", "null", "x"])


@given(st.lists(scalars, max_size=4))
def test_a_list_of_types_is_the_union_of_their_names(kinds: list[str]) -> None:
    for types in (HERMES, COMMAND_R):
        names = [types.name({"type": kind}) for kind in kinds]
        assert types.name({"type": kinds}) == "Union[" + ",".join(names) + "]"


@given(
    st.recursive(
        scalars.map(lambda k: {"type": k}),
        lambda inner: inner.map(lambda v: {"type": "object", "additionalProperties": v}),
        max_leaves=4,
    )
)
def test_a_mapping_names_its_values(spec: dict[str, Any]) -> None:
    """An object with ``additionalProperties`` is the mapping generic of its values' name."""
    for types in (HERMES, COMMAND_R):
        if spec["type"] == "object":
            inner = types.name(spec["additionalProperties"])
            assert types.name(spec) == f"{types.mapping}[str, {inner}]"
