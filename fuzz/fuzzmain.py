"""The atheris driver every fuzz target shares: instrument tooletta and every installed plugin
(their modules imported under instrumentation), set the target up, then fuzz its
``one_input``. Imports only the standard library at module level, so nothing of tooletta is
imported before the instrumentation starts."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any


def plugin_modules() -> list[str]:
    """The modules of every installed plugin (their entry points in the ``tooletta`` group)."""
    from importlib import metadata

    return sorted({ep.value.split(":")[0] for ep in metadata.entry_points(group="tooletta")})


def run(one_input: Callable[[bytes], None], setup: Callable[[], Any]) -> None:
    """Fuzz ``one_input`` with atheris, after ``setup()`` under instrumentation (only the
    ``str`` hook: startswith/endswith on markers guide the fuzzer; atheris' "RegEx" hook is
    left off, its pattern proxy does not accept ``search(text, pos)``, which the engine calls
    everywhere)."""
    import atheris

    atheris.enabled_hooks.add("str")
    with atheris.instrument_imports(include=["tooletta", *plugin_modules()]):
        import tooletta

        tooletta.list_dialects()  # imports every plugin, instrumented
        setup()
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
