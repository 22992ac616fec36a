"""A template switch the caller misspelled is said, not silently ignored.

``render_conversation(..., **options)`` passes the switches a template reads and ignores the
others (the same call serves every model, and a template reads only its own). A name that is
not one of the format's switches but is close to one (``enable_thinkin`` for
``enable_thinking``) is almost surely a typo that would render the default silently: it is
reported once per format and name with a :class:`~tooletta.ToolettaWarning`.

A switch the template reads and the format does not write (declared in
:attr:`~tooletta.chat.ChatFormat.unwritten_options` with the value under which the template
writes what the format writes) is refused when given with another value: the render would
silently differ from the template's (:func:`refuse_unwritten`); so is a message key it reads
and the format does not write (:attr:`~tooletta.chat.ChatFormat.unwritten_fields`,
:func:`refuse_unwritten_fields`).
"""

from __future__ import annotations

import difflib
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import RenderError, ToolettaWarning
from ..ir import Message
from .declare_layout import FirstMessageKeys, Neutral
from .format import ChatFormat

__all__ = ["COMMON_SWITCHES", "refuse_unwritten", "refuse_unwritten_fields", "warn_misspelled"]

COMMON_SWITCHES = frozenset(
    {"strftime_now", "date_string", "enable_thinking", "reasoning_effort", "tools_in_user_message"}
)
"""Switches callers pass to every model (Hugging Face's ``apply_chat_template`` keywords and
the best-known template variables): never reported when a format does not read them."""

_SAID: set[tuple[str, str]] = set()


def warn_misspelled(fmt: ChatFormat, options: Mapping[str, Any], stacklevel: int = 4) -> None:
    """Warn for each name in ``options`` that is neither a switch of ``fmt`` nor a common one
    but is close to a switch of ``fmt`` (once per format and name)."""
    known = fmt.options
    for name in options:
        if name in known or name in COMMON_SWITCHES or (fmt.name, name) in _SAID:
            continue
        close = difflib.get_close_matches(name, [*known, *COMMON_SWITCHES], n=1, cutoff=0.8)
        _SAID.add((fmt.name, name))
        if close:
            warnings.warn(
                f"{name!r} is not a switch of the {fmt.name} template (ignored); "
                f"did you mean {close[0]!r}?",
                ToolettaWarning,
                stacklevel=stacklevel,
            )


def refuse_unwritten(fmt: ChatFormat, options: Mapping[str, Any]) -> None:
    """Raise :class:`~tooletta.RenderError` for the first name in ``options`` that ``fmt``
    declares in :attr:`~tooletta.chat.ChatFormat.unwritten_options` and that is given with
    another value than the declared one, or than every value of a declared
    :class:`~tooletta.chat.Neutral` (compared with ``==``, a ``bool`` only to a ``bool``)."""
    unwritten = fmt.unwritten_options
    if not unwritten:
        return
    for name, value in options.items():
        if name in unwritten and not _neutral(value, unwritten[name]):
            raise RenderError(
                f"{fmt.name} does not write the template's {name!r} option "
                f"(given {_shown(value)}; {_writes(unwritten[name])}); "
                "render with chat_template= to use it"
            )


def refuse_unwritten_fields(fmt: ChatFormat, messages: Sequence[Message]) -> None:
    """Raise :class:`~tooletta.RenderError` for the first message holding a key (in its
    :class:`Message.extra <tooletta.Message>`) that ``fmt`` declares in
    :attr:`~tooletta.chat.ChatFormat.unwritten_fields` for its role, with another value than
    the declared one (or than every value of a declared :class:`~tooletta.chat.Neutral`);
    a role's :class:`~tooletta.chat.FirstMessageKeys` are looked for on the first message
    only."""
    fields = fmt.unwritten_fields
    for index, message in enumerate(messages):
        extra = message.extra
        if not extra:
            continue
        role = message.role
        declared = fields.get(role) if type(role) is str else None
        if not declared or (index and type(declared) is FirstMessageKeys):
            continue
        for key, value in extra.items():
            if key in declared and not _neutral(value, declared[key]):
                raise RenderError(
                    f"message {index}: {fmt.name} does not write the template's {key!r} key "
                    f"of a {role} message (given {_shown(value)}); render with "
                    "chat_template= to use it"
                )


def _neutral(given: Any, declared: Any) -> bool:
    """Whether ``given`` is the ``declared`` value, or one of a :class:`Neutral`'s."""
    if type(declared) is Neutral:
        return any(_same(given, value) for value in declared.values)
    return _same(given, declared)


def _writes(declared: Any) -> str:
    """What the template writes as, for an error message."""
    if type(declared) is not Neutral:
        return f"it writes the template as with {_shown(declared)}"
    if not declared.values:
        return "it writes the template as without it"
    shown = [_shown(v) for v in declared.values]
    listed = shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " or " + shown[-1]
    return f"it writes the template as without it or with {listed}"


def _same(given: Any, neutral: Any) -> bool:
    """Whether ``given`` is the declared ``neutral`` value (``True`` is not ``1``)."""
    if given is neutral:
        return True
    if isinstance(given, bool) or isinstance(neutral, bool):
        return type(given) is type(neutral) and bool(given == neutral)
    try:
        return bool(given == neutral)
    except Exception:  # an __eq__ that raises is not the neutral value
        return False


def _shown(value: Any) -> str:
    """``value`` for an error message (its ``repr``, cut at 60 characters)."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
