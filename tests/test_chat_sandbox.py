"""The sandbox chat templates render in (tooletta.chat.sandbox) gives exactly what jinja2's
immutable sandbox gives: every vendored template on every probe, and the lookups it makes
cheap on arbitrary data (dict keys that are or are not dict attributes, missing keys,
mutating methods, loop and namespace attributes)."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from support import ROOT
from tooletta.chat.identify import PINNED_TIME
from tooletta.chat.jinja import _environment, to_template_messages
from tooletta.chat.jinjaenv import make_environment
from tooletta.chat.probes import probe_suite
from tooletta.chat.sandbox import immutable_sandbox

jinja2 = pytest.importorskip("jinja2")
from jinja2.sandbox import ImmutableSandboxedEnvironment  # noqa: E402

TEMPLATES = sorted(
    p for p in ROOT.glob("plugins/*/tests/templates/*.jinja") if "_template" not in p.parts
)
THEIRS = make_environment(ImmutableSandboxedEnvironment)
OURS = make_environment(immutable_sandbox())


def _outcome(template: Any, values: dict[str, Any]) -> str:
    """The render, or the error's type and message."""
    try:
        return str(template.render(**values))
    except Exception as exc:
        return f"{type(exc).__name__}: {exc}"


def _both(source: str, **values: Any) -> tuple[str, str]:
    return (
        _outcome(THEIRS.from_string(source), values),
        _outcome(OURS.from_string(source), values),
    )


def test_the_environment_uses_it() -> None:
    assert type(_environment()).__name__ == "ImmutableSandbox"
    assert isinstance(_environment(), ImmutableSandboxedEnvironment)


@pytest.mark.parametrize("path", TEMPLATES, ids=lambda p: p.name)
def test_every_vendored_template_renders_the_probes_alike(path: Any) -> None:
    text = path.read_text(encoding="utf-8")
    theirs, ours = THEIRS.from_string(text), OURS.from_string(text)
    for probe in probe_suite({}):
        for parts in (False, True):  # text content, and content as parts (errors for most)
            values = {
                "messages": to_template_messages(probe.messages, content_parts=parts),
                "tools": list(probe.tools) or None,
                "add_generation_prompt": probe.add_generation_prompt,
                "bos_token": "<s>",
                "eos_token": "</s>",
                "strftime_now": PINNED_TIME.strftime,
            }
            assert _outcome(ours, values) == _outcome(theirs, values), (probe.name, parts)


@pytest.mark.parametrize(
    "source",
    [
        "{{ m.role }}|{{ m.items }}|{{ m['items'] }}|{{ m.get('role') }}",
        "{{ m.missing is defined }}|{{ m['missing'] is defined }}|{{ m.missing }}",
        "{{ m.keys() | list }}|{{ m.copy }}|{{ m['copy'] }}|{{ m.__class__ }}",
        "{{ m._private }}|{{ m['_private'] }}|{{ m.__len__ }}",
        "{{ m.clear() }}",
        "{{ m.update({'a': 1}) }}",
        "{{ m.list.append(1) }}",
        "{{ m['list'].pop() }}",
        "{{ 'a{0}'.format(m.role) }}|{{ m.role.format }}|{{ m.role.upper() }}",
        "{{ '{0.__class__}'.format(m) }}",
        "{% for x in m.list %}{{ loop.index0 }}{{ loop.last }}{{ loop.__class__ }}{% endfor %}",
        "{% set ns = namespace(a=1) %}{% set ns.a = ns.a + 1 %}{{ ns.a }}|{{ ns.b }}|{{ ns._x }}",
        "{{ (1).real }}|{{ (1.5).is_integer() }}|{{ none.__class__ }}|{{ m.t.index(2) }}",
        "{{ m.list.sort() }}",
        "{{ m[1] }}|{{ m[none] }}|{{ m[[1]] is defined }}",
        # calls: macros (in loops, blocks, with a caller, varargs and kwargs), methods
        "{% macro f(x) %}<{{ x }}>{% endmacro %}{% for y in m.list %}{{ f(y) }}{% endfor %}",
        "{% macro f(x, y=2) %}{{ x }}{{ y }}{{ varargs }}{{ kwargs }}{% endmacro %}"
        "{{ f(1) }}|{{ f(1, 3, 4) }}|{{ f(1, z=5) }}|{{ f() }}",
        "{% macro f() %}[{{ caller() }}]{% endmacro %}{% call f() %}in{% endcall %}",
        "{% macro f(n) %}{% if n %}{{ n }}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(3) }}",
        "{% block b %}{% macro f() %}b{% endmacro %}{% for x in m.t %}{{ f() }}{% endfor %}"
        "{% endblock %}",
        "{% for k, v in m.items() %}{{ k }}{{ v }}{% endfor %}|{{ m.role.split('s') }}",
        "{{ m.get('x', 'd') }}|{{ m.role.startswith('u') }}|{{ m.keys() | length }}",
        "{% set g = [] | map('string') %}{{ g.send(none) is defined }}|{{ g.send(none) }}",
        "{% set g = m.list | map('string') %}{{ g.send(none) }}{{ g.send(none) }}",
        "{{ m.list.append }}|{{ m.list.append(3) }}",
        "{{ raise_exception('no') }}",
        # macros called at once (positional, defaults) or not (too many, keywords, caller)
        "{% macro f(a, b=2, c='c') %}{{ a }}{{ b }}{{ c }}{% endmacro %}"
        "{{ f(1) }}|{{ f(1, 5) }}|{{ f(1, 5, 6) }}|{{ f() }}|{{ f(b=7) }}|{{ f(1, c=3) }}",
        "{% macro f(a) %}{{ a }}{% endmacro %}{{ f(1, 2) }}",
        "{% macro f(a) %}{{ a }}{% endmacro %}{{ f(1, z=2) }}",
        "{% macro f(a, caller=none) %}{{ a }}{{ caller }}{% endmacro %}{{ f(1) }}|{{ f(1, 2) }}",
        "{% macro f(a) %}{{ caller is defined }}{% endmacro %}{{ f(1) }}",
        "{% macro f(a) %}{{ a }}{% endmacro %}{% set g = f %}{{ g(m.role) }}{{ f(*m.list) }}",
        # a dict's methods (safe ones found once, then at once; unsafe ones every time)
        "{{ m.get('role') }}{{ m.get('role') }}{{ m.items() | list | length }}{{ m.items }}",
        "{{ m.pop }}|{{ m.pop }}|{{ m.setdefault }}|{{ m.get }}|{{ m.__class__ }}",
        # namespaces: made at once (in loops too), their values given at once when safe
        "{% for x in m.list %}{% set ns = namespace(a=x, b=m) %}{{ ns.a }}{{ ns.b.role }}"
        "{{ ns.c }}{{ ns.c is defined }}{% endfor %}{{ namespace(m).role }}{{ namespace() }}",
        "{% set ns = namespace(f='{0.__class__}'.format, g=m.items, h=m.role.upper) %}"
        "{{ ns.f(m) }}|{{ ns.g() | list | length }}|{{ ns.h() }}|{{ ns.g }}",
        "{% set ns = namespace(a=1) %}{{ ns.__class__ }}|{{ ns._Namespace__attrs }}"
        "|{{ ns.__init__ }}|{{ ns.a }}{{ ns.a }}|{{ ns.b }}{{ ns.b }}",
        "{% set ns = namespace(l=[1]) %}{{ ns.l.append(2) }}{{ ns.l }}",
        # a str.format method given as data (a key, a namespace value): sandboxed as jinja2's
        "{{ m.fmt(m) }}|{{ m['fmt'](m) }}|{{ m.fm(m) }}|{{ m.fmt }}",
        "{% set ns = namespace(f=m.fmt, g=m.fm) %}{{ ns.f(m) }}|{{ ns.f }}|{{ ns.g({}) }}",
        # the loop's counters, in nested and recursive loops
        "{% for x in m.list %}{% for y in m.t %}{{ loop.first }}{{ loop.last }}"
        "{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.length }}{{ loop.depth }}"
        "{{ loop.depth0 }}{{ loop.index }}{% endfor %}{{ loop.first }}{% endfor %}",
        "{% for x in m.tree recursive %}{{ loop.depth }}{{ loop.first }}"
        "{% if x.c %}({{ loop(x.c) }}){% endif %}{% endfor %}",
        "{% for x in m.list %}{{ loop.nextitem }}{{ loop.previtem }}{{ loop.cycle('a', 'b') }}"
        "{% endfor %}",
        "{{ range(3) | list }}|{{ namespace(a=1).a }}|{{ dict(a=1) }}|{{ lipsum(1)[:0] }}",
    ],
)
def test_lookups_alike(source: str) -> None:
    data = {"role": "user", "copy": "c", "_private": 1, "list": [1, 2], "t": (1, 2), 1: "one"}
    data["tree"] = [{"c": [{"c": []}, {"c": [{}]}]}, {"c": []}]
    data["fmt"], data["fm"] = "{0.__class__}{0.role.__class__}".format, "{a}".format_map
    theirs, ours = _both(source, m=data)
    assert ours == theirs


_NAMES = st.sampled_from(["role", "items", "get", "keys", "pop", "clear", "__class__", "_x", "x"])
_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.text(max_size=5), st.lists(st.integers())
)


@settings(max_examples=60, deadline=None)
@given(data=st.dictionaries(_NAMES, _VALUES), name=_NAMES)
def test_any_dict_key_or_attribute_alike(data: dict[str, Any], name: str) -> None:
    source = "{{ m.N is defined }}|{{ m['N'] is defined }}|{{ m.N }}|{{ m['N'] }}"
    source = source.replace("N", name)
    theirs, ours = _both(source, m=data)
    assert ours == theirs


@pytest.mark.parametrize("source", ["{% if %}", "{{ x", "{% for %}{% endif %}", "{% endfor %}"])
def test_syntax_errors_alike(source: str) -> None:
    """A template that does not compile gets jinja2's message (its line and text)."""
    errors = []
    for env in (THEIRS, OURS):
        with pytest.raises(jinja2.TemplateSyntaxError) as caught:
            env.from_string(source)
        errors.append(str(caught.value))
    assert errors[0] == errors[1]


def test_render_errors_keep_type_and_message() -> None:
    """An error raised while rendering is re-raised as it is (its traceback not rewritten)."""
    source = "{% for m in messages %}{{ m.content + 1 }}{% endfor %}"
    for env in (THEIRS, OURS):
        with pytest.raises(TypeError, match="can only concatenate str") as caught:
            env.from_string(source).render(messages=[{"content": "a"}])
        assert caught.value.__traceback__ is not None


_JSON = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8)),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=80, deadline=None)
@given(value=_JSON, ascii_=st.booleans(), indent=st.sampled_from([None, 2]))
def test_tojson_is_json_dumps(value: Any, ascii_: bool, indent: int | None) -> None:
    """``tojson`` (one reused encoder when called without arguments) writes what
    ``json.dumps`` does, with and without its arguments."""
    env = _environment()
    plain = env.from_string("{{ v | tojson }}").render(v=value)
    assert plain == json.dumps(value, ensure_ascii=False)
    source = "{{ v | tojson(ensure_ascii=a, indent=i) }}"
    given_ = env.from_string(source).render(v=value, a=ascii_, i=indent)
    assert given_ == json.dumps(value, ensure_ascii=ascii_, indent=indent)


@pytest.mark.parametrize(
    "value", [{}, {"a": 1}, [], (), "s", 1, None, MappingProxyType({}), OrderedDict(), {1}]
)
def test_the_mapping_test_is_jinja2s(value: Any) -> None:
    source = "{{ v is mapping }}"
    assert _both(source, v=value)[1] == str(isinstance(value, Mapping))
    assert _environment().from_string(source).render(v=value) == str(isinstance(value, Mapping))
