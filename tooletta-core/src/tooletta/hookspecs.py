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
    """Register dialects: call ``register(dialect)`` once per dialect object.

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

    Stops at the first non-None result. ``model`` is the id as given (e.g.
    ``"zai-org/GLM-4.6"``); compare case-insensitively. First-party plugins answer from their
    dialects' declared ``models`` patterns and are registered ``trylast``, so yours win.
    """


@hookspec
def register_commands(cli: Any) -> None:
    """Add commands to the ``tooletta`` click group: ``@cli.command() def mine(): ...``."""
