"""What the plugins no longer write in every dialect: the ``models`` patterns (derived from the
plugin's rows when it registers) and the ``response_template`` reference (found by name in the
plugin's ``hf_template`` module); and the shared helpers that replaced copied plugin code."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar, cast

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from support import plugin_module
from tooletta import DialectInfo, ScannerDialect, ToolCall
from tooletta.exportname import NamedExport, export_reference
from tooletta.interop.hf._export import declared_export
from tooletta.plugin import (
    Grammar,
    KvTags,
    Model,
    fast_section,
    header_call_block,
    header_safe,
    json_without,
    kv_call_block,
    patterns_of,
    section,
    variant_info,
)
from tooletta.registry import Pending, derive_models
from tooletta.testing.streams import assemble


class _Acme(ScannerDialect):
    info = DialectInfo(name="acme_dups9", priority=1)
    grammar = Grammar(blocks=())

    def render_calls(self, calls: list[ToolCall]) -> str:
        return ""


class _AcmeDeclared(_Acme):
    info = DialectInfo(name="acme_dups9_declared", models=("own/*",))


ROWS = (
    Model(("acme/a-*", "a-*"), dialect="acme_dups9"),
    Model("acme/b-*", dialects=("acme_dups9_declared", "acme_dups9")),
    Model("acme/c-*", dialect="acme_dups9"),
)


# -- models derived from the rows --------------------------------------------------------------


def test_a_dialect_without_models_shows_its_rows_patterns() -> None:
    dialect = _Acme()
    derive_models([dialect, *ROWS])
    assert dialect.info.models == ("acme/a-*", "a-*", "acme/c-*")
    assert dialect.info.models == patterns_of(ROWS, "acme_dups9")
    assert _Acme.info.models == ()  # the class keeps what it declares
    assert dialect.info.priority == 1 and dialect.info.name == "acme_dups9"


def test_declared_models_and_rowless_plugins_are_left_alone() -> None:
    declared = _AcmeDeclared()
    derive_models([declared, *ROWS])
    assert declared.info.models == ("own/*",)
    alone = _Acme()
    derive_models([alone])
    assert alone.info.models == ()
    pending = Pending(_Acme.info, ("parse",), lambda name: None)
    derive_models([pending, *ROWS])
    assert pending.info.models == ()


def test_a_variant_declared_without_rows_gets_them_at_registration() -> None:
    class Variant(_Acme):
        info = variant_info(_Acme.info, "acme_dups9_v2", description="v2", source="s")

    rows = (Model("acme/v2-*", dialect="acme_dups9_v2"), *ROWS)
    assert Variant.info.models == () and Variant.info.variant_of == "acme_dups9"
    variant = Variant()
    derive_models([variant, *rows])
    assert variant.info.models == ("acme/v2-*",)
    assert variant.info == variant_info(
        _Acme.info, "acme_dups9_v2", rows, description="v2", source="s"
    )


def test_an_object_refusing_the_attribute_still_registers() -> None:
    class Slotted:
        __slots__ = ()
        info = DialectInfo(name="acme_dups9")

    derive_models([Slotted(), *ROWS])  # no error: the rows still answer for the models


@given(st.lists(st.sampled_from(["x", "y", "acme_dups9"]), min_size=1, max_size=6))
def test_derived_models_are_the_default_dialect_rows(dialects: list[str]) -> None:
    rows = [Model(f"org/m{i}-*", dialect=d) for i, d in enumerate(dialects)]
    dialect = _Acme()
    derive_models([*rows, dialect])  # rows before or after the dialect: the same
    expected = tuple(f"org/m{i}-*" for i, d in enumerate(dialects) if d == "acme_dups9")
    assert dialect.info.models == expected


def test_registered_first_party_dialects_show_their_rows() -> None:
    qwen = tooletta.get_dialect("qwen3_coder")
    assert type(qwen).info.models == ()  # the class no longer writes them
    assert qwen.info.models[:2] == (
        "qwen/qwen3-coder-30b-a3b-instruct*",
        "qwen3-coder-30b-a3b-instruct*",
    )
    listed = {i.name: i for i in tooletta.list_dialects()}
    assert listed["qwen3_coder"].models == qwen.info.models
    assert listed["nemotron3"].models == (
        "nvidia/nvidia-nemotron-3-nano-*",
        "nvidia-nemotron-3-nano-*",
    )


def test_an_in_process_plugin_gets_its_models_derived() -> None:
    class Late(_Acme):
        info = DialectInfo(name="acme_dups9_late")

    module = plugin_module(
        "acme_dups9_plugin", Late(), Model("acme/late-*", dialect="acme_dups9_late")
    )
    tooletta.register_plugin(module)
    try:
        assert tooletta.get_dialect("acme_dups9_late").info.models == ("acme/late-*",)
        assert tooletta.dialect_for_model("acme/late-1") == "acme_dups9_late"
    finally:
        tooletta.plugins.reset()


# -- the response_template found by name -------------------------------------------------------


@pytest.fixture
def acme_package() -> Iterator[str]:
    """A package ``acme_dups9_pkg`` with an ``hf_template`` module holding ``ACME_DUPS9``."""
    package = types.ModuleType("acme_dups9_pkg")
    package.__path__ = []  # a package, found by find_spec
    exports = types.ModuleType("acme_dups9_pkg.hf_template")
    exports.ACME_DUPS9 = {"start_anchor": "<|a|>", "fields": {}}  # type: ignore[attr-defined]
    spec = types.SimpleNamespace(name="acme_dups9_pkg.hf_template", loader=None)
    exports.__spec__ = spec  # type: ignore[assignment]
    sys.modules["acme_dups9_pkg"] = package
    sys.modules["acme_dups9_pkg.hf_template"] = exports
    try:
        yield "acme_dups9_pkg"
    finally:
        del sys.modules["acme_dups9_pkg"], sys.modules["acme_dups9_pkg.hf_template"]


def _dialect_in(package: str, name: str, **attrs: Any) -> type[_Acme]:
    attrs = {"info": DialectInfo(name=name), "__module__": package, **attrs}
    return cast("type[_Acme]", type("AcmeDups9", (_Acme,), attrs))


def test_a_dialect_exports_the_template_named_after_it(acme_package: str) -> None:
    cls = _dialect_in(acme_package, "acme_dups9")
    assert cls.response_template == "acme_dups9_pkg.hf_template:ACME_DUPS9"
    assert cls().response_template == cls.response_template
    export = declared_export(cls())
    assert export is not None and export.template == {"start_anchor": "<|a|>", "fields": {}}


def test_what_a_class_sets_wins(acme_package: str) -> None:
    named = _dialect_in(acme_package, "acme_dups9", response_template="x.hf_template:OTHER")
    assert named.response_template == "x.hf_template:OTHER"
    gap = _dialect_in(acme_package, "acme_dups9", response_template_gap="written backwards")
    assert gap.response_template is None
    export = declared_export(gap())
    assert export is not None and export.gap == "written backwards"
    instance = _dialect_in(acme_package, "acme_dups9")()
    instance.response_template = {"start_anchor": "x"}  # an instance's own shadows it
    assert instance.response_template == {"start_anchor": "x"}


def test_a_subclass_exports_its_own_name(acme_package: str) -> None:
    base = _dialect_in(acme_package, "acme_dups9")

    class Sub(base):  # type: ignore[valid-type,misc]
        info = DialectInfo(name="acme_dups9_v2")

    Sub.__module__ = base.__module__  # read on first use, below
    assert Sub.response_template == "acme_dups9_pkg.hf_template:ACME_DUPS9_V2"


def test_no_hf_template_module_means_no_export() -> None:
    assert export_reference(_Acme) is None  # this test module is no package
    assert declared_export(_Acme()) is None
    assert _dialect_in("tooletta", "acme_dups9").response_template is None  # core's own
    assert export_reference(type("NoInfo", (), {"__module__": "tooletta_dialect_glm"})) is None
    assert tooletta.get_dialect("canonical").response_template is None


def test_first_party_classes_read_their_reference_by_convention() -> None:
    glm = type(tooletta.get_dialect("glm45"))
    assert "response_template" not in vars(glm)
    assert glm.response_template == "tooletta_dialect_glm.hf_template:GLM45"
    assert isinstance(vars(ScannerDialect)["response_template"], NamedExport)


class _Holder:
    """A class outside any package with an ``hf_template`` module."""

    info: ClassVar[DialectInfo] = DialectInfo(name="holder")
    response_template = NamedExport()


def test_the_descriptor_works_on_any_class() -> None:
    assert _Holder.response_template is None and _Holder().response_template is None


# -- shared helpers that replaced copies in the plugins ------------------------------------------


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(), st.lists, max_leaves=8))
def test_json_without_never_spells_a_marker_and_decodes_the_same(value: Any) -> None:
    markers = ("<|im_end|>", "</param>")
    text = json_without({"v": value, "s": "a <|im_end|> b </param>"}, markers)
    assert not any(m in text for m in markers)
    assert msgspec.json.decode(text) == {"v": value, "s": "a <|im_end|> b </param>"}


def test_json_without_leaves_clean_text_as_to_json_writes_it() -> None:
    assert json_without({"a": "<b>"}, ("</c>",)) == tooletta.to_json({"a": "<b>"})
    assert json_without({"a": "x</c>"}, ("</c>",)) == '{"a": "x\\u003c/c>"}'


@pytest.mark.parametrize(
    ("text", "ok"),
    [("get", True), ("", False), (" get", False), ("get\n", False), ("a<|x|>b", False)],
)
def test_header_safe(text: str, ok: bool) -> None:
    assert header_safe(text, ("<|x|>", "<|y|>")) is ok


class _Header(ScannerDialect):
    """``<<c>>NAME::{json}<</c>>`` calls, in ``<<s>>`` sections."""

    info = DialectInfo(name="acme_dups9_header")
    CALL = header_call_block("<<c>>", "::", "<</c>>", ("::", "<</c>>", "<<c>>"), None, "<eot>")
    grammar = Grammar(blocks=(CALL, section("<<s>>", fast_section("<<c>>", CALL))))

    def render_calls(self, calls: list[ToolCall]) -> str:
        return "<<s>>" + "".join(
            f"<<c>>{c.name}::{json_without(c.arguments, ('<eot>',))}<</c>>" for c in calls
        )


@given(
    st.lists(
        st.tuples(
            st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True),
            st.dictionaries(
                st.from_regex(r"[a-z]{1,4}", fullmatch=True), st.integers() | st.text()
            ),
        ),
        min_size=1,
        max_size=3,
    )
)
def test_a_header_call_block_reads_back_what_is_written(calls: list[Any]) -> None:
    dialect = _Header()
    written = [ToolCall(n, a) for n, a in calls]
    text = dialect.render(written)
    assert dialect.parse(text).calls == written  # one-shot: the block's and the section's fast
    stream = dialect.stream()
    updates = [stream.feed(ch) for ch in text] + [stream.finish()]
    assert assemble(updates).calls == written  # the reader, a character at a time
    assert _Header.CALL.fast is not None and _Header.CALL.close == "<</c>>"


def test_kv_call_block_reads_a_glm_call() -> None:
    tags = KvTags(
        close="</tool_call>",
        key_open="<arg_key>",
        key_close="</arg_key>",
        value_open="<arg_value>",
        value_close="</arg_value>",
    )
    block = kv_call_block("<tool_call>", tags)
    assert block.open == "<tool_call>" and block.close == "</tool_call>" and block.fast
    assert block.read.__doc__ and "<tool_call>" in block.read.__doc__
    glm = tooletta.get_dialect("glm45")
    text = "<tool_call>get<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"
    assert glm.parse(text).calls == [ToolCall("get", {"city": "Paris"})]
