"""tooletta's code generator (tooletta.chat.codegen) writes exactly the Python source jinja2's
own writes, so a template compiled by tooletta's environment renders as it did before: the
source compared on every vendored template and on templates with blocks, imports and
filters inside and outside blocks, and every vendored template rendered on every probe and
every sample conversation by both compiles."""

from __future__ import annotations

from typing import Any

import pytest

from support import ROOT
from tooletta.chat.codegen import lean_code_generator
from tooletta.chat.identify import PINNED_TIME
from tooletta.chat.jinja import _environment, to_template_messages
from tooletta.chat.probes import probe_suite
from tooletta.chat.samples import SAMPLE_TOOLS, list_content_conversations, sample_conversations

jinja2 = pytest.importorskip("jinja2")
from jinja2.compiler import CodeGenerator, generate  # noqa: E402

TEMPLATES = sorted(
    p for p in ROOT.glob("plugins/*/tests/templates/*.jinja") if "_template" not in p.parts
) + sorted(ROOT.glob("tests/fixtures/templates/*.jinja"))

SOURCES = [
    "{% extends 'base.jinja' %}{% block a %}{{ x | upper }}{% endblock %}",
    "{% block a %}{{ x | trim }}{% block b %}{{ y is string }}{% endblock %}{% endblock %}"
    "{{ z | lower }}{% if w is defined %}{{ w | tojson }}{% endif %}",
    "{% from 'm.jinja' import a, b as c %}{% import 'n.jinja' as n %}{{ a() ~ c() }}",
    "{% block one %}{{ self.two() }}{% endblock %}{% block two %}{{ super() }}{% endblock %}",
    "{% macro m(x, caller=None) %}{{ x | e }}{{ varargs }}{% endmacro %}"
    "{% call m(1) %}{{ 2 | string }}{% endcall %}{% filter upper %}a{% endfilter %}",
    "{% for m in messages if m.role is sameas 'user' %}{{ loop.index | string }}"
    "{% else %}{{ 'none' | capitalize }}{% endfor %}",
]


def _generated(text: str, generator: type[Any], *, optimized: bool = False) -> str:
    env = _environment()
    tree = env.parse(text)
    saved = env.code_generator_class
    env.code_generator_class = generator
    try:
        return str(generate(tree, env, None, None, optimized=optimized))
    finally:
        env.code_generator_class = saved


def test_the_environment_uses_it() -> None:
    assert _environment().code_generator_class is lean_code_generator()
    assert issubclass(lean_code_generator(), CodeGenerator)
    if jinja2.__version__.startswith("3.1."):  # the series it is written for
        assert lean_code_generator() is not CodeGenerator


@pytest.mark.parametrize("source", SOURCES)
def test_the_source_is_jinja2s_on_templates_with_blocks_and_imports(source: str) -> None:
    ours = _generated(source, lean_code_generator())
    assert ours == _generated(source, CodeGenerator)
    assert "environment." in ours  # the lookups are written


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_every_vendored_template_compiles_to_jinja2s_source(path: Any) -> None:
    text = path.read_text(encoding="utf-8")
    assert _generated(text, lean_code_generator()) == _generated(text, CodeGenerator)


@pytest.mark.parametrize("name", ["Kimi-K3.jinja", "google-gemma-4-31B-it.jinja"])
def test_with_jinja2s_optimizer_too(name: str) -> None:
    """jinja2's optimizer rewrites the tree while the source is generated (off in
    tooletta's environment): with it on, the source is jinja2's all the same."""
    text = next(p for p in TEMPLATES if p.name == name).read_text(encoding="utf-8")
    ours = _generated(text, lean_code_generator(), optimized=True)
    assert ours == _generated(text, CodeGenerator, optimized=True)


def _state(tree: Any) -> list[tuple[str, list[str]]]:
    """Every node of ``tree`` with the names in its instance dict, by jinja2's own walk."""
    return [(type(tree).__name__, sorted(vars(tree)))] + [
        (type(n).__name__, sorted(vars(n))) for n in tree.find_all(jinja2.nodes.Node)
    ]


def test_the_tree_is_left_as_jinja2_made_it() -> None:
    """The answers given to the nodes while the source is generated are taken back."""
    env = _environment()
    tree = env.parse(SOURCES[1] + SOURCES[4] + SOURCES[5])
    before = _state(tree)
    generate(tree, env, None, None, optimized=False)
    assert _state(tree) == before
    assert all("iter_child_nodes" not in names and "find" not in names for _, names in before)


def _stock(text: str) -> Any:
    """``text`` compiled by jinja2's own code generator, in tooletta's environment."""
    env = _environment()
    saved = env.code_generator_class
    env.code_generator_class = CodeGenerator
    try:
        return env.from_string(text)
    finally:
        env.code_generator_class = saved


def _outcome(template: Any, values: dict[str, Any]) -> str:
    try:
        return str(template.render(**values))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_every_vendored_template_renders_the_probes_and_samples_alike(path: Any) -> None:
    text = path.read_text(encoding="utf-8")
    ours, theirs = _environment().from_string(text), _stock(text)
    cases: list[tuple[str, list[Any], list[Any] | None, bool]] = [
        (p.name, list(p.messages), list(p.tools) or None, p.add_generation_prompt)
        for p in probe_suite({})
    ]
    cases += [
        (name, messages, SAMPLE_TOOLS if tools else None, prompt)
        for name, (messages, tools) in sample_conversations(ids=True).items()
        for prompt in (False, True)
    ]
    cases += [(n, m, None, False) for n, m in list_content_conversations(ids=True).items()]
    for name, messages, tools, prompt in cases:
        for strings in (False, True):
            values = {
                "messages": to_template_messages(messages, string_arguments=strings),
                "tools": tools,
                "add_generation_prompt": prompt,
                "bos_token": "<s>",
                "eos_token": "</s>",
                "strftime_now": PINNED_TIME.strftime,
            }
            assert _outcome(ours, values) == _outcome(theirs, values), (name, strings)
