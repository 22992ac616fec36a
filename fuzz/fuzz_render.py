"""Atheris target for render: adversarial calls through ``render``, then ``parse`` and ``stream``.

Each input picks a dialect and builds one to three calls from the bytes: names and keys short,
long (up to 3000 characters), empty, or glued from markup of any dialect and hostile strings
(lone surrogates among them); values from a small grammar of scalars (NaN, infinities, any
double from eight bytes, integers up to 5000 digits), strings (markup, hostile, raw bytes with
invalid ones as lone surrogates), lists, objects, and values nested around the dialect's depth
limit or far past Python's recursion limit. Every input is checked with
:func:`fuzzlib.check_render_strict`: render raises only a RenderError, always for what no parse
reads back (an empty name, NaN or an infinity, a too long integer, nesting past the dialect's
``max_depth``), and otherwise its text reads back exactly, in parse and in stream (split as the
input says).

Run (see README.md)::

    uv pip install atheris
    uv run --no-sync python fuzz/fuzz_render.py -max_total_time=600 fuzz/corpus-render

Without atheris, :func:`one_input` is a plain function (the test suite replays inputs with it).
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from fuzz_engine import Provider  # the engine target's byte reader (its folder is on the path)

_state: dict[str, Any] = {}

_ONE_BY_ONE = 20_000
"""Texts longer than about this are streamed in pieces rather than one character at a time."""
_SCALARS = 12
"""Value kinds below this are scalars or strings; the rest are containers."""


def _setup() -> dict[str, Any]:
    if not _state:
        import fuzzlib

        import tooletta
        from tooletta.expressible import max_depth_of

        names = fuzzlib.dialect_names()
        pools = {d: (*fuzzlib.markup(d), *fuzzlib.all_markup(), *fuzzlib.HOSTILE) for d in names}
        limits = {d: max_depth_of(tooletta.get_dialect(d)) for d in names}
        _state.update(fuzzlib=fuzzlib, names=names, pools=pools, limits=limits)
    return _state


class _Builder:
    """Turns the fuzzer's bytes into names, keys, values and content for one dialect."""

    def __init__(self, p: Provider, pool: tuple[str, ...], limit: int) -> None:
        self.p = p
        self.pool = pool
        self.limit = limit

    def token(self) -> str:
        return self.pool[self.p.u16() % len(self.pool)]

    def glued(self) -> str:
        return "".join(self.token() for _ in range(1 + self.p.byte() % 4))

    def raw(self) -> str:
        return self.p.take(self.p.byte() % 24).decode("utf-8", "surrogateescape")

    def ident(self) -> str:
        head = "abcdefghijklmnopqrstuvwxyz_ABCXYZ"
        rest = head + "0123456789"
        size = 1 + self.p.byte() % 12
        out = [head[self.p.byte() % len(head)]]
        out += [rest[self.p.byte() % len(rest)] for _ in range(size - 1)]
        return "".join(out)

    def identifier(self) -> str:
        """A name or key: mostly plain, sometimes long, empty or full of markup."""
        kind = self.p.byte() % 10
        if kind <= 4:
            return self.ident()
        if kind == 5:
            return self.ident() + "x" * (self.p.u16() % 3000)
        if kind == 6:
            return ""
        if kind == 7:
            return self.glued()
        if kind == 8:
            return self.raw()
        return self.ident() + "." + self.ident()

    def number(self) -> Any:
        kind = self.p.byte() % 8
        if kind == 0:
            return (self.p.byte() - 128) * self.p.u16()
        if kind == 1:
            digits = 1 + self.p.u16() % 5000
            big = 10**digits - 1 - self.p.u16()
            return -big if self.p.byte() & 1 else big
        if kind == 2:
            return (float("nan"), float("inf"), float("-inf"))[self.p.byte() % 3]
        if kind == 3:
            return 2**63 + self.p.u16() if self.p.byte() & 1 else -(2**64) - self.p.u16()
        if kind == 4:
            return self.p.u16() / (1 + self.p.byte())
        return struct.unpack("<d", self.p.take(8).ljust(8, b"\0"))[0]

    def value(self, budget: int) -> Any:
        kind = self.p.byte() % (_SCALARS + 4 if budget > 0 else _SCALARS)
        if kind == 0:
            return None
        if kind == 1:
            return bool(self.p.byte() & 1)
        if kind <= 4:
            return self.number()
        if kind <= 7:
            return self.glued()
        if kind <= 9:
            return self.raw()
        if kind == 10:
            return self.token() * (1 + self.p.u16() % 400)
        if kind == 11:
            return self.ident()
        if kind == 12:
            return [self.value(budget - 1) for _ in range(self.p.byte() % 4)]
        if kind == 13:
            return {self.identifier(): self.value(budget - 1) for _ in range(self.p.byte() % 4)}
        return self.nested(budget)

    def nested(self, budget: int) -> Any:
        """A value inside many containers: around the dialect's limit, or far past it."""
        pick = self.p.byte() % 6
        if pick < 4:  # the arguments object and the key's value take two levels
            depth = self.limit - 3 + pick
        elif pick == 4:
            depth = self.p.u16() % (self.limit + 8)
        else:
            depth = 1000 + self.p.u16() % 5000
        value = self.value(0)
        as_dict = self.p.byte() & 1
        for _ in range(max(depth, 0)):
            value = {"k": value} if as_dict else [value]
        return value


def build(data: bytes) -> tuple[str, list[Any], str, list[int] | None]:
    """The dialect, calls, content and cuts an input stands for."""
    s = _setup()
    from tooletta import ToolCall

    p = Provider(data)
    dialect = s["names"][p.byte() % len(s["names"])]
    b = _Builder(p, s["pools"][dialect], s["limits"][dialect])
    calls = []
    for _ in range(1 + p.byte() % 3):
        name = b.identifier()
        arguments = {b.identifier(): b.value(3) for _ in range(p.byte() % 4)}
        calls.append(ToolCall(name, arguments))
    content = ("", b.glued(), b.raw(), "Sure, let me check.")[p.byte() % 4]
    chunking = p.byte()
    # one character at a time, or cut where the input says
    cuts = None if chunking % 4 == 0 else [p.u16() for _ in range(chunking % 16)]
    return dialect, calls, content, cuts


def _size(calls: list[Any]) -> int:
    """About how long the text of ``calls`` is (iterative: values nest thousands deep)."""
    size = 0
    stack: list[Any] = [(c.name, c.arguments) for c in calls]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.items())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
        elif isinstance(item, str):
            size += len(item)
        size += 4
    return size


def one_input(data: bytes) -> None:
    """Check render's laws on the calls ``data`` stands for (raises on a violation)."""
    dialect, calls, content, cuts = build(data)
    size = _size(calls) + len(content)
    if cuts is None and size > _ONE_BY_ONE:
        cuts = list(range(0, size, 97))  # one character at a time would take seconds
    _state["fuzzlib"].check_render_strict(dialect, calls, content, cuts)


def main() -> None:
    """Fuzz :func:`one_input` with atheris (``fuzzmain.run``)."""
    import fuzzmain

    fuzzmain.run(one_input, _setup)


if __name__ == "__main__":
    main()
