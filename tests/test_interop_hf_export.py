"""``hf.to_response_template``: every dialect the spec can express gets a template that
transformers' own ``parse_response`` reads right, checked on the dialect's golden fixtures.

A fixture case is checked when it has calls and no malformed block, unless it is listed in
:data:`OUT_OF_REACH` with the reason the spec cannot follow it (tooletta's lenient readers
accept more than any one regular-expression template: second spellings, repairs of broken
output, Python literals, text between calls that transformers overwrites).
"""

from __future__ import annotations

from typing import Any

import pytest

import tooletta
from hf_support import case_tools, expected_calls, fixture_cases
from tooletta import ToolCall, plugins
from tooletta.interop import hf
from tooletta.testing import tools_for

chat_parsing = pytest.importorskip("transformers.utils.chat_parsing")
templates_module = pytest.importorskip("transformers.utils.chat_parsing.response_templates")

LAST_CONTENT = "transformers keeps only the last stretch of content (text after the calls wins)"
CLOSE_FIRST = "a region ends at the first close marker, even inside a string argument"
SECOND_FORM = "a second spelling of the format, which one tool_calls field cannot also have"
CODE = "the call's arguments are code or bare text, not JSON"
REPAIR = "tooletta repairs this malformed output; a template reads what is written"
LITERALS = "a value written as a Python literal, or typed by the format's own type attribute"
EMPTY_TYPED = "an empty object or array (empty element, or {} / [] text) typed by the tool's schema"

OUT_OF_REACH: dict[str, dict[str, str]] = {
    "cohere": {
        "command-r-action-fence": SECOND_FORM,
        "command-r-two-actions-fence-closed-inline": SECOND_FORM,
        "numeric-tool-call-id": REPAIR,
    },
    "deepseek_v3": {
        "section-inside-reasoning": REPAIR,
        "text-after-section": LAST_CONTENT,
        "v31-shaped-call-tolerated": SECOND_FORM,
    },
    "deepseek_v31": {
        "section-inside-reasoning": REPAIR,
        "v3-shaped-call-tolerated": SECOND_FORM,
    },
    "deepseek_v32": {
        "direct-json-body": SECOND_FORM,
        "schema-types-string-true-values": LITERALS,
        "eos-inside-value-erased": REPAIR,
    },
    "deepseek_v4": {"self-closing-zero-arg": SECOND_FORM, "section-inside-reasoning": REPAIR},
    "dots": {
        "one-call-json": SECOND_FORM,
        "escapes-unicode-json": SECOND_FORM,
        "json-array-body": SECOND_FORM,
    },
    "functionary_v31": {"python-tag": CODE, "text-call-then-python": CODE},
    "functionary_v32": {"python-raw-code": CODE, "python-raw-code-then-text": CODE},
    "functiongemma": {"quoted-json-string-stays-string": REPAIR},
    "gemma4": {
        "turn-end-as-closer": REPAIR,
        "quoted-keys-null-spaces": REPAIR,
        "markers-inside-strings": CLOSE_FIRST,
    },
    "gigachat35": {"no-string-attribute-typed-by-schema": LITERALS},
    "glm45": {"text-after-call": LAST_CONTENT, "typed-union-null-no-schema-key": LITERALS},
    "granite": {"per_call_objects_template_form": SECOND_FORM},
    "harmony": {"builtin-browser-and-python": CODE},
    "hermes": {
        "parameters-key-and-compact": SECOND_FORM,
        "arguments-as-json-string": SECOND_FORM,
        "text-between-and-after": LAST_CONTENT,
        "close-tag-in-string": CLOSE_FIRST,
    },
    "hunyuan_v3": {"json-body-variant": SECOND_FORM},
    "inkling": {"args-before-name-and-arguments-key": SECOND_FORM},
    "internlm": {"template_render": SECOND_FORM, "text-after-block-and-im-end": SECOND_FORM},
    "jamba": {"hunyuan_think_answer": REPAIR},
    "k2_horizon": {
        "json-form": SECOND_FORM,
        "escapes-unicode": SECOND_FORM,
        "json-array-body": SECOND_FORM,
        "xml-typed-union-uses-inline-type": LITERALS,
        "think-faster-and-text-after": LAST_CONTENT,
    },
    "kimi": {"text-between-blocks": LAST_CONTENT},
    "kimi_k2": {
        "reasoning-then-section-without-think-close": REPAIR,
        "text-after-section": LAST_CONTENT,
        "markers-inside-json-strings": CLOSE_FIRST,
    },
    "kimi_k3": {
        "escapes-unicode-attr-escaping": REPAIR,
        "json-block-variant": SECOND_FORM,
        "markup-inside-string-value": CLOSE_FIRST,
        "schema-refines-declared-types": LITERALS,
        "json-form-with-escaped-closer": SECOND_FORM,
    },
    "lfm2": {"json-list-payload": SECOND_FORM, "two-blocks": REPAIR},
    "llama3_json": {
        "type_function_key": SECOND_FORM,
        "leading_whitespace_and_arguments_string": SECOND_FORM,
    },
    "longcat": {
        "kv-variant-untyped": SECOND_FORM,
        "kv-variant-typed-by-schema": SECOND_FORM,
        "kv-variant-compact-two-calls": SECOND_FORM,
    },
    "minicpm5": {
        "cdata-value": REPAIR,
        "escapes-unicode": REPAIR,
        "cdata-keeps-whitespace": REPAIR,
        "reasoning-text-after": LAST_CONTENT,
    },
    "minimax_m3": {
        "nested-object-array-typed": SECOND_FORM,
        "array-of-objects-and-empty": SECOND_FORM,
        "no-schema-items-and-repeats": SECOND_FORM,
        "template-form-content-then-calls": EMPTY_TYPED,
        "pinned-form-newline-and-json-empties": EMPTY_TYPED,
    },
    "mistral": {
        "v11_args_token_stripped": REPAIR,
        "pre_v11_array_with_ids": SECOND_FORM,
        "pre_v11_no_space_no_id": SECOND_FORM,
        "pre_v11_nested_unicode": SECOND_FORM,
        "pre_v11_text_before": SECOND_FORM,
        "v11_text_after_arguments": REPAIR,
    },
    "muse": {"doubled_namespace_resolved": REPAIR, "bare_block_unframed": SECOND_FORM},
    "nemotron": {"single_object_no_brackets": SECOND_FORM, "objects_without_brackets": REPAIR},
    "phi4_mini": {"parameters_key": SECOND_FORM},
    "pythonic": {
        "single-quoted-strings-negative-float": REPAIR,
        "text-after-list": REPAIR,
        "triple-quoted-string-and-brackets-in-strings": SECOND_FORM,
    },
    "qwen3_coder": {
        "missing-close-parameter": REPAIR,
        "missing-tool-call-wrapper": REPAIR,
        "python-repr-object-old-template": LITERALS,
        "two-functions-one-wrapper": REPAIR,
        "stray-close-after-bare-function": REPAIR,
    },
    "react": {
        "fenced-json-blob": SECOND_FORM,
        "fenced-json-blob-json-label": SECOND_FORM,
        "string-input-quotes-stripped": CODE,
        "multiline-string-input-then-observation": CODE,
        "numbered-action": SECOND_FORM,
        "completion-after-thought-prompt": LAST_CONTENT,
    },
    "seed_oss": {
        "typed-values-python-str": LITERALS,
        "missing-close-parameter": REPAIR,
        "text-after-calls-and-unclosed-reasoning-free": LAST_CONTENT,
    },
    "solar_open2": {"dropped_arg_end_tolerated": REPAIR},
    "step3": {"non-function-entry-skipped": REPAIR},
    "vcp": {
        "text-around-block-vsearch": LAST_CONTENT,
        "no-commas-maid-first": SECOND_FORM,
        "escape-markers": SECOND_FORM,
        "vsearch-string-schema-keeps-strings": LAST_CONTENT,
        "control-keys-not-arguments": REPAIR,
        "text-between-blocks-and-after": LAST_CONTENT,
    },
}


def _checked(dialect: str) -> list[dict[str, Any]]:
    skip = OUT_OF_REACH.get(dialect, {})
    return [
        c
        for c in fixture_cases(dialect)
        if c["calls"] and not c.get("unparsed") and c["name"] not in skip
    ]


def _ids(template: dict[str, Any]) -> bool:
    transform = template["fields"].get("tool_calls", {}).get("transform")
    return isinstance(transform, dict) and "id" in transform


def test_every_dialect_has_a_template_or_a_reason() -> None:
    installed = {e.info.name for e in plugins.get_registry().ordered() if e.version is not None}
    exported = set(hf.exportable_dialects())
    assert installed - exported == set(hf.TEMPLATE_GAPS)
    assert not exported & set(hf.TEMPLATE_GAPS)
    assert exported <= installed


@pytest.mark.parametrize("dialect", sorted(hf.TEMPLATE_GAPS))
def test_inexpressible_dialects_say_why(dialect: str) -> None:
    with pytest.raises(tooletta.ToolettaError, match=hf.TEMPLATE_GAPS[dialect][:20]):
        hf.to_response_template(dialect)


def test_aliases_resolve_and_copies_are_fresh() -> None:
    a = hf.to_response_template("qwen")  # an alias of hermes
    a["fields"].clear()
    assert hf.to_response_template("hermes")["fields"]


def _has_fixtures(dialect: str) -> bool:
    from support import ROOT

    return any((ROOT / "plugins").glob(f"*/tests/fixtures/{dialect}.json"))


SAMPLES = [
    ("Let me check.", [ToolCall("get_weather", {"city": "Paris", "days": 3})]),
    ("", [ToolCall("get_weather", {"city": "Zürich"}), ToolCall("now", {})]),
    ("Sure.", [ToolCall("search", {"q": "tool calls", "limit": 5, "exact": True})]),
]


RENDERED_OUT_OF_REACH = {
    "internlm": "tooletta writes the vLLM example template's 'arguments'; the model writes "
    "'parameters', which the template reads",
}


@pytest.mark.parametrize("dialect", hf.exportable_dialects())
def test_tooletta_rendered_text_parses_with_transformers(dialect: str) -> None:
    """What tooletta writes in a dialect, transformers reads back with its exported
    template (the variants, which have no fixtures of their own, are checked this way)."""
    if dialect in RENDERED_OUT_OF_REACH:
        pytest.skip(RENDERED_OUT_OF_REACH[dialect])
    template = hf.to_response_template(dialect)
    checked = 0
    for content, calls in SAMPLES:
        try:
            text = tooletta.render(calls, dialect, content=content)
        except tooletta.RenderError:
            continue  # a format without content, or without several calls
        back = tooletta.parse(text, dialect, tools=tools_for(calls))
        same = [(c.name, c.arguments) for c in back.calls] == [(c.name, c.arguments) for c in calls]
        if not same or back.content.strip() != content:
            continue  # the format itself cannot carry these (content, several calls)
        message = chat_parsing.parse_response(text, template, prefix="", tools=tools_for(calls))
        got = [(c["function"]["name"], c["function"]["arguments"]) for c in message["tool_calls"]]
        assert got == [(c.name, c.arguments) for c in calls], (dialect, text, got)
        assert (message.get("content") or "").strip() == back.content.strip(), (dialect, text)
        checked += 1
    assert checked, dialect


@pytest.mark.parametrize("dialect", hf.exportable_dialects())
def test_exported_template_parses_with_transformers(dialect: str) -> None:
    template = hf.to_response_template(dialect)
    templates_module.load_response_template(template)  # transformers' own validation
    ids = _ids(template)
    if not _has_fixtures(dialect):
        return  # a variant: checked on tooletta's rendering above
    cases = _checked(dialect)
    assert cases, dialect
    for case in cases:
        message = chat_parsing.parse_response(
            case["text"], template, prefix="", tools=case_tools(case)
        )
        got = [
            (c["function"]["name"], c["function"]["arguments"], c.get("id") if ids else None)
            for c in message.get("tool_calls", [])
        ]
        want = [(c.name, c.arguments, c.id if ids else None) for c in expected_calls(case)]
        assert got == want, (case["name"], got)
        assert (message.get("content") or "").strip() == case["content"].strip(), case["name"]
        if case.get("reasoning"):
            assert message.get("reasoning_content", "").strip() == case["reasoning"].strip()


def test_out_of_reach_lists_only_real_cases() -> None:
    for dialect, skipped in OUT_OF_REACH.items():
        names = {c["name"] for c in fixture_cases(dialect)}
        assert set(skipped) <= names, (dialect, set(skipped) - names)


def test_exported_templates_cover_most_well_formed_cases() -> None:
    total = checked = 0
    for dialect in filter(_has_fixtures, hf.exportable_dialects()):
        cases = [c for c in fixture_cases(dialect) if c["calls"] and not c.get("unparsed")]
        total += len(cases)
        checked += len(_checked(dialect))
    assert checked / total > 0.75, (checked, total)


@pytest.mark.parametrize("dialect", hf.exportable_dialects())
def test_exported_template_imports_back(dialect: str) -> None:
    """Most exports are also read by tooletta's importer (functionary_v32's opener starts
    at the start of the reply with no literal text, which the scanner cannot look for)."""
    template = hf.to_response_template(dialect)
    if not _has_fixtures(dialect):
        return
    if dialect == "functionary_v32":
        with pytest.raises(hf.TemplateError, match="literal text"):
            hf.dialect_from_response_template(template, name="back")
        return
    back = hf.dialect_from_response_template(template, name=f"back_{dialect}")
    ok = 0
    cases = _checked(dialect)
    for case in cases:
        result = back.parse(case["text"], tools=case_tools(case))
        ok += [(c.name, c.arguments) for c in result.calls] == [
            (c.name, c.arguments) for c in expected_calls(case)
        ]
    assert ok >= len(cases) * 0.8, (dialect, ok, len(cases))


def test_docs_page_lists_every_gap() -> None:
    from support import ROOT

    page = (ROOT / "docs" / "concepts" / "interop-hf.md").read_text(encoding="utf-8")
    rows = {line.split("`")[1] for line in page.splitlines() if line.startswith("| `")}
    assert rows == set(hf.TEMPLATE_GAPS)
