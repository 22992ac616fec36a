"""Headers that name the message: a template that writes a message's ``name`` in its turn's
header, and a word (the role) when it has none (llama.cpp's Kimi K2-Thinking copy writes
``<|im_user|>NAME<|im_middle|>``, ``<|im_system|>NAME<|im_middle|>`` for a tool result named
by its tool).

Learned by rendering a message with a ``name`` and without: the two texts differ only by the
name in place of the word, inside the role's learned header; the spec keeps, per role, the
header's text before the name, after it, and the word (``chat["names"]``). The learned format
writes the name (or the word) there and reads any name back; a name that would not read back
(holding the text after it, or a line break) is refused at render.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from ...errors import LearnError, RenderError
from ...ir import Message
from ..conversation import Conversation
from .oracle import Oracle
from .probes import CALL_SETS, TOOLS, S, answer, calling, result, system, user

__all__ = ["header_names", "name_hooks", "result_names", "slot_in"]

NAME = "Qz7nmX"
"""The sentinel name given to a probe message."""


def _common_prefix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[n] == b[n]:
        n += 1
    return n


def _common_suffix(a: str, b: str) -> int:
    n = 0
    while n < len(a) and n < len(b) and a[-1 - n] == b[-1 - n]:
        n += 1
    return n


def _word(plain: str, named: str) -> tuple[int, str] | None:
    """Where ``named`` differs from ``plain`` and the word ``plain`` has there, when the only
    difference is :data:`NAME` in place of that word (``None`` otherwise)."""
    cp = _common_prefix(plain, named)
    cs = _common_suffix(plain[cp:], named[cp:])
    if named[cp : len(named) - cs] != NAME:
        return None
    return cp, plain[cp : len(plain) - cs]


def slot_in(plain: str, header: str, found: tuple[int, str]) -> list[str] | None:
    """``[before, after, word]``: ``header`` split around the word at ``found`` (where it is
    in ``plain``), when an occurrence of ``header`` in ``plain`` holds it; else ``None``."""
    at, word = found
    start = plain.rfind(header, 0, at + len(header))  # the last occurrence starting by at
    while start >= 0:
        if at + len(word) <= start + len(header):
            cut = at - start
            return [header[:cut], header[cut + len(word) :], word]
        start = plain.rfind(header, 0, start + len(header) - 1)
    return None


def header_names(oracle: Oracle, turns: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """Per role (user, assistant, system) whose header writes a message's name, the slot
    (:func:`slot_in`) in its learned header; refused when the template writes the name
    elsewhere."""
    convos = {
        "user": ([user(), answer()], 0),
        "assistant": ([user(), answer()], 1),
        "system": ([system(), user()], 0),
    }
    out: dict[str, list[str]] = {}
    for role, (messages, index) in convos.items():
        if role not in turns:
            continue
        named = list(messages)
        named[index] = msgspec.structs.replace(messages[index], name=NAME)
        try:
            plain, text = oracle.render(messages), oracle.render(named)
        except LearnError:
            continue
        if plain == text:
            continue
        found = _word(plain, text)
        slot = slot_in(plain, str(turns[role][0]), found) if found else None
        if slot is None:
            raise LearnError(
                f"probe 'named': the template writes a {role} message's name otherwise than "
                "in place of a word of its header",
                probe="named",
            )
        out[role] = slot
    return out


def result_names(oracle: Oracle) -> tuple[str, tuple[int, str]] | None:
    """For a template that writes a tool result's name in place of a word (written when the
    result has none): the render of a result without a name and where that word is in it
    (``None``: the template does not write results' names)."""
    one = CALL_SETS["one"]

    def convo(name: str | None) -> list[Message]:
        res = msgspec.structs.replace(result(one[0], S.RESULT), name=name)
        return [user(), calling(one), res, answer()]

    try:
        plain, text = oracle.render(convo(None), TOOLS), oracle.render(convo(NAME), TOOLS)
    except LearnError:
        return None
    if plain == text:
        return None
    found = _word(plain, text)
    if found is None or not found[1]:
        raise LearnError(
            "probe 'result': the template writes a tool result's name otherwise than in "
            "place of a word",
            probe="result",
        )
    return plain, found


def name_hooks(chat: Mapping[str, Any]) -> dict[str, Any]:
    """The ``header`` and ``read_header`` hooks of a learned format whose headers name the
    message (``chat["names"]``)."""
    names = {role: (str(p), str(q), str(w)) for role, (p, q, w) in chat["names"].items()}
    wrap0 = str(chat["results"]["wrap"][0])

    def header(self: Any, index: int, ctx: Conversation) -> str:
        """The header of the message at ``index``, its name (or the role's word) in place."""
        message = ctx.messages[index]
        slot = names.get(message.role)
        if slot is None:
            return str(self.turns[message.role].header)
        before, after, word = slot
        name = message.name or word
        if "\n" in name or (after and after in name) or (before and before in name):
            raise RenderError(
                f"the learned format {self.name!r}: message {index}: the name {name!r} "
                f"would not read back from its header (it holds {after!r} or a line break)"
            )
        return before + name + after

    def read_header(self: Any, text: str, pos: int) -> tuple[str, int] | None:
        """A header with any name in place: the role whose word it is, else the one whose
        header it matches (a tool result's when its opening follows, for roles sharing the
        header's text)."""
        found: list[tuple[str, int, str]] = []
        for role, (before, after, word) in names.items():
            if not text.startswith(before, pos):
                continue
            end = text.find(after, pos + len(before)) if after else -1
            if end < 0:
                continue
            name = text[pos + len(before) : end]
            if not name or "\n" in name:
                continue
            if name == word:
                return role, end + len(after)
            found.append((role, end + len(after), name))
        if len(found) > 1 and wrap0:
            found = [f for f in found if (f[0] == "tool") == text.startswith(wrap0, f[1])] or found
        if len(found) == 1:
            return found[0][0], found[0][1]
        return None

    return {"header": header, "read_header": read_header}
