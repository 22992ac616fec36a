"""The intermediate representation: the canonical tool call and the results around it.

Every dialect parses into these types and renders from them. They are msgspec structs, so they
encode to and decode from JSON and MessagePack quickly and without glue code.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from .limits import MAX_DEPTH, too_deep

__all__ = [
    "CallDelta",
    "DialectInfo",
    "Message",
    "ParseResult",
    "StreamUpdate",
    "ToolCall",
    "UnparsedToolCall",
]


def _field(obj: Any, key: str) -> Any:
    """Read ``key`` from a mapping or an attribute-style object; ``None`` when absent."""
    if isinstance(obj, Mapping):
        return obj.get(key)
    return getattr(obj, key, None)


class ToolCall(msgspec.Struct, frozen=True, omit_defaults=True):
    """One tool call: the function's name, its arguments as a dict, and an optional id.

    ``arguments`` is always a ``dict`` (the Hugging Face convention); :meth:`to_openai` gives the
    OpenAI shape where arguments are a JSON string. Ids are opaque: parsing keeps what the model
    wrote (Mistral's 9 characters, Kimi's ``functions.NAME:IDX``), rendering applies the target
    dialect's id rules. The struct is frozen; because ``arguments`` is a dict it is not hashable.
    """

    name: str
    arguments: dict[str, Any] = {}
    id: str | None = None

    def to_openai(self, position: int = 0) -> dict[str, Any]:
        """Return the OpenAI Chat Completions ``tool_calls`` item for this call.

        ``arguments`` becomes a JSON string (non-ASCII kept as is). OpenAI requires an ``id``:
        a call without one (most model formats carry none) gets the id of tooletta's one id
        policy (:func:`tooletta.limits.derived_call_id`): ``call_`` + 24 alphanumerics derived
        from ``position`` (the call's place among the conversation's calls; 0 for a call on
        its own), its name and its arguments, so the item is always valid and the same call
        always gets the same id on every path (``messages_to_openai``, ``render(calls,
        "openai")``, ``parse --format openai``).
        """
        import json  # here: the json module is not needed to start

        arguments = json.dumps(self.arguments, ensure_ascii=False)
        call_id = self.id
        if call_id is None:
            from .limits import derived_call_id

            call_id = derived_call_id(self.name, arguments, position)
        return {
            "id": call_id,
            "type": "function",
            "function": {"name": self.name, "arguments": arguments},
        }

    @classmethod
    def from_openai(cls, obj: Any) -> ToolCall:
        """Build a call from an OpenAI ``tool_calls`` item, a legacy ``function_call``, or a
        flat ``{"name", "arguments"}`` object.

        Accepts mappings and attribute-style objects (such as the OpenAI SDK's pydantic models).
        ``arguments`` may be a dict or a JSON string; an empty string means no arguments.

        Raises
        ------
        ValueError
            When there is no name, or the arguments are not a JSON object.
        """
        fn = _field(obj, "function")
        source = fn if fn is not None else obj
        name = _field(source, "name")
        if not isinstance(name, str) or not name:
            raise ValueError("tool call has no function name")
        raw = _field(source, "arguments")
        arguments = coerce_arguments(raw)
        call_id = _field(obj, "id")
        return cls(name=name, arguments=arguments, id=call_id if isinstance(call_id, str) else None)


def coerce_arguments(raw: Any) -> dict[str, Any]:
    """Turn an arguments value (dict, JSON string, ``None``, or a mapping) into a dict.

    Raises
    ------
    ValueError
        When a string is not JSON, nests deeper than :data:`tooletta.limits.MAX_DEPTH`, or
        the value is not an object.
    """
    if raw is None or raw == "":
        return {}
    if isinstance(raw, dict):
        return raw
    if type(raw) is not str and isinstance(raw, Mapping):  # (a JSON string skips the ABC test)
        return dict(raw)
    if isinstance(raw, (str, bytes)):
        try:
            value = msgspec.json.decode(raw)
        except (msgspec.DecodeError, UnicodeError) as exc:
            raise ValueError(f"arguments are not valid JSON: {exc}") from None
        except RecursionError:
            raise ValueError(f"arguments are nested deeper than {MAX_DEPTH}") from None
        if too_deep(raw, value):
            raise ValueError(f"arguments are nested deeper than {MAX_DEPTH}")
        if isinstance(value, dict):
            return value
        raise ValueError(f"arguments must be a JSON object, not {type(value).__name__}")
    raise ValueError(f"arguments must be an object, not {type(raw).__name__}")


class UnparsedToolCall(msgspec.Struct, frozen=True, omit_defaults=True):
    """A tool-call block that opened but could not be parsed, kept as data (lenient mode).

    ``raw`` is the block's exact text (markers included), ``offset`` its position in the parsed
    text, ``error`` what went wrong. In a stream, ``index`` names the call whose deltas were
    already sent and must now be discarded (``None`` when no delta of it was sent).
    """

    raw: str
    error: str
    offset: int
    index: int | None = None


class ParseResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """What one-shot parsing returns.

    ``content`` is what a user should see (all tool-call markup removed), ``calls`` the parsed
    calls in order, ``dialect`` the dialect that parsed them, ``unparsed`` the malformed blocks,
    and ``reasoning`` the text the format itself marks as reasoning.
    """

    content: str
    calls: list[ToolCall] = []
    dialect: str | None = None
    unparsed: list[UnparsedToolCall] = []
    reasoning: str = ""


class CallDelta(msgspec.Struct, frozen=True, omit_defaults=True):
    """A fragment of one call in a stream, with OpenAI semantics.

    The first delta of a call carries its ``name`` (and ``id`` when the format has one); later
    deltas carry only ``arguments`` fragments. Concatenating every fragment of one ``index``
    gives the call's arguments as JSON text. An id the format writes after the name arrives once,
    in a later delta: clients that concatenate string fields (as the OpenAI SDK does) stay right.
    """

    index: int
    id: str | None = None
    name: str | None = None
    arguments: str = ""


class StreamUpdate(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a stream parser returns for each delta fed to it (and at ``finish``).

    ``content`` and ``reasoning`` are the new text to show; ``calls`` the new call fragments;
    ``unparsed`` the blocks that turned out malformed (their ``index`` names a call to discard).
    """

    content: str = ""
    calls: list[CallDelta] = []
    reasoning: str = ""
    unparsed: list[UnparsedToolCall] = []

    def __bool__(self) -> bool:
        """True when the update carries anything."""
        return bool(self.content or self.calls or self.reasoning or self.unparsed)


class DialectInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """What a dialect declares about itself.

    ``name`` is the primary name, ``aliases`` other names it answers to (vLLM's and SGLang's
    parser names among them). Detection tries candidates by ``priority`` (higher first); a
    dialect is a candidate when one of its ``markers`` occurs in the text. ``models`` are
    lower-case glob patterns of model ids that emit the format (the longest matching pattern
    wins). ``supports`` lists what the dialect does (``parse``, ``render``, ``stream``); the
    registry checks it against the object. ``variant_of`` marks a variant of another dialect.
    """

    name: str
    aliases: tuple[str, ...] = ()
    priority: int = 0
    markers: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    description: str = ""
    supports: tuple[str, ...] = ("parse", "render", "stream")
    source: str = ""
    variant_of: str = ""
    """For a variant (another model generation's spelling of the same format, e.g.
    ``mistral_v11``): the base dialect's name. Variants parse like their base, render their
    own form, are picked by their ``models`` patterns and never by detection."""


class Message(msgspec.Struct, frozen=True, omit_defaults=True):
    """One chat message, independent of any API's shape.

    ``role`` is ``system``, ``developer``, ``user``, ``assistant`` or ``tool`` (tool results;
    a legacy ``role: "function"`` result reads as ``tool`` with its ``name``). ``content`` is
    text, a list of content parts/blocks (images and the like, kept as given), or ``None``.
    ``reasoning`` is the assistant's reasoning (chat APIs' ``reasoning_content``, a template's
    ``<think>`` text, Harmony's analysis channel), first-class so that no conversion loses it.
    Assistant messages carry ``tool_calls``; tool results carry ``tool_call_id`` (and
    ``name`` when known) and ``is_error`` (Anthropic). ``extra`` keeps the other keys of a
    chat-style message (``weight``, tinker's ``trainable``...), written back by the
    chat-style writers.
    """

    role: str
    content: str | list[Any] | None = None
    tool_calls: list[ToolCall] = []
    tool_call_id: str | None = None
    name: str | None = None
    is_error: bool = False
    extra: dict[str, Any] = {}
    reasoning: str = ""
