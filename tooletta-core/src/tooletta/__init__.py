"""tooletta: parse, stream and render LLM tool calls across model dialects.

>>> import tooletta
>>> text = '<tool_call>\\n{"name": "get_weather", "arguments": {"city": "Paris"}}\\n</tool_call>'
>>> tooletta.parse(text, "hermes").calls
[ToolCall(name='get_weather', arguments={'city': 'Paris'}, id=None)]
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .errors import (
    AmbiguousDialectError,
    DuplicateDialectError,
    LearnedSpecError,
    LearnError,
    ParseError,
    PluginError,
    RenderError,
    StreamStateError,
    TemplateMismatchError,
    ToolettaError,
    ToolettaWarning,
    UnknownDialectError,
    UnverifiedModelWarning,
)
from .hookspecs import hookimpl
from .ir import (
    CallDelta,
    DialectInfo,
    Message,
    ParseResult,
    StreamUpdate,
    ToolCall,
    UnparsedToolCall,
)

if TYPE_CHECKING:
    from .api import (
        convert,
        detect,
        dialect_for_model,
        get_dialect,
        list_dialects,
        parse,
        parse_conversation,
        parse_tool_calls,
        register_dialect,
        register_plugin,
        render,
        render_conversation,
        render_tool_calls,
        stream,
        supports_reasoning,
    )
    from .chat.learn import learn, load_learned
    from .dialect import BufferedStream, Dialect, ScannerDialect, StreamParser
    from .jsonout import to_json

_LAZY = {
    **dict.fromkeys(
        (
            "convert",
            "detect",
            "dialect_for_model",
            "get_dialect",
            "list_dialects",
            "parse",
            "parse_conversation",
            "parse_tool_calls",
            "register_dialect",
            "register_plugin",
            "render",
            "render_conversation",
            "render_tool_calls",
            "stream",
            "supports_reasoning",
        ),
        "api",
    ),
    **dict.fromkeys(("BufferedStream", "Dialect", "ScannerDialect", "StreamParser"), "dialect"),
    "to_json": "jsonout",
    "learn": "chat.learn",
    "load_learned": "chat.learn",
}
"""Names imported on first use, so that ``import tooletta`` (and the CLI) start fast."""

__version__ = "0.2.0"

__all__ = [
    "AmbiguousDialectError",
    "BufferedStream",
    "CallDelta",
    "Dialect",
    "DialectInfo",
    "DuplicateDialectError",
    "LearnError",
    "LearnedSpecError",
    "Message",
    "ParseError",
    "ParseResult",
    "PluginError",
    "RenderError",
    "ScannerDialect",
    "StreamParser",
    "StreamStateError",
    "StreamUpdate",
    "TemplateMismatchError",
    "ToolCall",
    "ToolettaError",
    "ToolettaWarning",
    "UnknownDialectError",
    "UnparsedToolCall",
    "UnverifiedModelWarning",
    "__version__",
    "convert",
    "detect",
    "dialect_for_model",
    "get_dialect",
    "hookimpl",
    "learn",
    "list_dialects",
    "load_learned",
    "parse",
    "parse_conversation",
    "parse_tool_calls",
    "register_dialect",
    "register_plugin",
    "render",
    "render_conversation",
    "render_tool_calls",
    "stream",
    "supports_reasoning",
    "to_json",
]


def __getattr__(name: str) -> Any:
    """Import the public names of :mod:`tooletta.api`, :mod:`tooletta.dialect` and
    :mod:`tooletta.jsonout` on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
