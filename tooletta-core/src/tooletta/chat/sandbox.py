"""Hugging Face's immutable jinja2 sandbox, with its attribute checks made cheap for the plain
data a chat template reads (the messages and tools are dicts, lists and strings).

jinja2's sandbox looks up ``message.role`` by trying the attribute first: on a dict that
raises ``AttributeError`` inside Python before the key is read, and every attribute it
finds (``tools.items``, ``name.upper``...) is checked against the sandbox's rules through
``isinstance`` tests on the collection ABCs. For these builtin types the outcome depends
only on the type and the attribute's name, so here:

* ``getattr`` on a ``dict`` with a name that is no attribute of ``dict`` reads the key
  directly (an attribute of ``dict`` such as ``items`` still wins, as in jinja2), and
  ``obj[key]`` on a ``dict`` missing the key gives the same undefined value without trying
  the attribute when ``dict`` has none of that name;
* the verdict of ``is_safe_attribute`` is kept per (type, name) for the builtin data types
  (dict, list, tuple, str, numbers, ``None``) and jinja2's own loop and namespace objects
  (``loop.last``, ``ns.found``), for which jinja2's rules read nothing else;
* ``getattr`` gives a method of ``dict`` already found safe (``message.get``, ``tools.items``),
  a counter of jinja2's loop object (``loop.first``, ``loop.index0``...) and a namespace's
  value under a name already found safe (``ns.found``) at once: jinja2 gives the attribute
  after checking that it is safe and whether it is a ``str.format`` method (which it
  wraps), and neither check can say otherwise for these (a namespace's value that is a
  method still goes through jinja2's);
* a call of the template's own macro, of a builtin method (``tools.items()``,
  ``name.split('.')``, the objects an attribute lookup above let through) or of
  ``namespace(...)`` is made at once: jinja2 first asks whether the callable is marked
  unsafe and whether it wants the context, the eval context or the environment passed,
  which none of them can be (a macro and the namespace class are jinja2's own objects, a
  builtin method takes no attributes), then drops the loop and block
  variables it was given and turns a ``StopIteration`` into an undefined value, as here.
  A template with many macro calls (a tool's parameters declared by a recursive macro)
  renders a third faster. A macro that takes neither ``caller``, ``varargs`` nor
  ``kwargs``, called with positional arguments only (no more than it declares) and
  without autoescaping, has its function called at once with those arguments and jinja2's
  ``missing`` marker for the rest, which is what jinja2's ``Macro.__call__`` passes it
  then (it matches keyword arguments to names first, which there are none of); any other
  call goes through ``Macro.__call__``. The macro and ``getattr`` shortcuts together:
  Kimi-K3's template renders the 18 probes in 0.24 ms each instead of 0.29 (CPU time).

And an error a template raises while rendering keeps Python's own traceback: jinja2 rewrites
it to point at the template's lines by compiling a stub of code per template frame, which
cost more than a whole render of the template (identify renders many probes that a template
refuses, and turns every error into a message: its type and text are unchanged; a template
that does not compile still gets jinja2's handling).

Every value, undefined and security error is what jinja2's
``jinja2.sandbox.ImmutableSandboxedEnvironment`` gives (a test compares the two on every
vendored template's probes, errors included). jinja2 is imported when
:func:`immutable_sandbox` is called.
"""

from __future__ import annotations

import sys
import types
from typing import Any, NoReturn

__all__ = ["immutable_sandbox"]

_DICT_NAMES = frozenset(name for klass in dict.__mro__ for name in vars(klass))
"""Every attribute a ``dict`` instance has (a dict has no instance ``__dict__``: attribute
lookup reads only its type and ``object``)."""

_PLAIN = frozenset({dict, list, tuple, str, int, float, bool, type(None)})
"""Builtin types whose attributes' safety depends on the type and the name alone (jinja2's
``LoopContext`` and ``Namespace`` are added when jinja2 is imported)."""

_LOOP_COUNTS = frozenset(
    {"index", "index0", "revindex", "revindex0", "first", "last", "length", "depth", "depth0"}
)
"""The attributes of jinja2's loop object that are a number or a truth value: safe by
jinja2's rules (a public name of an object no rule concerns) and never ``str.format``."""

_METHODS = (types.MethodType, types.BuiltinMethodType)
"""The types of a ``str.format`` method, which jinja2's ``getattr`` wraps (sandboxed)."""

_STOPPED = "value was undefined because a callable raised a StopIteration exception"
"""jinja2's text for the undefined value a call raising ``StopIteration`` gives."""


def immutable_sandbox() -> type[Any]:
    """jinja2's ``ImmutableSandboxedEnvironment`` with the lookups of the module docs made
    cheap (same results)."""
    from jinja2.exceptions import TemplateSyntaxError
    from jinja2.nodes import EvalContext
    from jinja2.runtime import LoopContext, Macro
    from jinja2.sandbox import ImmutableSandboxedEnvironment
    from jinja2.utils import Namespace, missing

    kept = _PLAIN | {LoopContext, Namespace}

    def plain(macro: Any) -> bool:
        """Whether ``macro`` takes neither ``caller``, ``varargs`` nor ``kwargs`` and is
        not autoescaped (its function is then called at once: see the module docs)."""
        return not (
            macro.caller
            or macro.catch_kwargs
            or macro.catch_varargs
            or macro._default_autoescape
            or macro._environment.is_async
        )

    direct = frozenset({Macro, types.BuiltinMethodType})

    class ImmutableSandbox(ImmutableSandboxedEnvironment):
        """The immutable sandbox, with plain data's attributes looked up cheaply."""

        _safe: dict[tuple[type, str], bool]

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._safe = {}

        def getattr(self, obj: Any, attribute: str) -> Any:
            """``obj.attribute``: a dict's key at once when ``dict`` has no such
            attribute (jinja2 tries the attribute first, which raises); a method of
            ``dict`` already found safe, a loop's counters and a namespace's value
            under a name found safe, at once (see the module docs)."""
            kind = type(obj)
            if kind is dict:
                if attribute not in _DICT_NAMES:
                    try:
                        return obj[attribute]
                    except KeyError:
                        return self.undefined(obj=obj, name=attribute)
                if self._safe.get((dict, attribute)):  # a method of dict's, found safe
                    return getattr(obj, attribute)
            elif kind is LoopContext and attribute in _LOOP_COUNTS:
                return getattr(obj, attribute)
            elif kind is Namespace and self._safe.get((kind, attribute)):
                try:
                    value = getattr(obj, attribute)
                except AttributeError:  # not set: jinja2's undefined value
                    return super().getattr(obj, attribute)
                if type(value) not in _METHODS:  # never str.format, which jinja2 wraps
                    return value
            return super().getattr(obj, attribute)

        def getitem(self, obj: Any, argument: Any) -> Any:
            """``obj[argument]``: a dict missing a key that is no attribute of ``dict``
            gives the undefined value without trying the attribute."""
            if type(obj) is dict and type(argument) is str and argument not in _DICT_NAMES:
                try:
                    return obj[argument]
                except KeyError:
                    return self.undefined(obj=obj, name=argument)
            return super().getitem(obj, argument)

        def is_safe_attribute(self, obj: Any, attr: str, value: Any) -> bool:
            """jinja2's verdict, kept per (type, name) for the types of ``kept`` (for
            those it reads neither the value nor the object's contents)."""
            kind = type(obj)
            if kind not in kept:
                return bool(super().is_safe_attribute(obj, attr, value))
            key = (kind, attr)
            safe = self._safe.get(key)
            if safe is None:
                safe = self._safe[key] = bool(super().is_safe_attribute(obj, attr, value))
            return safe

        def call(
            __self,  # jinja2's signature: the call's own keywords pass through
            __context: Any,
            __obj: Any,
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            """Call ``__obj``: a macro, a builtin method or ``namespace`` at once (see
            the module docs), anything else through jinja2's checks."""
            kind = type(__obj)
            if kind not in direct and __obj is not Namespace:
                return super().call(__context, __obj, *args, **kwargs)
            if kwargs:
                kwargs.pop("_block_vars", None)
                kwargs.pop("_loop_vars", None)
            try:
                if kind is Macro and not kwargs and plain(__obj):
                    short = __obj._argument_count - len(args)
                    if not (args and type(args[0]) is EvalContext):
                        if not short:
                            return __obj._func(*args)
                        if short > 0:
                            return __obj._func(*args, *[missing] * short)
                return __obj(*args, **kwargs)
            except StopIteration:
                return __self.undefined(_STOPPED)

        def handle_exception(self, source: str | None = None) -> NoReturn:
            """Re-raise the exception being handled as it is (jinja2 rewrites its
            traceback first, see the module docs); a syntax error gets jinja2's handling."""
            exc = sys.exc_info()[1]
            if exc is None or isinstance(exc, TemplateSyntaxError):
                super().handle_exception(source)
            raise exc

    return ImmutableSandbox
