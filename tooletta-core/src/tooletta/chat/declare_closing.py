"""A system-turn declaration whose body the template closes with fixed text and whose system
message it edits: :class:`ClosedSystemBlock`, a :class:`~tooletta.chat.SystemBlock` with
``after``, ``edit`` and ``system_end`` (Nemotron Nano v2's blank line and switch removal,
Apriel 1.6's line break after the reasoning prompt's turn, Llama-3.3-Nemotron-Super-49B-v1.5's
blank line after the system message)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from .declare import SystemBlock

__all__ = ["ClosedSystemBlock"]


@dataclass(frozen=True)
class ClosedSystemBlock(SystemBlock):
    """A :class:`~tooletta.chat.SystemBlock` whose body the template closes with fixed text,
    and whose system message it edits before writing it.

    ``after``: written after every body the block writes (the system message, the
    declarations or both, or the empty body of ``always``), not after a ``lead`` alone; the
    reader takes it off the end of the body (Nemotron Nano v2 ends its system turn with a
    blank line; Apriel 1.6 writes a line break after the system message and after the
    declarations, the declarations' own one being ``after``).

    ``edit``: what the template does to a system message before writing it (Nemotron Nano
    v2 removes its ``/think`` and ``/no_think`` switches and trims it); the message reads back
    as edited, so :meth:`~tooletta.chat.ChatFormat.expressible` gives it back so. A message
    the block would not read back as edited is refused as :meth:`SystemBlock.write
    <tooletta.chat.SystemBlock.write>` refuses it. An ``edit`` may raise a
    :class:`~tooletta.RenderError` for a message the format cannot write as the template does.

    ``system_end``: written after a given (non-empty, edited) system message, before the
    ``joiner`` and the declarations, whether declarations follow or not, and taken off the
    message when read (Llama-3.3-Nemotron-Super-49B-v1.5 writes a blank line after the
    system message, and nothing after the declarations alone).
    """

    after: str = ""
    edit: Callable[[str], str] | None = None
    system_end: str = ""
    _bare: SystemBlock | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        """The plain block that reads a body once its lead and ``after`` are off."""
        super().__post_init__()
        plain = {f.name: getattr(self, f.name) for f in fields(SystemBlock) if f.init}
        plain["leads"] = ()
        object.__setattr__(self, "_bare", SystemBlock(**plain))

    def write(
        self,
        system: str | None,
        tools: Sequence[Mapping[str, Any]],
        today: Callable[[str], str] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> str | None:
        """As :meth:`SystemBlock.write <tooletta.chat.SystemBlock.write>`, the system message
        edited first (``edit``) and every body closed by ``after``."""
        if system is not None and self.edit is not None:
            system = self.edit(system)
        return super().write(system, tools, today, options)

    def _body(
        self,
        system: str | None,
        tools: Sequence[Mapping[str, Any]],
        today: Callable[[str], str] | None,
        given: str | None = None,
    ) -> str | None:
        """The plain block's body (a given system message followed by ``system_end``),
        closed by ``after``."""
        if system and self.system_end:
            system += self.system_end
        body = super()._body(system, tools, today, given)
        return None if body is None else body + self.after

    def read(self, body: str) -> str | None:
        """The system message from a body :meth:`write` wrote: its lead off, then ``after``
        off its end, then read as the plain block reads it. An empty body (never written
        when there is an ``after``) holds none."""
        rest, alone = self.unlead(body)
        if alone or not (body or not self.after):
            return None
        after = self.after
        if after and rest.endswith(after):
            rest = rest[: len(rest) - len(after)]
        bare = self._bare
        assert bare is not None  # (set by __post_init__)
        system = bare.read(rest)
        end = self.system_end
        if system is not None and end and system.endswith(end):
            return system[: len(system) - len(end)]
        return system
