"""Each dialect carries its own ``response_template`` export; core only asks.

Every installed dialect declares a template or the reason it cannot have one; a third-party
dialect defined here exports through :func:`tooletta.interop.hf.to_response_template` with no
core edit; declarations that are not one of the documented forms raise a
:class:`tooletta.ToolettaError`; plugins load without loading :mod:`tooletta.interop`.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tooletta
from tooletta import DialectInfo, ParseResult, ToolCall, plugins
from tooletta.interop import hf
from tooletta.interop.hf import spec
from tooletta.interop.hf._export import declared_export

ACME_TEMPLATE = spec.template(
    "<|acme|>",
    spec.region(
        r"\s*<<call (?P<name>\w+)>>",
        r"<</call>>\s*",
        content="json",
        transform=spec.NAMED,
    ),
    ends=("<|end|>",),
    reasoning=spec.think("<<think>>", "<</think>>"),
)


class Acme:
    """A third-party dialect: ``<<call NAME>>{json}<</call>>`` per call."""

    info = DialectInfo(name="acme_hf", aliases=("acme-hf-private",), markers=("<<call ",))
    response_template = ACME_TEMPLATE
    response_template_note = "no ids"

    def parse(self, text: str, tools: Any = None) -> ParseResult:
        return ParseResult(content=text, calls=[], dialect="acme_hf")

    def render(self, calls: list[ToolCall], content: str = "") -> str:
        return content


class AcmeLazy(Acme):
    """The template from a method, called only when it is asked for."""

    info = DialectInfo(name="acme_hf_lazy")
    calls = 0

    def response_template(self) -> Mapping[str, Any]:  # type: ignore[override]
        type(self).calls += 1
        return ACME_TEMPLATE


class AcmeRef(Acme):
    """A ``module:attribute`` reference to another plugin's export."""

    info = DialectInfo(name="acme_hf_ref")
    response_template = "tooletta_dialect_hermes.hf_template:HERMES"  # type: ignore[assignment]


class AcmeGap(Acme):
    """A subclass that cannot have its parent's template: it says why."""

    info = DialectInfo(name="acme_hf_gap")
    response_template = None  # type: ignore[assignment]
    response_template_gap = "acme's calls are written backwards"


class AcmeSilent:
    """A dialect that declares nothing."""

    info = DialectInfo(name="acme_hf_silent")
    parse = Acme.parse
    render = Acme.render


@pytest.fixture()
def registered() -> Iterator[None]:
    """The third-party dialects above, registered in-process for one test only."""
    plugins.reset()
    for cls in (Acme, AcmeLazy, AcmeRef, AcmeGap, AcmeSilent):
        tooletta.register_dialect(cls())
    yield
    plugins.reset()


def _installed() -> list[Any]:
    return [e for e in plugins.get_registry().ordered() if e.version is not None]


def test_every_installed_dialect_declares_a_template_or_a_gap() -> None:
    """Walks the registry: no table in core says which dialect exports what."""
    for entry in _installed():
        export = declared_export(entry.dialect)
        assert export is not None, f"{entry.info.name}: set response_template (or a gap)"
        if export.template is None:
            assert export.gap and "\n" not in export.gap, entry.info.name
            continue
        template = hf.to_response_template(entry.info.name)
        assert {"start_anchor", "fields"} <= set(template), entry.info.name
        assert "tool_calls" in template["fields"], entry.info.name


def test_first_party_exports_live_in_the_plugins() -> None:
    for entry in _installed():
        value = getattr(type(entry.dialect), "response_template", None)
        if entry.info.name == "canonical":  # core's own dialect: a plain gap attribute
            assert value is None and type(entry.dialect).response_template_gap
            continue
        assert isinstance(value, str), entry.info.name
        module = value.partition(":")[0]
        assert module == type(entry.dialect).__module__.split(".")[0] + ".hf_template"


def test_tables_follow_the_registry(registered: None) -> None:
    assert {"acme_hf", "acme_hf_lazy", "acme_hf_ref"} <= set(hf.exportable_dialects())
    assert hf.TEMPLATE_GAPS["acme_hf_gap"] == "acme's calls are written backwards"
    assert hf.TEMPLATE_NOTES["acme_hf"] == "no ids"
    assert "acme_hf_lazy" in hf.TEMPLATE_NOTES  # inherited with the template it goes with
    assert "acme_hf_silent" not in set(hf.exportable_dialects()) | set(hf.TEMPLATE_GAPS)
    assert "acme_hf_gap" not in hf.exportable_dialects()
    assert AcmeLazy.calls == 0  # listing calls no callable
    plugins.reset()
    assert "acme_hf" not in hf.exportable_dialects()
    assert "acme_hf_gap" not in hf.TEMPLATE_GAPS


def test_third_party_template_exports_without_a_core_edit(registered: None) -> None:
    got = hf.to_response_template("Acme-HF-Private")  # an alias, spelled loosely
    assert got == ACME_TEMPLATE
    got["fields"].clear()  # a fresh copy each time
    assert hf.to_response_template("acme_hf") == ACME_TEMPLATE
    assert hf.to_response_template("acme_hf_lazy") == ACME_TEMPLATE
    assert AcmeLazy.calls == 1
    assert hf.to_response_template("acme_hf_ref") == hf.to_response_template("hermes")


def test_third_party_template_parses_with_transformers(registered: None) -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    text = '<<think>>Weather.<</think>>Sure.<<call get_weather>>{"city": "Paris"}<</call>><|end|>'
    message = chat_parsing.parse_response(text, hf.to_response_template("acme_hf"), prefix="")
    assert message["reasoning_content"] == "Weather."
    assert message["content"] == "Sure."
    call = message["tool_calls"][0]["function"]
    assert call == {"name": "get_weather", "arguments": {"city": "Paris"}}


def test_gaps_and_silence_say_why(registered: None) -> None:
    with pytest.raises(tooletta.ToolettaError, match="written backwards"):
        hf.to_response_template("acme_hf_gap")
    with pytest.raises(tooletta.ToolettaError, match="no response_template is written for it"):
        hf.to_response_template("acme_hf_silent")
    with pytest.raises(tooletta.UnknownDialectError):
        hf.to_response_template("no_such_dialect_hf")


class _Broken:
    def __init__(self, value: Any, **attrs: Any) -> None:
        self.info = DialectInfo(name="broken_hf")
        self.response_template = value
        self.__dict__.update(attrs)


@pytest.mark.parametrize(
    ("dialect", "message"),
    [
        (_Broken(42), "a dict or a callable"),
        (_Broken("no_colon"), "not a 'module:attribute' reference"),
        (_Broken("no_such_module_hf_x:THING"), "ModuleNotFoundError"),
        (_Broken("tooletta_dialect_hermes.hf_template:NOPE"), "AttributeError"),
        (_Broken("tooletta.interop.hf.spec:Export.nope"), "AttributeError"),
        (_Broken("tooletta_dialect_hermes.hf_template:__doc__"), "not str"),
        (_Broken(None, response_template_gap=3), "not a reason"),
        (_Broken({}, response_template_note=["x"]), "not a str"),
    ],
)
def test_broken_declarations_raise_typed_errors(dialect: Any, message: str) -> None:
    with pytest.raises(tooletta.ToolettaError, match=message):
        declared_export(dialect)


def _raises() -> Mapping[str, Any]:
    raise KeyError("x")


@pytest.mark.parametrize(
    ("value", "message"), [(_raises, "raised KeyError"), (lambda: [1], "returned list")]
)
def test_a_raising_or_wrong_callable_is_a_typed_error(
    registered: None, value: Any, message: str
) -> None:
    dialect = Acme()
    dialect.info = DialectInfo(name="acme_hf_bad")
    dialect.response_template = value
    tooletta.register_dialect(dialect)
    assert "acme_hf_bad" in hf.exportable_dialects()  # declared; only asking calls it
    with pytest.raises(tooletta.ToolettaError, match=message):
        hf.to_response_template("acme_hf_bad")


@pytest.mark.parametrize(
    "kwargs",
    [{}, {"template": {}, "gap": "x"}, {"gap": "x", "note": "y"}, {"template": 3}],
)
def test_export_takes_a_template_or_a_gap(kwargs: dict[str, Any]) -> None:
    with pytest.raises(tooletta.ToolettaError):
        spec.Export(**kwargs)


@given(st.text(max_size=40))
def test_escape_matches_the_literal_and_only_it(literal: str) -> None:
    pattern = spec.escape(literal)
    assert re.fullmatch(pattern, literal)
    assert re.fullmatch(pattern, literal + "x") is None


@given(st.lists(st.text(min_size=1, max_size=12), min_size=1, max_size=4))
def test_template_content_ends_at_every_end_token(ends: list[str]) -> None:
    close = spec.template("A", {}, ends=tuple(ends))["fields"]["content"]["close_pattern"]
    for end in ends:
        assert re.fullmatch(close, f" {end}\n")


def test_plugins_load_without_loading_the_hf_package() -> None:
    """The one class-body line is a reference: loading a plugin (and parsing) imports
    neither its hf_template module nor tooletta.interop."""
    code = (
        "import sys, tooletta, tooletta_dialect_glm, tooletta_dialect_deepseek\n"
        "tooletta.parse('<tool_call>f</tool_call>', 'glm45')\n"
        "bad = [m for m in sys.modules if m.startswith('tooletta.interop') or "
        "m.endswith('.hf_template')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_tagged_calls_read_their_arguments_from_tags() -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    calls = spec.tagged(
        r"\s*<call (?P<name>\w+)>", r"</call>\s*", r"<(?P<key>\w+)>(?P<value>.*?)</\1>"
    )
    text = "Sure.<call get_weather><city> Paris </city><unit>c</unit></call><|end|>"
    raw = chat_parsing.parse_response(
        text, spec.template("<|a|>", calls, ends=("<|end|>",)), prefix=""
    )
    assert raw["content"] == "Sure."
    assert raw["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": {"city": " Paris ", "unit": "c"},
    }


def test_tagged_strips_values_with_the_text_parser() -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    calls = spec.tagged(
        r"\s*<call (?P<name>\w+)>",
        r"</call>\s*",
        r"<(?P<key>\w+)>(?P<value>.*?)</\1>",
        value_parser=spec.TEXT,
    )
    raw = chat_parsing.parse_response(
        "<call f><city> Paris </city></call>", spec.template("<|a|>", calls), prefix=""
    )
    assert raw["tool_calls"][0]["function"]["arguments"] == {"city": "Paris"}


def test_invoke_and_kv_tags_are_spellings_of_tagged() -> None:
    pair = spec.kv_tags("<c (?P<name>\\w+)>", "</c>", "<k>", "<v>", "</v>")
    assert pair == spec.tagged("<c (?P<name>\\w+)>", "</c>", "<k>(?P<key>.*?)<v>(?P<value>.*?)</v>")
    element = spec.invoke("", "<calls>", "</calls>", "invoke", "parameter")
    assert element["content"] == "xml-inline" and element["transform"] == spec.NAMED
    assert element["content_args"]["value_parser"] == spec.TEXT_RAW


def test_named_id_keeps_the_captured_id() -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    calls = spec.region(
        r"\s*<call (?P<id>\d+) (?P<name>\w+)>",
        r"</call>\s*",
        content="json",
        transform=spec.NAMED_ID,
    )
    raw = chat_parsing.parse_response(
        '<call 7 f>{"a": 1}</call>', spec.template("<|a|>", calls), prefix=""
    )
    assert raw["tool_calls"] == [
        {"type": "function", "id": "7", "function": {"name": "f", "arguments": {"a": 1}}}
    ]


@given(
    st.text(max_size=20), st.dictionaries(st.sampled_from(["content", "tool_calls"]), st.just({}))
)
def test_message_is_the_layout_template_writes(anchor: str, fields: dict[str, Any]) -> None:
    got = spec.message(anchor, fields)
    assert got == {"defaults": {"role": "assistant"}, "start_anchor": anchor, "fields": fields}
    built = spec.template(anchor, {"open": "x"})
    assert spec.message(anchor, built["fields"]) == built


@given(st.lists(st.text(min_size=1, max_size=8), max_size=3), st.booleans())
def test_chatml_is_template_with_chatml_markers(ends: list[str], reasoning: bool) -> None:
    calls = spec.region("<c>", "</c>", content="json", transform=spec.NAMED)
    got = spec.chatml(calls, ends=tuple(ends), reasoning=reasoning)
    assert got == spec.template(
        "<|im_start|>assistant\n",
        calls,
        ends=("<|im_end|>", *ends),
        reasoning=spec.think() if reasoning else None,
    )
    assert ("reasoning_content" in got["fields"]) is reasoning


def test_chatml_reply_parses_with_transformers() -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    calls = spec.region(r"\s*<c>", r"</c>\s*", content="json", transform=spec.FUNCTION)
    text = '<think>Hm.</think>Sure.<c>{"name": "f", "arguments": {"a": 1}}</c><|im_end|>'
    raw = chat_parsing.parse_response(text, spec.chatml(calls), prefix="")
    assert (raw["reasoning_content"], raw["content"]) == ("Hm.", "Sure.")
    assert raw["tool_calls"][0]["function"] == {"name": "f", "arguments": {"a": 1}}
