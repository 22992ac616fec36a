"""Shared machinery of the pythonic family: a render that proves itself by reading its
text back (these formats' templates lose information, so every render is checked)."""

from __future__ import annotations

from collections.abc import Sequence

from tooletta import ScannerDialect, ToolCall

from .pysyntax import MAX_NESTING

__all__ = ["CheckedDialect"]


class CheckedDialect(ScannerDialect):
    """A scanner dialect whose :meth:`render` reads its own text back and refuses (with
    :class:`~tooletta.RenderError`) anything that would parse differently."""

    max_depth = MAX_NESTING
    """The readers' bracket limit counts from the call's ``(``: the arguments' own level."""

    def write(self, calls: list[ToolCall], content: str) -> str:
        """The text for ``content`` and ``calls`` (the default: content, then the calls)."""
        return ScannerDialect.render(self, calls, content)

    def reads_back(self, calls: list[ToolCall], content: str) -> bool:
        """Whether the text :meth:`write` wrote for ``calls`` and ``content`` is known to read
        back as them without reading it (then :meth:`render` does not parse it). Default:
        never known; a dialect that can tell such plain calls apart overrides this."""
        return False

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """Write ``content`` and ``calls``; raise ``RenderError`` unless the text reads back
        to the same calls and content (read back unless :meth:`reads_back` knows it)."""
        items = list(calls)
        with self.writing():
            text = self.write(items, content)
        if self.reads_back(items, content):
            return text
        back = self.parse(text)
        if back.unparsed or [(c.name, c.arguments) for c in back.calls] != [
            (c.name, c.arguments) for c in items
        ]:
            raise self.error("these calls would not read back unchanged in this format")
        if back.content.strip() != content.strip():
            raise self.error("this content would not read back unchanged in this format")
        return text
