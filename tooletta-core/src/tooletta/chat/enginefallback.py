"""The fallback for templates written for llama.cpp's engine (minja), not Hugging Face's.

:func:`tooletta.chat.jinja.render_jinja` renders with transformers' semantics. Some
templates, written for llama.cpp's minja, raise there on two constructs that minja renders
(llama.cpp's own ``llama-cpp-deepseek-r1.jinja``, its copy of ``Kimi-K2-Thinking.jinja``):

* a **mutating list method on a list the template itself built** (``{% set _ =
  ns.ids.append(x) %}`` on ``namespace(ids=[])``), which the immutable sandbox forbids;
* **``tojson`` of a generator** (``tools | map(attribute='function') | tojson``): jinja2's
  ``map``/``select`` give generators, transformers' ``tojson`` is ``json.dumps``, which
  refuses them; minja's filters give lists.

Where a template is itself wrong, tooletta does what a correct one would: when, and only
when, the render with Hugging Face's semantics raises on exactly one of these (see
:func:`engine_construct`), the template is rendered again in an environment that differs in
those two points only: a list may be changed in place if the template built it (never a
list reached from the messages, tools or options it was given: changing those stays
forbidden), and ``tojson`` writes an iterator as the list of its items. A template that
renders with Hugging Face's semantics is never rendered with these, so no render changes
for it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from typing import Any

__all__ = ["FALLBACK_NOTE", "compile_fallback", "engine_construct", "input_lists", "rendering"]

FALLBACK_NOTE = (
    "the template raises with Hugging Face's semantics on a construct llama.cpp's engine "
    "renders (a list method changing a list the template built, or tojson of a generator)"
)
"""What the fallback is for, in words (for messages and documentation)."""

_LIST_CHANGE = re.compile(
    r"access to attribute '(append|extend|insert|pop|remove|reverse|sort|clear)' "
    r"of 'list' object is unsafe"
)
_GENERATOR = "Object of type generator is not JSON serializable"

_GIVEN: ContextVar[frozenset[int]] = ContextVar("tooletta_jinja_given", default=frozenset())


def engine_construct(exc: BaseException) -> bool:
    """Whether ``exc``, raised by a render with Hugging Face's semantics, is one of the two
    constructs the fallback renders (and nothing else)."""
    name = type(exc).__name__
    if name == "SecurityError":
        return _LIST_CHANGE.search(str(exc)) is not None
    return isinstance(exc, TypeError) and str(exc) == _GENERATOR


def input_lists(*values: Any) -> frozenset[int]:
    """The identities of every list reachable from ``values`` (the template's inputs), which
    the fallback never lets the template change."""
    seen: set[int] = set()
    stack: list[Any] = list(values)
    while stack:
        value = stack.pop()
        if isinstance(value, list):
            if id(value) in seen:
                continue
            seen.add(id(value))
            stack.extend(value)
        elif isinstance(value, Mapping):
            stack.extend(value.values())
        elif isinstance(value, tuple):
            stack.extend(value)
    return frozenset(seen)


@contextmanager
def rendering(given: frozenset[int]) -> Iterator[None]:
    """``with rendering(given):`` the lists in ``given`` (:func:`input_lists`) are the
    template's inputs for the renders inside."""
    token = _GIVEN.set(given)
    try:
        yield
    finally:
        _GIVEN.reset(token)


def _materialised(value: Any) -> Any:
    """``json.dumps``' ``default``: an iterator as the list of its items."""
    if isinstance(value, Iterator):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


@lru_cache(maxsize=1)
def _environment() -> Any:
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    from .jinjaenv import make_environment

    class _Own(ImmutableSandboxedEnvironment):
        """Hugging Face's sandbox, but a list the template built may be changed in place."""

        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            if isinstance(obj, list) and id(obj) not in _GIVEN.get():
                return bool(
                    super(ImmutableSandboxedEnvironment, self).is_safe_attribute(obj, attr, value)
                )
            return bool(super().is_safe_attribute(obj, attr, value))

    return make_environment(_Own, json_default=_materialised)


@lru_cache(maxsize=16)
def compile_fallback(template: str) -> Any:
    """``template`` compiled in the fallback environment (it compiled in Hugging Face's, so
    it compiles here)."""
    return _environment().from_string(template)
