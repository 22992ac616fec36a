"""Command R+'s conversation format: its tool-use chat template, declared.

Read from llama.cpp ``models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja`` (the
``tool_use`` template of ``CohereForAI/c4ai-command-r-plus``). The conversation opens with one
system turn: fixed preamble text, the system message (or a default task description) as the
"User Preamble", then the tools as Python function signatures built from their JSON schemas.
Turns are ``<|START_OF_TURN_TOKEN|><|ROLE_TOKEN|>`` ... ``<|END_OF_TURN_TOKEN|>`` with every
text trimmed (the system message excepted).

* An assistant turn with calls is the trimmed content and the ``Action:`` list (as the
  ``command_r_plus`` dialect writes it) and no end-of-turn token: the next turn follows right
  after ``]```\\n`` (option ``end_call_turns``: with the token, which is not the template's
  text). Call ids are not written; reasoning has no place.
* Each tool result is a system turn of its own, ``<results>\\n`` ... ``</results>``.
* After the last message the template always writes a system turn asking for an ``Action:``
  list, then (with a generation prompt) the assistant header.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import msgspec

from tooletta import Message, ParseResult, RenderError
from tooletta.plugin import (
    ChatFormat,
    Conversation,
    Prompt,
    PythonTypes,
    Turn,
    by_content,
    defaults,
    text_of,
)

from .chat_r7b import BOS, START_OF_TURN, SYSTEM, TURN_TOKENS, cohere_turns
from .tokens import END_OF_TURN

__all__ = [
    "DEFAULT_SYSTEM",
    "INSTRUCTION",
    "PREAMBLE",
    "TOOLS_HEAD",
    "CommandRPlusChat",
    "python_signatures",
    "python_type",
]

PREAMBLE = (
    "# Safety Preamble\n"
    "The instructions in this section override those in the task description and style "
    "guide sections. Don't answer questions that are harmful or immoral.\n"
    "\n"
    "# System Preamble\n"
    "## Basic Rules\n"
    "You are a powerful conversational AI trained by Cohere to help people. You are "
    "augmented by a number of tools, and your job is to use and consume the output of "
    "these tools to best help the user. You will see a conversation history between "
    "yourself and a user, ending with an utterance from the user. You will then see a "
    "specific instruction instructing you what kind of response to generate. When you "
    "answer the user's requests, you cite your sources in your answers, according to those "
    "instructions.\n"
    "\n"
    "# User Preamble\n"
)
"""The system turn up to the system message (template text)."""
DEFAULT_SYSTEM = (
    "## Task and Context\n"
    "You help people answer their questions and other requests interactively. You will be "
    "asked a very wide array of requests on all kinds of topics. You will be equipped with "
    "a wide range of search engines or similar tools to help you, which you use to "
    "research your answer. You should focus on serving the user's needs as best you can, "
    "which will be wide-ranging.\n"
    "\n"
    "## Style Guide\n"
    "Unless the user asks for a different style of answer, you should answer in full "
    "sentences, using proper grammar and spelling."
)
"""The system prompt written when there is no system message (template text)."""
TOOLS_HEAD = "\n\n## Available Tools\nHere is a list of tools that you have available to you:\n\n"
"""What follows the system message, before the tool signatures (template text)."""
INSTRUCTION = (
    "Write 'Action:' followed by a json-formatted list of actions that you want to perform "
    "in order to produce a good response to the user's last input. You can use any of the "
    "supplied tools any number of times, but you should aim to execute the minimum number "
    "of necessary actions for the input. You should use the `directly-answer` tool if "
    "calling the other tools is unnecessary. The list of actions you want to call should "
    "be formatted as a list of json objects, for example:\n"
    "```json\n"
    "[\n"
    "    {\n"
    '        "tool_name": title of the tool in the specification,\n'
    '        "parameters": a dict of parameters to input into the tool as they are defined '
    "in the specs, or {} if it takes no parameters\n"
    "    }\n"
    "]```"
)
"""The body of the system turn the template writes after the last message (template text)."""

_ACTION = "\nAction:\n```json\n["
_RESULTS = ("<results>\n", "</results>")
_UNDEFINED = object()
_TYPES = PythonTypes(
    array="List[Union[]]", mapping="Dict", plain_object="Dict[str, Any]", null="None"
)


def python_type(spec: Any) -> str:
    """A JSON schema as the template's ``json_to_python_type`` macro names it.

    Its quirks are kept: an array is ``List[Union[]]`` (the macro reads ``json_spec.items``,
    which Jinja resolves to the dict's ``items`` method, a value without a type), a schema
    without a type is ``Union[]``, a list of types ``Union[A,B]`` (no space), an object
    ``Dict[str, X]`` from its ``additionalProperties``. Where the macro fails, this writes what
    it means: an object without ``additionalProperties`` (the macro raises) is
    ``Dict[str, Any]``, the type name ``"null"`` (the macro recurses over its letters until
    it fails) is ``None``, another unknown type name ``Any``.
    """
    return _TYPES.name(spec)


def _text(value: Any) -> str:
    """A value as Jinja prints it (``""`` for a missing one)."""
    return "" if value is _UNDEFINED else value if isinstance(value, str) else str(value)


def _description(field: Any) -> str:
    """A parameter's description as the template prints it; ``""`` when it has none (the
    template raises then)."""
    return _text(field.get("description", _UNDEFINED)) if isinstance(field, Mapping) else ""


def _signature(tool: Mapping[str, Any]) -> str:
    inner = tool.get("function")
    fn: Mapping[str, Any] = inner if isinstance(inner, Mapping) else tool
    params = fn.get("parameters")
    params = params if isinstance(params, Mapping) else {}
    props = params.get("properties")
    props = props if isinstance(props, Mapping) else {}
    required = params.get("required")
    required = required if isinstance(required, (str, list, tuple, Mapping)) else ()
    kinds = {
        p: python_type(f) if p in required else f"Optional[{python_type(f)}]"
        for p, f in props.items()
    }
    text = f"```python\ndef {_text(fn.get('name', ''))}("
    text += ", ".join(p + ": " + (k if p in required else k + " = None") for p, k in kinds.items())
    text += ') -> List[Dict]:\n    """' + _text(fn.get("description", _UNDEFINED))
    if props:
        args = [f"{p} ({k}): " + _description(props[p]) for p, k in kinds.items()]
        text += "\n\n    Args:\n        " + "\n        ".join(args)
    return text + '\n    """\n    pass\n```'


@by_content
def python_signatures(tools: Sequence[Mapping[str, Any]]) -> str:
    """The tools as the template's ``new_tool_parser`` writes them: one fenced Python stub
    per tool (signature, description, ``Args:`` with one line per parameter), separated by
    a blank line. A parameter without a description gets an empty one (the template raises
    on it); a definition without parameters has none (the template raises)."""
    for tool in tools:
        if "parameter_definitions" in tool:
            raise RenderError(
                "the command_r_plus chat format writes OpenAI-shaped tools, not Cohere's "
                "legacy parameter_definitions"
            )
    return "\n\n".join(_signature(t) for t in tools)


class CommandRPlusChat(ChatFormat):
    """Command R+'s tool-use template (see the module docstring)."""

    name = "command_r_plus"
    """The model whose template was read and its quantized copy; ``-08-2024`` is not assumed
    to share it."""
    source = (
        "ggml-org/llama.cpp models/templates/CohereForAI-c4ai-command-r-plus-tool_use.jinja"
        " (the tool_use chat template of CohereForAI/c4ai-command-r-plus)"
    )
    bos = BOS
    turns = cohere_turns(Turn(SYSTEM, END_OF_TURN))
    end_of_turn = END_OF_TURN
    special_tokens: ClassVar[tuple[str, ...]] = TURN_TOKENS
    result_wrap = _RESULTS
    keeps_ids = False
    options = defaults(end_call_turns=False)
    """``end_call_turns``: write ``<|END_OF_TURN_TOKEN|>`` after a turn with calls too (not
    the template's text: for training data in which the model learns to stop after calls, as
    it does when generating)."""
    trim = frozenset(("system", "user", "tool", "assistant"))
    """Every text is trimmed but the first system message's (:attr:`trim_opening`)."""
    trim_opening = False
    """The template's oddity: it trims every text but the first system message (written as
    given by :meth:`system_text`, and so given back by :meth:`expressible`)."""
    prompt = Prompt(before=SYSTEM + INSTRUCTION + END_OF_TURN)
    """The template asks for an ``Action:`` list after the last message, always; then (with
    a generation prompt) the assistant header."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The preamble, the system message (as given) or the default task description, and
        the tool signatures. Oddity: the preamble and the tools' heading are written even
        without tools, and the system message is not trimmed."""
        task = DEFAULT_SYSTEM if system is None else system
        return PREAMBLE + task + TOOLS_HEAD + python_signatures(ctx.tools)

    def parse_system(self, body: str) -> str | None:
        """The system message (``None`` when the turn holds the default description).

        Oddity: the reader of :meth:`system_text`'s preamble and tool heading."""
        if not body.startswith(PREAMBLE):
            return body
        system, found, _ = body[len(PREAMBLE) :].rpartition(TOOLS_HEAD)
        if not found:
            raise ValueError("the system turn has no tool list")
        return None if system == DEFAULT_SYSTEM else system

    def turn_body(self, message: Message, kept: bool, last: bool, ctx: Conversation) -> str:
        """The trimmed content and the calls (as the ``command_r_plus`` dialect writes them).
        Reasoning has no place: refused.

        Oddity: reasoning has no place in the template: refused rather than lost."""
        if kept and message.reasoning:
            raise RenderError("Command R+ has no place for reasoning", dialect="command_r_plus")
        return self.calls_text(ctx.dialect, message.tool_calls, text_of(message.content))

    def end_token(self, index: int, ctx: Conversation) -> str:
        """No end-of-turn token after a turn with calls (unless ``end_call_turns``);
        ``<|END_OF_TURN_TOKEN|>`` else.

        Oddity: no end token after a turn with calls, unless the ``end_call_turns`` option asks
        for one."""
        if ctx.messages[index].tool_calls and not ctx.options.get("end_call_turns"):
            return ""
        return END_OF_TURN

    def assistant_end(self, text: str, pos: int) -> int | None:
        """A turn ends with its end-of-turn token, or (a turn with calls) right before the
        next turn.

        Oddity: a turn with calls has no end token (the reader of :meth:`end_token`)."""
        end = text.find(END_OF_TURN, pos)
        start = text.find(START_OF_TURN, pos)
        if start >= 0 and (end < 0 or start < end):
            return start
        return end + len(END_OF_TURN) if end >= 0 else len(text)

    def parse_turn(self, body: str, dialect: Any, tools: Sequence[Mapping[str, Any]]) -> Any:
        """The content before ``Action:`` and the calls of the list; a turn without one is
        its content.

        Oddity: the content and the ``Action:`` list are read apart (the template writes no
        markup between them)."""
        body = body.removesuffix(END_OF_TURN)
        at = body.find(_ACTION)
        if at < 0:
            return ParseResult(content=body, dialect=dialect.info.name)
        result = dialect.parse(body[at + 1 :], tools=list(tools) or None)
        return msgspec.structs.replace(result, content=body[:at] + result.content.strip())
