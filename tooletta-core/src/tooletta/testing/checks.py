"""Smaller checks for a plugin's own tests: names, model ids, argument streaming, refusals."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .. import api
from ..errors import RenderError
from ..ir import CallDelta, ToolCall

__all__ = [
    "check_aliases",
    "check_arguments_stream",
    "check_model_formats",
    "check_models",
    "check_render_refuses",
]


def check_aliases(dialect: str, names: Iterable[str]) -> None:
    """Assert that each of ``names`` (aliases, peer parser names, other spellings) resolves to
    ``dialect`` (its primary name)."""
    for name in names:
        got = api.get_dialect(name).info.name
        assert got == dialect, f"{name!r} resolves to {got!r}, not {dialect!r}"


def check_models(models: Mapping[str, str | None]) -> None:
    """Assert that :func:`~tooletta.dialect_for_model` maps each model id to its dialect."""
    for model, dialect in models.items():
        got = api.dialect_for_model(model)
        assert got == dialect, f"{model!r} maps to {got!r}, not {dialect!r}"


def check_model_formats(dialect: str, formats: Mapping[str, str]) -> None:
    """Assert that each model id of ``formats`` maps to ``dialect``
    (:func:`~tooletta.dialect_for_model`) and to its chat format, by name
    (:func:`~tooletta.chat.resolve_format`)."""
    from ..chat.lookup import resolve_format

    for model, fmt in formats.items():
        got = api.dialect_for_model(model)
        assert got == dialect, f"{model!r} maps to {got!r}, not {dialect!r}"
        name = resolve_format(model, None)[0].name
        assert name == fmt, f"{model!r} renders conversations as {name!r}, not {fmt!r}"


def check_arguments_stream(
    dialect: str,
    text: str,
    arguments: str | Mapping[str, Any],
    *,
    tools: Any = None,
    index: int = 0,
    pieces: int = 3,
) -> list[CallDelta]:
    """Assert that call ``index`` of ``text``, fed one character at a time, streams its
    arguments as they are generated: more than ``pieces`` non-empty fragments arrive before
    ``finish``, and all fragments join to ``arguments`` (the exact JSON text, or a mapping the
    JSON must decode to). Returns every delta, for format-specific checks."""
    parser = api.stream(dialect, tools=tools)
    early = [d for ch in text for d in parser.feed(ch).calls]
    deltas = [*early, *parser.finish().calls]
    joined = "".join(d.arguments for d in deltas if d.index == index)
    if isinstance(arguments, str):
        assert joined == arguments, (joined, arguments)
    else:
        assert json.loads(joined) == arguments, (joined, arguments)
    arrived = [d.arguments for d in early if d.index == index and d.arguments]
    assert len(arrived) > pieces, ("arguments did not stream", arrived)
    return deltas


def check_render_refuses(
    dialect: str,
    *,
    values: Iterable[Any] = (),
    names: Iterable[str] = (),
    keys: Iterable[str] = (),
    contents: Iterable[str] = (),
    calls: Iterable[Sequence[ToolCall]] = (),
) -> None:
    """Assert that :func:`~tooletta.render` raises :class:`~tooletta.RenderError` for each
    case: a call ``f`` with ``x`` set to each of ``values``, a call with no arguments named
    each of ``names``, a call ``f`` with each of ``keys`` set to 1, a call ``f()`` beside each
    of ``contents``, and each list of ``calls``."""
    cases: list[tuple[list[ToolCall], str]] = [
        *(([ToolCall("f", {"x": v})], "") for v in values),
        *(([ToolCall(n, {})], "") for n in names),
        *(([ToolCall("f", {k: 1})], "") for k in keys),
        *(([ToolCall("f", {})], c) for c in contents),
        *((list(cs), "") for cs in calls),
    ]
    for case, content in cases:
        try:
            text = api.render(case, dialect, content=content)
        except RenderError:
            continue
        raise AssertionError(f"{dialect} rendered {case!r} (content {content!r}) as {text!r}")
