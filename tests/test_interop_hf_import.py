"""``hf.dialect_from_response_template``: a model's template becomes a tooletta dialect.

The TRL 1.16 templates (vendored in ``tests/fixtures/hf``) and transformers' own fallback
templates are imported and run through the conformance kit's laws on the golden texts of the
formats they read; arguments stream as they arrive; bad templates raise ``TemplateError``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

import pytest

import tooletta
from hf_support import (
    TRL_FORMATS,
    TRL_TEMPLATES,
    case_tools,
    fixture_cases,
    fixture_path,
    imported,
    registered_trl,
)
from tooletta import ToolCall
from tooletta.interop import hf
from tooletta.testing import DialectTests, check_stream_equals_parse

# -- the conformance kit over every imported TRL template -------------------------------------


@pytest.fixture(autouse=True, scope="module")
def _trl_dialects() -> Iterator[None]:
    yield from registered_trl()


class _ImportedTests(DialectTests):
    """The kit's laws on the fixture texts of the template's format (what each text should
    give is scored against transformers in test_interop_hf_score)."""

    template: ClassVar[str]
    max_examples = 25
    lookahead: ClassVar[bool] = False

    @classmethod
    def cases(cls) -> list[dict[str, Any]]:
        fmt = TRL_FORMATS.get(cls.template, "deepseek_v3")
        return fixture_cases(fmt)

    def test_golden(self) -> None:
        """Scored against transformers in test_interop_hf_score instead."""

    def test_golden_detect(self) -> None:
        """Each fixture with a call in the template's own syntax is claimed by detect()."""
        dialect = tooletta.get_dialect(self.dialect)
        for case in self.cases():
            if tooletta.parse(case["text"], self.dialect, tools=case_tools(case)).calls:
                assert dialect.detect(case["text"]), case["name"]

    def test_holdback_bounded(self) -> None:
        """Law 3, except for a template whose reasoning opens by lookahead (Nemotron 3,
        DeepSeek-R1-Distill): whether the reply starts inside a reasoning region is only known
        when its close (or the end) arrives, so it is held until then, as transformers holds
        it (see the docs' "interop with Hugging Face" page)."""
        if not self.lookahead:
            super().test_holdback_bounded()


def _kit(template: str, lookahead: bool = False) -> type[_ImportedTests]:
    name = f"hf_trl_{template}"  # registered by the module's fixture
    attrs = {
        "dialect": name,
        "template": template,
        "fixtures": fixture_path(TRL_FORMATS.get(template, "deepseek_v3")),
        "lookahead": lookahead,
    }
    return type(f"TestImported_{template}", (_ImportedTests,), attrs)


TestImportedQwen3 = _kit("qwen3")
TestImportedQwen35 = _kit("qwen3_5")
TestImportedGlm4Moe = _kit("glm4moe")
TestImportedLlama3 = _kit("llama3")
TestImportedGptOss = _kit("gptoss")
TestImportedLfm25 = _kit("lfm2_2_5")
TestImportedNemotron3 = _kit("nemotron_3", lookahead=True)
TestImportedGemma4 = _kit("gemma4")
TestImportedDeepSeekR1Distill = _kit("deepseek_r1_distill", lookahead=True)


# -- streaming ----------------------------------------------------------------------------


def _argument_deltas(name: str, text: str, tools: Any = None) -> list[list[str]]:
    """Per call, the non-empty argument fragments a one-character-at-a-time stream sends."""
    parser = tooletta.stream(name, tools=tools)
    out: dict[int, list[str]] = {}
    for update in [*(parser.feed(ch) for ch in text), parser.finish()]:
        for delta in update.calls:
            if delta.arguments:
                out.setdefault(delta.index, []).append(delta.arguments)
    return [out[i] for i in sorted(out)]


STREAMED = {  # Nemotron 3 streams once its reasoning has closed (see test_holdback_bounded)
    "qwen3": '<tool_call>\n{"name": "f", "arguments": {"city": "Paris", "days": 3}}\n</tool_call>',
    "qwen3_5": "<tool_call>\n<function=f>\n<parameter=city>\nParis\n</parameter>\n"
    "<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    "glm4moe": "<tool_call>f\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n"
    "<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>",
    "llama3": '{"name": "f", "parameters": {"city": "Paris", "days": 3}}<|eot_id|>',
    "gptoss": "<|start|>assistant to=functions.f<|channel|>commentary json<|message|>"
    '{"city": "Paris", "days": 3}<|call|>',
    "lfm2_2_5": "<|tool_call_start|>[f(city='Paris', days=3)]<|tool_call_end|>",
    "nemotron_3": "Plan.</think>\n<tool_call>\n<function=f>\n<parameter=city>\nParis\n"
    "</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>",
    "gemma4": '<|tool_call>call:f{city:<|"|>Paris<|"|>,days:3}<tool_call|>',
}


@pytest.mark.parametrize("template", sorted(STREAMED))
def test_arguments_stream_as_they_arrive(template: str) -> None:
    name = imported(template)
    text = STREAMED[template]
    tools = [{"type": "function", "function": {"name": "f", "parameters": {"properties": {
        "city": {"type": "string"}, "days": {"type": "integer"}}}}}]  # fmt: skip
    (fragments,) = _argument_deltas(name, text, tools)
    assert len(fragments) > 1, fragments
    assert json.loads("".join(fragments)) == {"city": "Paris", "days": 3}
    assert tooletta.parse(text, name, tools=tools).calls == [
        ToolCall("f", {"city": "Paris", "days": 3})
    ]


def test_json_arguments_stream_before_the_block_closes() -> None:
    name = imported("qwen3")
    parser = tooletta.stream(name)
    parser.feed('<tool_call>\n{"name": "f", "arguments": {"q": "hel')
    update = parser.feed('lo world", ')
    assert update.calls and update.calls[0].arguments, update


def test_a_malformed_block_streams_like_it_parses() -> None:
    text = (
        'Checking.\n<tool_call>\n{"name": "a", "arguments": {}}\n</tool_call>\n'
        '<tool_call>\n{"name": "b", "arguments": {"x": </tool_call>\n'
        '<tool_call>\n{"name": "c", "arguments": {}}\n</tool_call>'
    )
    name = imported("qwen3")
    result = tooletta.parse(text, name)
    assert [c.name for c in result.calls] == ["a", "c"]
    assert len(result.unparsed) == 1 and result.unparsed[0].raw.startswith("<tool_call>")
    cuts: Sequence[int] | None
    for cuts in (None, [], range(0, len(text), 3)):
        check_stream_equals_parse(name, text, cuts)


# -- what the importer reads ----------------------------------------------------------------


def test_detection_uses_the_tool_call_markers() -> None:
    dialect = tooletta.get_dialect(imported("qwen3_5"))
    assert dialect.info.markers == ("<tool_call>",)
    assert dialect.detect("<tool_call>\n<function=f>\n</function>\n</tool_call>")
    assert not dialect.detect('<tool_call>\n{"name": "f"}\n</tool_call>')
    lfm = tooletta.get_dialect(imported("lfm2_2_5"))
    assert lfm.info.markers == ("<|tool_call_start|>[",)  # the "," separator is no marker


def test_prefix_is_cut_at_the_start_anchor() -> None:
    """Nemotron 3's prompt already opened <think>: with the prompt as prefix, as with
    transformers' ``prefix=``, the reply's reasoning is read as such."""
    name = imported("nemotron_3")
    text = "Need the weather.</think>\nLet me check."
    prompt = "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n"
    result = tooletta.parse(text, name, prefix=prompt)
    assert (result.reasoning, result.content) == ("Need the weather.", "Let me check.")
    plain = tooletta.parse("Hello!", name, prefix=prompt)
    assert (plain.reasoning, plain.content) == ("", "Hello!")


def test_qwen3_prompt_opened_think() -> None:
    name = imported("qwen3")
    result = tooletta.parse("Hmm.</think>\n\nHi", name, prefix="<|im_start|>assistant\n<think>\n")
    assert (result.reasoning, result.content) == ("Hmm.", "Hi")


def test_leftover_text_of_a_template_without_leftover_field_is_kept() -> None:
    """transformers drops text outside gpt-oss's channels; tooletta keeps it as content and
    removes the start anchor (the head of the next message)."""
    name = imported("gptoss")
    text = "Hello<|channel|>final<|message|>world<|return|><|start|>assistant"
    result = tooletta.parse(text, name)
    assert result.content == "Helloworld"


def test_response_template_round_trips() -> None:
    dialect = hf.dialect_from_response_template(TRL_TEMPLATES["qwen3"], name="x")
    assert dialect.response_template == TRL_TEMPLATES["qwen3"]


@pytest.mark.parametrize("template", sorted(TRL_FORMATS))
def test_render_reads_back(template: str) -> None:
    name = imported(template)
    calls = [ToolCall("get_weather", {"city": "Paris", "days": 3}), ToolCall("now", {})]
    text = tooletta.render(calls, name, content="Let me check.")
    result = tooletta.parse(text, name, tools=[{"name": "get_weather", "parameters": {
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}}}}])  # fmt: skip
    assert result.calls == calls
    assert result.content.strip() == "Let me check."


def test_render_refuses_what_the_template_cannot_write() -> None:
    dialect = tooletta.get_dialect(imported("qwen3_5"))
    with pytest.raises(tooletta.RenderError):  # "\s*" around a value eats its edge spaces
        dialect.render([ToolCall("f", {"x": " padded "})])
    deepseek = tooletta.get_dialect(imported("deepseek_r1_distill"))
    with pytest.raises(tooletta.RenderError):  # no tool_calls field at all
        deepseek.render([ToolCall("f", {})])


def test_transformers_fallback_templates_import() -> None:
    """The templates transformers serve falls back to (Qwen, Qwen 3.5, Gemma 4)."""
    serving = pytest.importorskip("transformers.cli.serving.utils")
    fallbacks = serving._RESPONSE_TEMPLATE_FALLBACKS
    formats = {"qwen2": "hermes", "qwen3_5": "qwen3_coder", "gemma4": "gemma4"}
    for types, template in fallbacks.items():
        fmt = next(f for t, f in formats.items() if t in types)
        dialect = hf.dialect_from_response_template(template, name=f"tf_{types[0]}")
        good = 0
        for case in fixture_cases(fmt):
            result = dialect.parse(case["text"], tools=case_tools(case))
            good += [(c.name, c.arguments) for c in result.calls] == [
                (c["name"], c.get("arguments", {})) for c in case["calls"]
            ]
        assert good >= len(fixture_cases(fmt)) // 2, (types, good)


# -- templates refused --------------------------------------------------------------------

_BASE: dict[str, Any] = {
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {"content": {"content": "text"}},
}


def _with(**fields: Any) -> dict[str, Any]:
    spec = copy.deepcopy(_BASE)
    spec["fields"].update(fields)
    return spec


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({**_BASE, "surprise": 1}, "unknown keys"),
        ({"fields": _BASE["fields"]}, "start_anchor"),
        ({**_BASE, "version": 2}, "version"),
        ({**_BASE, "fields": {}}, "non-empty"),
        (_with(other={"content": "text"}), "at most one field"),
        (_with(tool_calls={"open": "<a>", "content": "yaml"}), "content parser"),
        (_with(tool_calls={"open_pattern": "(?<=x)<a>"}), "unsupported group"),
        (_with(tool_calls={"open_pattern": "<a(?P<name>x)>"}), "need a 'transform'"),
        (_with(tool_calls={"open_pattern": r"(?P<name>\w+)\("}), "literal text"),
        (_with(tool_calls={"open": "<a>", "open_pattern": "<a>"}), "both"),
        (_with(tool_calls={"open": "<a>", "content": "xml-inline"}), "tag_pattern"),
        (_with(t={"open": "<a>", "transform": "{content} and {x}"}), "mixes"),
        ("not a dict", "must be a dict"),
        (
            {
                **_BASE,
                "fields": {
                    "tool_calls": {
                        "content": "json",
                        "transform_each": True,
                        "transform": {"function": "{name}"},
                    }
                },
            },
            "without an opener",
        ),
    ],
)
def test_invalid_templates_raise_template_error(spec: Any, message: str) -> None:
    with pytest.raises(hf.TemplateError, match=message):
        hf.dialect_from_response_template(spec, name="bad")


def test_template_error_is_a_tooletta_error() -> None:
    assert issubclass(hf.TemplateError, tooletta.ToolettaError)


# -- parse_response -------------------------------------------------------------------------


def test_parse_response_message_shape() -> None:
    text = (
        "<think>\nShort.\n</think>\n\nLet me check.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call><|im_end|>'
    )
    assert hf.parse_response(text) == {
        "role": "assistant",
        "content": "Let me check.",
        "reasoning_content": "Short.",
        "tool_calls": [
            {
                "type": "function",
                "function": {"name": "get_weather", "arguments": {"city": "Paris"}},
            }
        ],
    }
    assert hf.parse_response("Hello.") == {"role": "assistant", "content": "Hello."}


def test_parse_response_equals_transformers_on_a_well_formed_reply() -> None:
    chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
    text = (
        "<think>\nShort.\n</think>\n\nLet me check.\n<tool_call>\n"
        '{"name": "get_weather", "arguments": {"city": "Paris", "days": 3}}\n</tool_call><|im_end|>'
    )
    theirs = chat_parsing.parse_response(text, TRL_TEMPLATES["qwen3"], prefix="")
    assert hf.parse_response(text, dialect=imported("qwen3")) == theirs
    assert hf.parse_response(text, dialect="hermes") == theirs


def test_parse_response_model_picks_the_dialect() -> None:
    text = '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}'
    message = hf.parse_response(text, model="mistralai/Mistral-Small-3.2-24B-Instruct-2506")
    assert message["tool_calls"][0]["function"] == {
        "name": "get_weather",
        "arguments": {"city": "Paris"},
    }


def test_parse_response_keeps_ids_and_bad_blocks() -> None:
    text = (
        "<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>"
        "{}<|tool_call_end|><|tool_call_begin|>functions.g:1<|tool_call_argument_begin|>{bad"
        "<|tool_call_end|><|tool_calls_section_end|>"
    )
    message = hf.parse_response(text, dialect="kimi_k2")
    assert message["tool_calls"] == [
        {"id": "functions.f:0", "type": "function", "function": {"name": "f", "arguments": {}}}
    ]
    assert [u["raw"][:20] for u in message["unparsed"]] == ["<|tool_call_begin|>f"]
    with pytest.raises(tooletta.ParseError):
        hf.parse_response(text, dialect="kimi_k2", strict=True)


def test_parse_response_types_text_values_with_tools() -> None:
    text = "<tool_call>\n<function=f>\n<parameter=n>\n007\n</parameter>\n</function>\n</tool_call>"
    tools = [{"type": "function", "function": {"name": "f", "parameters": {
        "properties": {"n": {"type": "string"}}}}}]  # fmt: skip
    assert hf.parse_response(text, dialect="qwen3_coder", tools=tools)["tool_calls"][0]["function"][
        "arguments"
    ] == {"n": "007"}


def test_parse_response_refuses_non_text() -> None:
    with pytest.raises(tooletta.ParseError):
        hf.parse_response(b"bytes")  # type: ignore[arg-type]


# -- robustness and cost ------------------------------------------------------------------


def test_a_value_its_parser_refuses_is_an_unparsed_block() -> None:
    template = copy.deepcopy(TRL_TEMPLATES["qwen3_5"])
    args = template["fields"]["tool_calls"]["content_args"]
    args["value_parser"] = {"name": "int"}
    dialect = hf.dialect_from_response_template(template, name="ints")
    text = (
        "<tool_call>\n<function=f>\n<parameter=n>\n7\n</parameter>\n</function>\n</tool_call>"
        "<tool_call>\n<function=g>\n<parameter=n>\nseven\n</parameter>\n</function>\n</tool_call>"
    )
    result = dialect.parse(text)
    assert result.calls == [ToolCall("f", {"n": 7})]
    assert len(result.unparsed) == 1 and "seven" in result.unparsed[0].raw
    stream = dialect.stream()
    updates = [stream.feed(ch) for ch in text]
    updates.append(stream.finish())
    assert sum(len(u.unparsed) for u in updates) == 1


def test_streaming_a_long_value_costs_linear_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """A parameter value streamed one character at a time is not matched again and again:
    the pattern engine runs a bounded number of times per character."""
    from tooletta.interop.hf import _regex

    steps = 0
    real = _regex._Run.m

    def counted(self: Any, node: Any, i: int, k: Any) -> int:
        nonlocal steps
        steps += 1
        return real(self, node, i, k)

    monkeypatch.setattr(_regex._Run, "m", counted)

    def run(size: int) -> int:
        nonlocal steps
        steps = 0
        text = (
            f"<tool_call>\n<function=write>\n<parameter=body>\n{'x' * size}\n</parameter>\n"
            "</function>\n</tool_call>"
        )
        parser = tooletta.stream(imported("qwen3_5"))
        for ch in text:
            parser.feed(ch)
        parser.finish()
        return steps

    small, large = run(10_000), run(20_000)
    assert small < 8 * 10_000, small
    assert large < 2.2 * small, (small, large)
