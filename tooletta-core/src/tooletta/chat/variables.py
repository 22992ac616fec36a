"""Template variables a model's own tooling passes besides ``messages`` and ``tools``.

Some chat templates read the tool declarations and the date from variables of their own,
which the model's serving code fills in: FireFunction v2's reads ``functions`` (the tool
declarations as ready-made JSON text) and ``datetime`` (today's date and time), and raises
without them. :func:`filling_variables` renders a template as given and, only when it raises
because such a variable is undefined (a template that can do without one is rendered as
transformers renders it, without), again with the variables of :func:`tooling_variables`
(each one it reads and the caller did not give, valued as that tooling passes it): for
:func:`~tooletta.chat.jinja.render_jinja`, and through it for identify's and learn's probes and
``render_conversation(chat_template=...)``'s Jinja fallback:

* ``functions``: the ``tools`` as ``json.dumps(tools, indent=2)`` (UTF-8 kept), ``""``
  without tools;
* ``datetime``: ``strftime_now("%b %d %Y %H:%M:%S GMT")`` (the clock of
  ``tooletta.chat.clock``, or the ``strftime_now`` option given).

Source: llama.cpp's FireFunction v2 handler (``common/chat.cpp``,
``common_chat_params_init_firefunction_v2``, from commit 8b576b6c5 "Tool call support ...
native for ... Firefunction" until its parser refactoring 566059a26), which passed
``{"datetime": format_time(now, "%b %d %Y %H:%M:%S GMT"), "functions": tools.empty() ? "" :
tools.dump(2)}``; the firefunction_v2 format of the phi plugin writes the same by default. A
name is filled only when the template reads it as a variable nobody gives and raises without
it (never keyed on the template's text).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from . import clock

__all__ = ["TOOLING_VARIABLES", "filling_variables", "tooling_variables"]

_DATETIME = "%b %d %Y %H:%M:%S GMT"


def _functions(tools: Sequence[Mapping[str, Any]] | None, options: Mapping[str, Any]) -> str:
    from .messages import tool_json

    return tool_json(list(tools), indent=2) if tools else ""


def _datetime(tools: Sequence[Mapping[str, Any]] | None, options: Mapping[str, Any]) -> str:
    strftime = options.get("strftime_now")
    if callable(strftime):
        return str(strftime(_DATETIME))
    return clock.formatted(_DATETIME)


TOOLING_VARIABLES: Mapping[
    str, Callable[[Sequence[Mapping[str, Any]] | None, Mapping[str, Any]], str]
] = {"functions": _functions, "datetime": _datetime}
"""Each variable filled in, and how it is written from the tools given and the render's
options."""

_NAMES = re.compile(r"\b(?:" + "|".join(TOOLING_VARIABLES) + r")\b")


def tooling_variables(
    template: str, tools: Sequence[Mapping[str, Any]] | None, options: Mapping[str, Any]
) -> dict[str, str]:
    """The variables of :data:`TOOLING_VARIABLES` that ``template`` reads as undeclared
    variables and that ``options`` does not give, with their values."""
    if _NAMES.search(template) is None:  # the common case, without parsing the template
        return {}
    wanted = [n for n in _read(template) if n not in options]
    return {name: TOOLING_VARIABLES[name](tools, options) for name in wanted}


def filling_variables(
    render: Callable[[Mapping[str, Any]], str],
    template: str,
    tools: Sequence[Mapping[str, Any]] | None,
    variables: Mapping[str, Any],
) -> str:
    """``render(variables)``; when that raises because a variable of
    :data:`TOOLING_VARIABLES` the template reads is undefined, ``render`` again with those
    variables filled in (:func:`tooling_variables`). Any other failure propagates."""
    try:
        return render(variables)
    except Exception as exc:
        if type(exc).__name__ != "UndefinedError":
            raise
        extra = tooling_variables(template, tools, variables)
        if not any(f"'{name}'" in str(exc) for name in extra):
            raise
        return render({**variables, **extra})


@lru_cache(maxsize=64)
def _read(template: str) -> tuple[str, ...]:
    """The names of :data:`TOOLING_VARIABLES` ``template`` reads as undeclared variables."""
    try:
        import jinja2
        from jinja2 import meta
    except ImportError:  # pragma: no cover - rendering needs jinja2 first
        return ()
    source = re.sub(r"\{%-?\s*(end)?generation\s*-?%\}", "", template)
    env = jinja2.Environment(extensions=["jinja2.ext.loopcontrols"])
    try:
        names = meta.find_undeclared_variables(env.parse(source))
    except jinja2.TemplateError:
        return ()
    return tuple(n for n in TOOLING_VARIABLES if n in names)
