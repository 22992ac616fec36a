"""System messages beyond the system turn itself: how a template writes an empty first system
message (as none, as another text, or as it is), whether it writes one that is not the first
message, and the probe of the empty one."""

from __future__ import annotations

from ...errors import LearnError
from .infer_base import _Step
from .probes import Probe, S, answer, system, user


def _empty_system_probes() -> list[Probe]:
    """An empty system message. (Not with the tools: a template may write the tools with an
    empty system message as without one, QwQ does, and the text then carries none.)"""
    return [Probe("system-empty", [system(""), user(), answer()])]


class _System(_Step):
    """The step that reads how empty and later system messages are written."""

    def empty_system(self) -> bool | str:
        """How the template writes an empty first system message (without tools): as no
        system message (``True``: RWKV World writes the system turn only for a text
        ``!= ''``, Reka Edge and Granite 4.1 only for one they hold; and a template that
        refuses an empty one, :attr:`empty_refused`), as another system text (that text:
        Granite 4.0 writes its default prompt), or as it is (``False``)."""
        if not self.spec["system"]:
            return False
        try:
            empty = self.o.render([system(""), user()])
        except LearnError:
            # the template refuses it (Hunyuan's hub text: its ``dict.update`` for an empty
            # first message is refused by the sandbox): written as none, the turns after it
            # as without one, which is what such a template writes for no system message
            self.empty_refused = True
            return True
        if empty == self.o.render([user()]):
            return True
        h_s, f_s = self.spec["turns"]["system"]
        h_u = self._user_after_system()
        start = self.spec["bos"] + h_s
        end = empty.find(f_s + h_u + S.USER)
        if empty.startswith(start) and end > len(start):
            text = empty[len(start) : end]
            if self.o.render([system(text), user()]) == empty:
                return text
        return False

    def late_system(self) -> bool:
        """Whether the template writes a system message that is not the first message."""
        if not self.spec["system"]:
            return False
        try:
            text = self.o.render([user(), answer(), system(), user(S.USER2)])
        except LearnError:  # refused by the template (Qwen3.5): refused by the format too
            return False
        return S.SYSTEM in text
