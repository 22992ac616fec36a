"""The ``kimi`` dialect of tooletta 0.1.0: ``## Calling: NAME`` lines followed by JSON.

Kept for compatibility with the 0.1.0 release (``tooletta/dialects/builtins.py``,
``KimiDialect``, alias ``moonshot``); no model is known to emit it (Kimi K2's real format is
``kimi_k2``). A block is a header line ``## Calling: NAME`` (space after the colon optional,
the name ``[A-Za-z_][\\w.-]*``, nothing else on the line) and the JSON arguments object
after it; blocks are separated by a blank line::

    ## Calling: get_weather
    {"city":"Paris","days":3}

Rendering is 0.1.0's: compact JSON with sorted keys and ASCII escapes. Unlike 0.1.0, text
around the blocks is kept as content, a header is recognised only at the start of a line,
and the JSON must follow the header (0.1.0 skipped prose before it). A malformed block has
no closing marker, so it runs to the end of the text and is kept whole as unparsed data.
"""

from __future__ import annotations

import json
import re

from tooletta import DialectInfo, ScannerDialect, ToolCall
from tooletta.plugin import (
    Block,
    Grammar,
    Read,
    Reader,
    end_json_call,
    fast_json_args,
    fast_repeat,
    json_value,
)

__all__ = ["KimiLegacyDialect"]

HEADER = "## Calling:"
_NAME = re.compile(r"[A-Za-z_][\w.-]*\Z")
_SURROGATE = re.compile("[\ud800-\udfff]")
"""A surrogate code point: a ``str`` can hold one, Unicode text cannot."""
_LOOKS = re.compile(r"(?:^|\n)## Calling:[ \t]*[A-Za-z_][\w.-]*[ \t]*\r?\n[ \t\r\n]*\{")


def read_block(r: Reader) -> Read[None]:
    """One block, from after ``## Calling:``: the name line, then the JSON object."""
    line, _ = yield from r.until(("\n",))
    name = line.strip()
    if not _NAME.match(name):
        raise r.fail(f"bad tool name {name[:40]!r}")
    yield from r.ws()
    if (yield from r.peek()) != "{":
        raise r.fail("expected the JSON arguments object")
    r.start_call(name)
    end_json_call(r, (yield from json_value(r, r.args)))


def _block_head(text: str, pos: int) -> tuple[str | None, int] | None:
    """The one-shot reading of :func:`read_block` up to the JSON object."""
    nl = text.find("\n", pos)
    if nl < 0:
        return None
    name = text[pos:nl].strip()
    if not _NAME.match(name):
        return None
    return name, nl + 1


_FAST = fast_repeat(fast_json_args(_block_head, before=("\n" + HEADER,)), "\n" + HEADER)


class KimiLegacyDialect(ScannerDialect):
    """tooletta 0.1.0's ``## Calling: NAME`` + JSON blocks."""

    info = DialectInfo(
        name="kimi",
        aliases=("moonshot",),
        priority=10,
        markers=(HEADER,),
        description="tooletta 0.1.0 legacy Kimi form: '## Calling: NAME' then a JSON object",
        source="PyPI tooletta==0.1.0 tooletta/dialects/builtins.py (KimiDialect)",
    )
    grammar = Grammar(
        blocks=(
            Block(HEADER, read_block, at_start=True, fast=_FAST),
            Block("\n" + HEADER, read_block, fast=_FAST),
        )
    )
    content_separator = "\n\n"

    def detect(self, text: str) -> bool:
        """A header at the start of a line, followed by a JSON object."""
        return _LOOKS.search(text) is not None

    def check_content(self, content: str) -> None:
        """Refuse content holding a header anywhere (it could read back as a block)."""
        if HEADER in content:
            raise self.error(f"content contains the marker {HEADER!r}")

    def render_calls(self, calls: list[ToolCall]) -> str:
        """0.1.0's render: compact sorted JSON, blocks joined by a blank line."""
        parts = []
        for c in calls:
            if not _NAME.match(c.name):
                raise self.error(f"cannot write the tool name {c.name!r}")
            args = json.dumps(c.arguments, separators=(",", ":"), sort_keys=True)
            if "\\ud" in args and _SURROGATE.search(json.dumps(c.arguments, ensure_ascii=False)):
                # ASCII JSON would spell it as an escape: no decoder accepts a lone one, and a
                # pair of them reads back as the one character they encode
                raise self.error("a surrogate code point is not text and cannot be written")
            parts.append(f"{HEADER} {c.name}\n{args}")
        return "\n\n".join(parts)
