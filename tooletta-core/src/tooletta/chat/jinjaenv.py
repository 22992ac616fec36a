"""The jinja2 environment chat templates are rendered in, with Hugging Face's settings: the
sandbox class given, ``trim_blocks``/``lstrip_blocks``, the ``{% generation %}`` and loop-control
extensions, the ``tojson`` filter as ``json.dumps``, the ``raise_exception`` and
``strftime_now`` globals. Two of jinja2's and Python's own functions are given faster
equivalents: ``tojson`` without arguments reuses one encoder (``json.dumps`` builds one per
call), and the ``mapping`` test answers a dict without the ABC's ``isinstance`` (a template
may test every node of every tool's schema with it). A leaf: :mod:`tooletta.chat.jinja` and
:mod:`tooletta.chat.enginefallback` both build theirs here (jinja2 is imported when one is
built)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import RenderError
from . import clock

__all__ = ["make_environment"]


def _tojson_filter(default: Callable[[Any], Any] | None) -> Callable[..., str]:
    """Hugging Face's ``tojson`` filter (``json.dumps`` with its arguments); ``default``:
    ``json.dumps``' hook for values JSON cannot write (``None``: they raise, as in
    transformers)."""

    plain = json.JSONEncoder(ensure_ascii=False, default=default)  # what the call
    # without arguments gives (json.dumps builds this encoder anew on every call)

    def tojson(
        value: Any,
        ensure_ascii: bool = False,
        indent: int | None = None,
        separators: tuple[str, str] | None = None,
        sort_keys: bool = False,
    ) -> str:
        if not ensure_ascii and indent is None and separators is None and not sort_keys:
            return plain.encode(value)
        return json.dumps(
            value,
            ensure_ascii=ensure_ascii,
            indent=indent,
            separators=separators,
            sort_keys=sort_keys,
            default=default,
        )

    return tojson


def _is_mapping(value: Any) -> bool:
    """jinja2's ``mapping`` test (``isinstance`` of ``collections.abc.Mapping``), a dict
    answered without the ABC's machinery (templates test every schema node with it)."""
    return type(value) is dict or isinstance(value, Mapping)


def _raise_exception(message: str) -> None:
    raise RenderError(f"the chat template refused the conversation: {message}")


def _strftime_now(fmt: str) -> str:
    return clock.now().strftime(fmt)


def make_environment(cls: Any, json_default: Callable[[Any], Any] | None = None) -> Any:
    """An environment of class ``cls`` (a jinja2 sandbox) with Hugging Face's settings,
    filters, globals and extensions (see the module docs); ``json_default``: what ``tojson``
    writes for a value JSON cannot (the engine fallback's iterators), else such a value
    raises."""
    import jinja2
    from jinja2 import nodes
    from jinja2.ext import Extension

    class _Generation(Extension):
        """``{% generation %}...{% endgeneration %}``: renders its body."""

        tags = {"generation"}  # noqa: RUF012 - jinja2's declared API

        def parse(self, parser: Any) -> Any:
            lineno = next(parser.stream).lineno
            body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
            return nodes.Scope(body, lineno=lineno)

    env = cls(
        trim_blocks=True,
        lstrip_blocks=True,
        extensions=[_Generation, jinja2.ext.loopcontrols],
        auto_reload=False,
        cache_size=0,
        optimized=False,
    )
    env.filters["tojson"] = _tojson_filter(json_default)
    env.tests["mapping"] = _is_mapping
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = _strftime_now
    return env
