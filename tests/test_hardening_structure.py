"""Hardening issue 14, items 11 (a declared Python version is a tested one) and 12 (structure:
no import cycle in the lowest floor, a conformance kit a plugin author can read, repeated logic
across plugins kept once in core)."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import tooletta
from tooletta import ToolCall

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "tooletta-core" / "src" / "tooletta"

# -- item 11: Python 3.10 ---------------------------------------------------------------------

_NOT_310 = re.compile(r"[*+?}]\+|\(\?>")
"""A possessive quantifier (``*+ ++ ?+ {m,n}+``) or an atomic group: regex syntax of Python
3.11+, which 3.10's ``re`` rejects when the pattern is compiled."""


def _python_files() -> list[Path]:
    found: list[Path] = []
    for top in ("tooletta-core/src", "plugins", "tests", "fuzz", "bench", "examples"):
        found += (ROOT / top).rglob("*.py")
    return [p for p in found if ".venv" not in p.parts and p != Path(__file__).resolve()]


def _regex_syntax(text: str) -> str:
    """``text`` with escapes and character classes blanked, so only regex syntax is left."""
    text = re.sub(r"\\.", "e", text, flags=re.S)
    return re.sub(r"\[\^?\]?[^\]]*\]", "c", text)


_RE_FUNCTIONS = {"compile", "match", "search", "fullmatch", "findall", "finditer", "sub", "subn"}


def _regex_literals(tree: ast.Module) -> list[tuple[int, str]]:
    """The patterns a module gives Python's ``re``: string literals (and module-level names
    bound to one) passed first to ``re.compile``, ``re.match``... (the constant parts of an
    f-string too)."""
    names: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
            for target in stmt.targets:
                if isinstance(target, ast.Name) and isinstance(stmt.value.value, str):
                    names[target.id] = stmt.value.value
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
            and node.func.attr in _RE_FUNCTIONS
            and node.args
        ):
            continue
        arg = node.args[0]
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
            found.append((node.lineno, arg.value))
        elif isinstance(arg, ast.Name) and arg.id in names:
            found.append((node.lineno, names[arg.id]))
        elif isinstance(arg, ast.JoinedStr):
            for part in arg.values:
                if isinstance(part, ast.Constant) and isinstance(part.value, str):
                    found.append((node.lineno, part.value))
    return found


def test_item11_no_possessive_quantifiers_or_atomic_groups() -> None:
    """No pattern given to ``re`` in the sources or tests uses 3.11-only syntax."""
    offenders = []
    for path in _python_files():
        for line, pattern in _regex_literals(ast.parse(path.read_text(encoding="utf-8"))):
            if _NOT_310.search(_regex_syntax(pattern)):
                offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert not offenders, offenders


def test_item11_the_scan_finds_3_11_syntax() -> None:
    tree = ast.parse(
        'import re\nA = "x*+"\nre.compile(A)\nre.match(r"(?>a)b", t)\nre.sub("c", "d")'
    )
    flagged = [p for _, p in _regex_literals(tree) if _NOT_310.search(_regex_syntax(p))]
    assert flagged == ["x*+", "(?>a)b"]


def test_item11_react_imports_without_possessive_quantifiers() -> None:
    """The react plugin imports (on every supported Python) and reads both step forms."""
    react = importlib.import_module("tooletta_dialect_react")
    for pattern in (react._STEP, react._OBJECT):
        assert not _NOT_310.search(_regex_syntax(pattern.pattern)), pattern.pattern
    assert "react" in {i.name for i in tooletta.list_dialects()}
    text = 'Thought: look it up\nAction: search\nAction Input: {"q": "Paris"}\nObservation:'
    assert tooletta.parse(text, "react").calls == [ToolCall("search", {"q": "Paris"})]
    assert tooletta.detect(text) == "react"
    fenced = 'Action:\n```json\n{"action": "search", "action_input": {"q": "x"}}\n```'
    assert tooletta.parse(fenced, "react").calls == [ToolCall("search", {"q": "x"})]


if sys.version_info >= (3, 11):
    import re._constants as _sre
    import re._parser as _sre_parse
else:  # pragma: no cover - Python 3.10
    import sre_constants as _sre
    import sre_parse as _sre_parse

_ASCII = frozenset(map(chr, range(128)))


def _chars(op: Any, av: Any) -> frozenset[str] | None:
    """The (ASCII) characters one regex item can start with; ``None`` when not a set."""
    if op is _sre.LITERAL:
        return frozenset(chr(av))
    if op is _sre.NOT_LITERAL:
        return _ASCII - {chr(av)}
    if op is not _sre.IN:
        return None
    found: set[str] = set()
    negate = False
    for o, a in av:
        if o is _sre.NEGATE:
            negate = True
        elif o is _sre.LITERAL:
            found.add(chr(a))
        elif o is _sre.RANGE:
            found.update(chr(c) for c in range(a[0], a[1] + 1) if c < 128)
        else:
            return None
    return _ASCII - found if negate else frozenset(found)


def _flat(items: Any) -> list[tuple[Any, Any]]:
    """A parsed pattern's items, groups opened in place."""
    out: list[tuple[Any, Any]] = []
    for op, av in items:
        if op is _sre.SUBPATTERN:
            out += _flat(av[-1])
        else:
            out.append((op, av))
    return out


def _excludes(op: Any, av: Any, repeated: frozenset[str]) -> bool:
    """Whether the item ``op, av`` can match none of ``repeated`` where it starts, or (a
    negative lookahead) forbids them all there."""
    chars = _chars(op, av)
    if chars is not None:
        return not chars & repeated
    if op is _sre.ASSERT_NOT:
        body = list(av[1])
        alternatives = body[0][1][1] if body and body[0][0] is _sre.BRANCH else [body]
        for alt in alternatives:
            items = list(alt)
            if len(items) == 1 and (_chars(*items[0]) or frozenset()) >= repeated:
                return True
    return False


def _gives_nothing_back(pattern: str) -> bool:
    """True when every unbounded repeat of a character set in ``pattern`` is followed by an
    item that cannot match what it repeats: a failed match never gives characters back to try
    again, so one match costs time linear in the text it reads (what possessive quantifiers
    would guarantee on 3.11+)."""
    items = _flat(_sre_parse.parse(pattern))
    for i, (op, av) in enumerate(items):
        if op is not _sre.MAX_REPEAT or av[1] != _sre.MAXREPEAT:
            continue
        body = list(av[2])
        repeated = _chars(*body[0]) if len(body) == 1 else None
        if repeated is None or i + 1 == len(items) or not _excludes(*items[i + 1], repeated):
            return False
    return True


def test_item11_react_regexes_stay_linear_without_possessive_quantifiers() -> None:
    react = importlib.import_module("tooletta_dialect_react")
    assert _gives_nothing_back(react._STEP.pattern)
    assert _gives_nothing_back(react._OBJECT.pattern)
    # the check itself: a repeat that can give back, and the possessive-free fix of it
    assert not _gives_nothing_back(r"[ \t]*(?!```)([^\n]*)\n")
    assert _gives_nothing_back(r"[ \t]*(?![ \t]|```)([^\n]*)\n")


_STEP_PIECES = [" ", "\t", "7", ":", "`", "```", "\n", "\r", "Action", "Input", "x", "{", "}"]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="the reference needs possessive syntax")
@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_STEP_PIECES), max_size=14).map("".join))
def test_item11_react_step_regex_reads_as_the_possessive_one(text: str) -> None:
    """The rewritten step pattern matches exactly what the possessive original did."""
    react = importlib.import_module("tooletta_dialect_react")
    reference = re.compile(
        r"[ \t0-9]*+:[ \t]*+(?!```)([^\n]*)\n[ \t\r\n]*+Action[ \t0-9]*+Input[ \t0-9]*+:"
    )
    got, want = react._STEP.match(text), reference.match(text)
    assert (got and (got.span(), got.group(1))) == (want and (want.span(), want.group(1)))
    assert bool(react._OBJECT.match(text)) == bool(re.match(r"[ \t\r\n]*+\{", text))


def _requires_python(pyproject: Path) -> str:
    m = re.search(r'^requires-python\s*=\s*">=\s*([0-9.]+)"', pyproject.read_text(), re.M)
    assert m, pyproject
    return m.group(1)


def test_item11_ci_runs_lowest_and_highest_python() -> None:
    """``.ci/run`` runs the suite on the declared lowest version and the highest, with
    interpreters found locally (never downloaded), failing clearly when one is missing."""
    lowest = {
        _requires_python(p) for p in [ROOT / "pyproject.toml", *ROOT.glob("*/pyproject.toml")]
    }
    lowest |= {_requires_python(p) for p in ROOT.glob("plugins/tooletta-dialect-*/pyproject.toml")}
    assert lowest == {"3.10"}, lowest
    script = (ROOT / ".ci" / "run").read_text()
    m = re.search(r'^PYTHONS="([0-9. ]+)"', script, re.M)
    assert m, "no PYTHONS line in .ci/run"
    versions = m.group(1).split()
    assert versions[0] == "3.10" and "3.13" in versions, versions
    assert "UV_PYTHON_DOWNLOADS=never" in script
    assert "exit 1" in script and "pyenv install" in script
    assert '--python "$python"' in script
    run_there = r'UV_PROJECT_ENVIRONMENT="\.venv-py\$version" \\\n\s*\$UV run --no-sync pytest'
    assert re.search(run_there, script), "no test run in each version's environment"


# -- item 12: the lowest floor ----------------------------------------------------------------

LOWEST = ("errors", "ir", "limits")
"""The modules everything else builds on: they import only each other."""


def test_item12_ir_does_not_import_engine() -> None:
    """``ir``, ``errors`` and ``limits`` import nothing of tooletta but each other (at any
    level: module top, functions, type-checking blocks), so the engine can import the IR."""
    for name in LOWEST:
        tree = ast.parse((CORE / f"{name}.py").read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    target = (node.module or "").split(".")[0]
                    assert node.level == 1 and target in LOWEST, (name, node.module)
                else:
                    assert not (node.module or "").startswith("tooletta"), (name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("tooletta") for a in node.names), name
    code = "import sys, tooletta.ir; print(sorted(m for m in sys.modules if 'tooletta' in m))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert "tooletta.engine" not in out and "tooletta.api" not in out, out


def test_item12_depth_limit_lives_in_limits_old_paths_still_work() -> None:
    from tooletta import engine, limits
    from tooletta.engine import jsonread
    from tooletta.ir import coerce_arguments

    assert engine.MAX_DEPTH is limits.MAX_DEPTH is jsonread.MAX_DEPTH
    assert engine.too_deep is limits.too_deep is jsonread.too_deep
    deep = '{"a": ' + "[" * (limits.MAX_DEPTH + 1) + "]" * (limits.MAX_DEPTH + 1) + "}"
    with pytest.raises(ValueError, match="nested deeper"):
        coerce_arguments(deep)
    assert coerce_arguments('{"a": [[1]]}') == {"a": [[1]]}


# -- item 12: the conformance kit -------------------------------------------------------------

KIT = CORE / "testing"


def test_item12_testing_kit_is_small_modules() -> None:
    """The kit is a package of small modules; ``__init__`` only re-exports."""
    modules = sorted(KIT.glob("*.py"))
    assert len(modules) >= 8, modules
    for path in modules:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        assert lines <= 400, (path.name, lines)
    init = ast.parse((KIT / "__init__.py").read_text(encoding="utf-8"))
    assert ast.get_docstring(init)
    for node in init.body[1:]:
        assert isinstance(node, (ast.ImportFrom, ast.Assign)), ast.dump(node)[:80]


def test_item12_testing_kit_public_names_import_from_the_package() -> None:
    import tooletta.testing as kit

    old = [
        "FOREIGN_TOKENS", "MARKUP_PUNCTUATION", "TYPING_RULES", "DialectTests",
        "TypedDialectTests", "assemble", "calls_strategy", "check_aliases",
        "check_arguments_stream", "check_bad_input", "check_models", "check_nothing_lost",
        "check_render_refuses", "check_round_trip", "check_shortcuts_agree",
        "check_stream_equals_parse", "check_typed_value", "content_strategy", "load_cases",
        "markup_strings", "schema_tools", "shortcut_blocks", "stream_text", "tools_for",
    ]  # fmt: skip
    assert set(old) <= set(kit.__all__)
    for name in kit.__all__:
        value = getattr(kit, name)
        assert getattr(value, "__doc__", None) or not callable(value), name
        if inspect.isfunction(value) or inspect.isclass(value):
            assert value.__module__.startswith("tooletta.testing."), (name, value.__module__)


def test_item12_dialect_tests_methods_are_short() -> None:
    """No test or helper of DialectTests is longer than a screen."""
    from tooletta.testing import DialectTests, TypedDialectTests

    for cls in (DialectTests, TypedDialectTests):
        for klass in cls.__mro__:
            if not klass.__module__.startswith("tooletta.testing"):
                continue
            for name, member in vars(klass).items():
                func = getattr(member, "__func__", member)
                if inspect.isfunction(func):
                    length = len(inspect.getsource(func).splitlines())
                    assert length <= 40, (klass.__name__, name, length)


# -- item 12: repeats across plugins, once in core --------------------------------------------


def _source(module: str) -> str:
    return inspect.getsource(importlib.import_module(module))


_CONTAINER_LOOP = re.compile(
    r"while True:\n\s*yield from r\.ws\(\)\n\s*if \(yield from r\.accept\(\"[\]}]\"\)\):"
)


def test_item12_json_container_loops_use_json_next() -> None:
    """The step between a JSON container's items is written once (``engine.json_next``)."""
    paths = [*CORE.rglob("*.py"), *ROOT.glob("plugins/tooletta-dialect-*/src/**/*.py")]
    loops = [p.name for p in paths if _CONTAINER_LOOP.search(p.read_text(encoding="utf-8"))]
    assert not loops, loops


def test_item12_message_joining_is_core() -> None:
    """Harmony and Inkling join message bodies with ``toolkit.messages`` (no copies)."""
    for module in ("tooletta_dialect_harmony", "tooletta_dialect_inkling"):
        text = _source(module)
        assert "message_body" in text and "class _Joined" not in text, module


def test_item12_qwen_and_seed_share_the_wrapped_xml_blocks() -> None:
    from tooletta.toolkit.xmlcall import call_blocks

    for name in ("qwen3_coder", "seed_oss"):
        grammar = tooletta.get_dialect(name).grammar
        readers = [b.read.__qualname__ for b in grammar.blocks[:2]]
        assert all(q.startswith(call_blocks.__name__ + ".") for q in readers), (name, readers)


def test_item12_literal_writers_are_core() -> None:
    """Gemma's and the pythonic formats' value writers are one core function."""
    for module, func in (
        ("tooletta_dialect_gemma", "write_value"),
        ("tooletta_dialect_pythonic.pysyntax", "py_value"),
    ):
        source = inspect.getsource(getattr(importlib.import_module(module), func))
        assert "write_literal(" in source and "isinstance" not in source, module


def test_item12_write_literal() -> None:
    from tooletta.toolkit.literal import write_literal

    value = {"b": [1, 2.5, None], "A": {"t": True, "f": False}, "s": "x"}
    py = write_literal(value, repr, repr, words=("True", "False", "None"))
    assert py == "{'b': [1, 2.5, None], 'A': {'t': True, 'f': False}, 's': 'x'}"
    gemma = write_literal(value, str.upper, str, comma=",", colon=":", sort=str.lower)
    assert gemma == "{A:{f:false,t:true},b:[1,2.5,null],s:X}"
    for bad in (float("nan"), {1: "x", "a": 2}, {1, 2}, b"x"):
        with pytest.raises(ValueError):
            write_literal(bad, str, str, sort=str.lower)


def test_item12_gemma_refuses_non_string_keys_with_a_render_error() -> None:
    """Mixed key types used to fail while sorting them (a TypeError message); now the
    writer says what is wrong."""
    with pytest.raises(tooletta.RenderError, match="keys must be strings"):
        tooletta.render([ToolCall("f", {"o": {1: "x", "a": 2}})], "gemma4")


def test_item12_json_documents_share_one_base() -> None:
    from tooletta.toolkit.jsondoc import JsonDocumentDialect

    for name in ("canonical", "openai"):
        assert isinstance(tooletta.get_dialect(name), JsonDocumentDialect), name
    canonical = tooletta.get_dialect("canonical")
    assert canonical.detect('{"content": "hi", "tool_calls": []}')
    assert not canonical.detect('Say {"content": 1}')
    assert tooletta.get_dialect("openai").detect('{"role": "assistant", "content": "hi"}')
