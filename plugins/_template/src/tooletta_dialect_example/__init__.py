"""Example dialect: ``<<call>>NAME {json}<</call>>`` (made up; copy and adapt).

A real plugin's docstring names the models, quotes the markers, and cites its source.
What the plugin takes of core comes from the plugin face, :mod:`tooletta.plugin` (the
response-template export, ``hf_template.py``, uses ``tooletta.interop.hf.spec``).
The conversation format of the (made-up) model is in :mod:`tooletta_dialect_example.chat`,
the model rows in :mod:`tooletta_dialect_example.models`.
"""

from __future__ import annotations

from typing import Any

from tooletta.plugin import (
    Block,
    DialectInfo,
    Grammar,
    Read,
    Reader,
    ScannerDialect,
    ToolCall,
    hookimpl,
    json_value,
    to_json,
)
from tooletta_dialect_example.chat import ExampleChat
from tooletta_dialect_example.models import MODELS

__all__ = ["ExampleDialect", "register_dialects"]

OPEN = "<<call>>"
CLOSE = "<</call>>"


def read_call(r: Reader) -> Read[None]:
    """``NAME {json}<</call>>``: the name up to a space, then the arguments streamed."""
    name, _ = yield from r.until((" ",))
    r.start_call(name.strip())
    yield from json_value(r, r.args)
    r.end_call()
    yield from r.ws()
    yield from r.expect(CLOSE)


class ExampleDialect(ScannerDialect):
    """``<<call>>NAME {json}<</call>>`` per call."""

    info = DialectInfo(
        name="example",
        aliases=("example-dialect",),
        priority=5,
        markers=(OPEN,),
        description="Example: <<call>>NAME {json}<</call>>",
        source="(name the chat template / parser that pins the format)",
    )
    chat_formats = (ExampleChat(),)
    grammar = Grammar(blocks=(Block(OPEN, read_call, close=CLOSE),))
    content_separator = "\n"

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Each call on its own line."""
        return "\n".join(f"{OPEN}{c.name} {to_json(c.arguments)}{CLOSE}" for c in calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the example dialect and its model rows."""
    for declared in (ExampleDialect(), *MODELS):
        register(declared)
