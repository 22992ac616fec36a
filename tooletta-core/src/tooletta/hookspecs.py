"""The hooks a tooletta plugin can implement (pluggy project name ``tooletta``).

Implement them with :data:`hookimpl` in the module your entry point names::

    [project.entry-points.tooletta]
    glm = "tooletta_dialect_glm"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

__all__ = ["hookimpl", "hookspec"]

hookspec = pluggy.HookspecMarker("tooletta")
hookimpl = pluggy.HookimplMarker("tooletta")
"""Marks a plugin's hook implementations (``@hookimpl def register_dialects(register): ...``)."""


@hookspec
def register_dialects(register: Callable[[Any], None]) -> None:
    """Register dialects and model rows: call ``register(obj)`` once per dialect object and
    once per :class:`tooletta.rows.Model` row.

    A row declares one model family once: its id patterns, the dialects its models write
    (the default first), its conversation format and the vendored template that verifies
    it (:mod:`tooletta.rows`). :func:`tooletta.dialect_for_model`, ``render(model=...)``,
    ``parse(text, model=...)`` and the conversation functions answer from the rows
    (:mod:`tooletta.catalog`). A row whose patterns claim model ids of a first-party row,
    for another dialect, does not take them: the first-party row keeps them, and the clash is
    reported (a problem of your plugin, and a :class:`tooletta.ToolettaWarning` naming both;
    :mod:`tooletta.claims`). ``DialectInfo.models`` patterns count as rows of their dialect.

    A dialect object has ``info`` (a :class:`tooletta.DialectInfo`), ``parse(text, tools=None)``
    and ``render(calls, content="")``; ``stream(tools=None)`` and ``detect(text)`` are optional.
    Names and aliases must be unique across all plugins; clashes are reported, not shadowed,
    and a first-party plugin keeps its names unless ``TOOLETTA_OVERRIDE`` gives one away
    (:mod:`tooletta.precedence`). What the methods return is checked: ``parse`` a
    ``ParseResult``, ``render`` a ``str``, ``detect`` a ``bool``, ``stream`` an object whose
    ``feed`` and ``finish`` return ``StreamUpdate`` (:mod:`tooletta.boundary`).
    """


@hookspec(firstresult=True)
def dialect_for_model(model: str) -> str | None:
    """Return the dialect name a model id emits, or ``None`` to let other plugins answer.

    ``model`` is the id as given (e.g. ``"zai-org/GLM-4.6"``); compare case-insensitively.
    The first non-None answer is used, with one exception: a model id that a first-party
    model row claims keeps that row's dialect. Your answer for such an id, when it names
    another dialect, is not followed but reported (a problem of your plugin, shown by
    ``tooletta list-dialects``, and a :class:`tooletta.ToolettaWarning` naming both;
    :mod:`tooletta.claims`; your hook is asked for the id each first-party pattern spells
    when plugins load). For ids no first-party row claims, hooks answer before any model row
    or ``models`` pattern.
    """


@hookspec
def register_commands(cli: Any) -> None:
    """Add commands to the ``tooletta`` click group: ``@cli.command() def mine(): ...``."""
