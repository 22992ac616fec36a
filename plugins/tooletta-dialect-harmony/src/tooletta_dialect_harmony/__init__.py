"""gpt-oss Harmony messages: channels for reasoning, content and tool calls.

A gpt-oss completion is a sequence of messages::

    <|start|>ROLE[ to=RECIPIENT]<|channel|>CHANNEL[ to=RECIPIENT][ [<|constrain|>]TYPE]
    <|message|>BODY

each ended by ``<|end|>`` (the turn goes on), ``<|call|>`` (a tool call; sampling stops) or
``<|return|>`` (the final answer). The ``analysis`` channel is reasoning; ``final`` and
``commentary`` without a recipient (a preamble) are content; a message addressed to
``functions.NAME`` is a call to ``NAME`` whose body is the JSON arguments, on ``commentary`` or
``analysis``. Other recipients (gpt-oss's built-in ``browser.*`` tools) are calls under the
full recipient name; ``python`` takes raw code, read as ``{"code": ...}``.

The generation prompt ends with ``<|start|>assistant``, so the first message of a completion
starts at ``<|channel|>`` or, when the model puts the recipient in the header, at
``" to=functions.NAME"``. Both are read, as is ``<|constrain|>json`` or a bare ``json`` type,
and a last message without its end token (stop tokens are often stripped). Message bodies lose
the whitespace just inside them; consecutive content (or reasoning) messages are joined by a
blank line. There are no call ids.

Rendering writes what the model would sample after the generation prompt, in the exact form of
the gpt-oss chat template (``openai/gpt-oss-*`` ``chat_template.jinja``): a call is
``<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>ARGS<|call|>``
(arguments through ``tojson``), content without calls is the final message
``<|channel|>final<|message|>...<|return|>``, and the first message drops its
``<|start|>assistant`` (it is in the prompt). Deviation: the template writes the text of an
assistant message that has tool calls on the ``analysis`` channel (it would read back as
reasoning); we write it as a ``commentary`` preamble, which is content.

Pinned from the gpt-oss chat template, SGLang's ``harmony_parser.py`` / ``gpt_oss_detector.py``
and llama.cpp's ``common_chat_parse_gpt_oss``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Any

from tooletta import DialectInfo, ScannerDialect, ToolCall, hookimpl, to_json
from tooletta.plugin import (
    Block,
    FastReader,
    Grammar,
    Read,
    Reader,
    Trimmer,
    decode_args,
    erase,
    json_value,
    marker_set,
    message_body,
)
from tooletta_dialect_harmony.models import MODELS

from .chat import GptOssChat, GptOssSafeguardChat

__all__ = ["HarmonyDialect", "register_dialects"]

START = "<|start|>"
CHANNEL = "<|channel|>"
MESSAGE = "<|message|>"
CONSTRAIN = "<|constrain|>"
END = "<|end|>"
CALL = "<|call|>"
RETURN = "<|return|>"
TO_FUNCTIONS = " to=functions."
FUNCTIONS = "functions."
_HEADER_STOP = (CHANNEL, MESSAGE, END, CALL, RETURN, START)
_BODY_STOP = (END, CALL, RETURN, START, CHANNEL)
_ENDS = (CALL, END, RETURN)
_NOT_CALLS = frozenset({"assistant", "user", "system", "developer", "all"})


def _header(role: str, channel: str) -> tuple[str, str | None]:
    """The channel and the recipient named by a message header."""
    words = f"{role} {channel}".replace(CONSTRAIN, " ").split()
    recipient = None
    for word in words:
        if word.startswith("to="):
            recipient = word[3:]
    chan_words = channel.replace(CONSTRAIN, " ").split()
    name = chan_words[0] if chan_words and not chan_words[0].startswith("to=") else ""
    return name, recipient


_ROLES = frozenset({"assistant"})
_CHANNELS = frozenset({"analysis", "commentary", "final"})
_TYPES = frozenset({"json", "code"})
"""What may follow the channel (or the role) besides a recipient: the content type."""


def header_problem(role: str, channel: str) -> str | None:
    """What is wrong with a message header (``None``: nothing): a role other than
    ``assistant``, a channel other than ``analysis``, ``commentary`` and ``final``, or a word
    that is neither a recipient (``to=...``) nor a content type (``json``, ``code``). A
    damaged header is not read as if it were intact."""
    for part, known, what in ((role, _ROLES, "role"), (channel, _CHANNELS, "channel")):
        words = part.replace(CONSTRAIN, " ").split() if part else ()
        for index, word in enumerate(words):
            if word.startswith("to="):
                continue
            if index == 0 and word in known:
                continue
            if index > 0 and word in _TYPES:
                continue
            return f"unknown {what} word {word!r} in a message header"
    return None


def _call_body(r: Reader, name: str, raw_code: bool) -> Read[None]:
    """A call's body: JSON arguments (or raw code) up to ``<|call|>`` or the end."""
    r.start_call(name)
    if raw_code:
        r.args('{"code": "')

        def write(text: str) -> None:
            r.args(json.dumps(text, ensure_ascii=False)[1:-1])

        out = Trimmer(write, "space")
        yield from r.until(_ENDS, out.feed, eof=True)
        out.close()
        r.args('"}')
        r.end_call()
        return
    yield from r.ws()
    if (yield from r.startswith(*_ENDS)) or (yield from r.at_end()):
        r.args("{}")  # an empty body: no arguments
    else:
        yield from json_value(r, r.args, keep=False)
    r.end_call()
    yield from r.ws()
    if not (yield from r.at_end()) and not (yield from r.accept(*_ENDS)):
        raise r.fail(f"expected {CALL!r} after the arguments")


def _messages(r: Reader, stage: str, role: str) -> Read[None]:
    """Messages from the given stage: ``"role"`` (after ``<|start|>``), ``"channel"`` (after
    ``<|channel|>``) or ``"body"`` (after ``<|message|>``). A body that runs into the next
    ``<|start|>`` or ``<|channel|>`` (its end token missing) continues with that message."""
    while True:
        channel = ""
        if stage == "role":
            text, marker = yield from r.until(_HEADER_STOP)
            role += text
            if marker == CHANNEL:
                stage = "channel"
            elif marker == MESSAGE:
                stage = "body"
            else:
                raise r.fail("a message header without <|message|>")
        if stage == "channel":
            channel, marker = yield from r.until(_HEADER_STOP)
            if marker != MESSAGE:
                raise r.fail("a channel header without <|message|>")
        problem = header_problem(role, channel)
        if problem is not None:
            raise r.fail(problem)
        kind, recipient = _header(role, channel)
        if recipient is not None and recipient not in _NOT_CALLS:
            if recipient.startswith(FUNCTIONS):
                name = recipient[len(FUNCTIONS) :]
                if not name:
                    raise r.fail("a call without a function name")
                yield from _call_body(r, name, False)
            else:
                yield from _call_body(r, recipient, recipient == "python")
            return
        out = message_body(r, "reasoning" if kind == "analysis" else "content")
        _, marker = yield from r.until(_BODY_STOP, out.feed, eof=True)
        out.close()
        if marker == START:
            stage, role = "role", ""
        elif marker == CHANNEL:
            stage, role = "channel", ""
        else:
            return


def read_start(r: Reader) -> Read[None]:
    """A message from ``<|start|>`` (role, optional recipient, channel)."""
    yield from _messages(r, "role", "")


def read_channel(r: Reader) -> Read[None]:
    """A message from ``<|channel|>`` (the completion's first message, or a later one whose
    ``<|start|>assistant`` is missing)."""
    yield from _messages(r, "channel", "")


def read_header_recipient(r: Reader) -> Read[None]:
    """A first message whose recipient is in the header (`` to=functions.NAME<|channel|>...``)."""
    yield from _messages(r, "role", "assistant to=functions.")


def read_body(r: Reader) -> Read[None]:
    """A bare ``<|message|>`` (the prompt already held the header): content."""
    yield from _messages(r, "body", "")


_header_stop = marker_set(_HEADER_STOP).find
_WS = re.compile(r"[ \t\r\n]*")
_SPACE = " \t\r\n"


def _recipient(role: str, channel: str) -> str | None:
    """The recipient :func:`_header` names, without its word lists in the usual case: the
    role's last word, ``to=RECIPIENT``, and no ``to=`` in the channel."""
    if "to=" not in channel and "<|" not in role:
        i = role.rfind("to=")
        if i < 0:
            return None
        if i == 0 or role[i - 1].isspace():
            word = role[i:]
            if " " not in word and word.isprintable():  # (printable: no other whitespace)
                return word[3:]
    return _header(role, channel)[1]


_USUAL = r"<\|channel\|>(?:commentary|analysis)(?: json| <\|constrain\|>json)?<\|message\|>"
_USUAL_HEAD = {
    "role": re.compile(r"assistant to=functions\.([A-Za-z0-9_.-]+)" + _USUAL).match,
    "role assistant to=functions.": re.compile(r"([A-Za-z0-9_.-]+)" + _USUAL).match,
}
"""The usual call headers, read by one match: a role ``assistant to=functions.NAME`` (one
plain word) and a usual channel (none holds ``to=``), which :func:`_messages` reads as a
call to ``NAME``; other headers are read by :func:`_fast_header`."""
_USUAL_START = _USUAL_HEAD["role"]
_N_START, _N_CHANNEL, _N_MESSAGE, _N_CALL = len(START), len(CHANNEL), len(MESSAGE), len(CALL)


def _fast_message(stage: str, lead: str) -> FastReader:
    """The one-shot shortcut of a block :func:`_messages` reads from ``stage`` with the role
    ``lead``: a call message (JSON arguments, ended by an end token or the text), and the
    call messages that follow it (after whitespace, from ``<|start|>`` or ``<|channel|>``).
    Any other message (content, reasoning, raw code) is left to the reader."""
    usual = _USUAL_HEAD.get(f"{stage} {lead}".strip())

    def fast(text: str, pos: int, tools: Any, calls: list[ToolCall]) -> int:
        end = -1  # past the last call read
        n = len(text)
        at, role, head = stage, lead, usual
        while True:
            m = head(text, pos) if head is not None else None
            if m is not None:
                name = m.group(1)
                j = m.end()
            else:
                got = _fast_header(text, pos, at, role)
                if got is None:
                    return end
                name, j = got
            # the body, as _call_body reads it
            brace = text.startswith("{", j)
            if not brace and j < n and text[j] in _SPACE:
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
                brace = text.startswith("{", j)
            if brace:
                # the object, taken to end at the last "}" before the next marker (a "<"): what
                # decodes is what the reader reads (no complete JSON value prefixes another)
                stop = text.find("<", j)
                k = text.rfind("}", j, stop if stop >= 0 else n) + 1
                args = decode_args(text[j:k]) if k > 0 else None
                if args is None:
                    return end
            elif j >= n or text.startswith(_ENDS, j):
                args, k = {}, j
            else:
                return end
            # whitespace, then an end token or the end of the text
            if text.startswith(CALL, k):
                end = k + _N_CALL
            else:
                if k < n and text[k] in _SPACE:
                    k = _WS.match(text, k).end()  # type: ignore[union-attr]
                if k >= n:
                    end = n
                else:
                    for token in _ENDS:
                        if text.startswith(token, k):
                            end = k + len(token)
                            break
                    else:
                        return end
            calls.append(ToolCall(name, args))
            # a call message that follows, after whitespace
            if text.startswith(START, end):
                at, role, pos, head = "role", "", end + _N_START, _USUAL_START
                continue
            j = end
            if j < n and text[j] in _SPACE:
                j = _WS.match(text, j).end()  # type: ignore[union-attr]
            if text.startswith(START, j):
                at, role, pos, head = "role", "", j + _N_START, _USUAL_START
            elif text.startswith(CHANNEL, j):
                at, role, pos, head = "channel", "", j + _N_CHANNEL, None
            else:
                return end

    return fast


def _fast_header(text: str, pos: int, stage: str, role: str) -> tuple[str, int] | None:
    """The name of the call :func:`_messages` reads from ``stage`` at ``pos`` with the role
    ``role`` so far, and where its body starts; ``None`` for any other message (content,
    reasoning, raw code, a malformed header)."""
    channel = ""
    if stage == "role":
        i = text.find("<", pos)  # every stop starts with "<"
        if i >= 0 and text.startswith(CHANNEL, i):
            marker = CHANNEL
        else:
            i, marker = _header_stop(text, pos)
            if marker != CHANNEL and marker != MESSAGE:
                return None
        role += text[pos:i]
        pos = i + len(marker)
        stage = "channel" if marker == CHANNEL else "body"
    if stage == "channel":
        i = text.find("<", pos)
        if not (i >= 0 and text.startswith(MESSAGE, i)):
            i, marker = _header_stop(text, pos)
            if marker != MESSAGE:
                return None
        channel = text[pos:i]
        pos = i + _N_MESSAGE
    if header_problem(role, channel) is not None:
        return None  # the reader refuses it
    recipient = _recipient(role, channel)
    if recipient is None or recipient in _NOT_CALLS or recipient == "python":
        return None
    if recipient.startswith(FUNCTIONS):
        recipient = recipient[len(FUNCTIONS) :]
        if not recipient:
            return None
    return recipient, pos


def _render_name(name: str) -> bool:
    return name.split() == [name] and "<|" not in name  # non-empty, no whitespace


class HarmonyDialect(ScannerDialect):
    """gpt-oss Harmony: ``<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>
    {json}<|call|>``; ``analysis`` is reasoning, ``final`` and preambles are content."""

    info = DialectInfo(
        name="harmony",
        aliases=("gpt_oss",),
        priority=90,
        markers=(CHANNEL, "<|start|>assistant", TO_FUNCTIONS),
        description="gpt-oss Harmony: channels (analysis/commentary/final), to=functions.NAME",
        source=(
            "openai/gpt-oss-20b chat_template.jinja; sgl-project/sglang "
            "python/sglang/srt/harmony_parser.py and function_call/gpt_oss_detector.py; "
            "ggml-org/llama.cpp common/chat.cpp common_chat_parse_gpt_oss"
        ),
    )
    grammar = Grammar(
        blocks=(
            Block(START, read_start, close=CALL, fast=_fast_message("role", "")),
            Block(CHANNEL, read_channel, close=CALL, fast=_fast_message("channel", "")),
            Block(
                TO_FUNCTIONS,
                read_header_recipient,
                close=CALL,
                fast=_fast_message("role", "assistant to=functions."),
            ),
            Block(MESSAGE, read_body, close=CALL),
            erase(END),
            erase(RETURN),
            erase(CALL),
            erase(CONSTRAIN),
        )
    )

    chat_formats = (GptOssChat(), GptOssSafeguardChat())
    """The gpt-oss conversation formats (:mod:`.chat`): gpt-oss's, then gpt-oss-safeguard's."""

    _LOOKS = re.compile(
        r"<\|channel\|>(?:analysis|commentary|final)|to=functions\.[^\s<]+<\|channel\|>"
    )

    def detect(self, text: str) -> bool:
        """A known channel after ``<|channel|>``, or a header recipient
        ``to=functions.NAME<|channel|>``."""
        return self._LOOKS.search(text) is not None

    def render(self, calls: Sequence[ToolCall], content: str = "") -> str:
        """The completion after ``<|start|>assistant`` (see the module docstring)."""
        self.check_content(content)
        if "<|" in content:  # every token starts with it
            for token in (END, CALL, RETURN, CONSTRAIN):
                if token in content:
                    raise self.error(f"content contains the token {token!r}")
        messages: list[str] = []
        if content and calls:
            messages.append(f"{CHANNEL}commentary{MESSAGE}{content}{END}")
        elif content:
            messages.append(f"{CHANNEL}final{MESSAGE}{content}{RETURN}")
        for call in calls:
            if not _render_name(call.name):
                raise self.error(f"tool name {call.name!r} cannot be a Harmony recipient")
            messages.append(
                f"{TO_FUNCTIONS}{call.name}{CHANNEL}commentary json{MESSAGE}"
                f"{to_json(call.arguments)}{CALL}"
            )
        return f"{START}assistant".join(messages)

    def render_calls(self, calls: list[ToolCall]) -> str:
        """The calls as Harmony messages (see :meth:`render`)."""
        return self.render(calls)


@hookimpl
def register_dialects(register: Any) -> None:
    """Register the harmony dialect."""
    for declared in (HarmonyDialect(), *MODELS):
        register(declared)
