"""Conversation format of Ai2's Olmo 3.1 Instruct model (its chat template).

ChatML turns (``<|im_start|>ROLE\\n`` ... ``<|im_end|>\\n``), no start token. The template
writes the system turn itself: the system message followed by the tool declarations
(``<functions>`` + the list as ``tojson`` + ``</functions>``), or, without a system message,
Ai2's default one (the model's identity) followed by the function-calling instruction and the
declarations, or by the sentence saying there are none. The assistant's calls are written by
the template: ``<function_calls>`` right after the content, one ``name(key=<tojson of the
value>, ...)`` per line, ``</function_calls>`` (the ``olmo3_instruct`` dialect's form). Tool
results are turns of their own under the ``environment`` role. The conversation's last
assistant turn ends with the tokenizer's end-of-sequence token (``<|endoftext|>``) instead of
``<|im_end|>\\n``. The template writes no reasoning.
"""

from __future__ import annotations

import json

from tooletta.plugin import ChatFormat, Conversation, chatml, defaults, each_role, tool_json

__all__ = ["Olmo31InstructChat"]

_END = "<|im_end|>"
_EOS = "<|endoftext|>"
_OPEN = "<functions>"
_CLOSE = "</functions>"


class Olmo31InstructChat(ChatFormat):
    """Olmo 3.1 Instruct's template: tools in the system turn, calls in ``<function_calls>``,
    results under ``environment``, the last assistant turn ended by ``<|endoftext|>``."""

    unwritten_fields = defaults(
        system=defaults(functions=None), assistant=defaults(function_calls=None)
    )
    """A system message's ``functions`` and an assistant message's ``function_calls`` keys
    (ready-made text), which the template writes in place of the tools and the calls;
    refused when set."""

    name = "olmo31_instruct"
    """The released model only: its ``-SFT`` and ``-DPO`` checkpoints were published with
    Ai2's development tokenizer, whose default system prompt differs (open-instruct
    ``docs/olmo3.md``)."""
    source = (
        "allenai/Olmo-3.1-32B-Instruct chat_template, as shipped in "
        "lmstudio-community/Olmo-3.1-32B-Instruct-MLX-8bit (copied in pappitti/mlx-lm "
        "run_server.py); eos_token <|endoftext|> (allenai/open-instruct "
        "open_instruct/olmo_core_utils.py)"
    )
    turns = each_role(chatml, tool="environment")
    end_of_turn = _END
    end_tokens = (_EOS,)
    last_end = (_EOS, "")
    """``<|endoftext|>`` (the template's ``eos_token``) ends the conversation's last message,
    and nothing follows it; every other assistant turn ends with ``<|im_end|>\\n``."""
    special_tokens = (
        "<|im_start|>",
        _END,
        _EOS,
        _OPEN,
        _CLOSE,
        "<function_calls>",
        "</function_calls>",
    )
    keeps_ids = False
    default_system = (
        "You are Olmo, a helpful AI assistant built by Ai2. Your date cutoff is December "
        "2024, and your model weights are available at https://huggingface.co/allenai. "
    )
    """The system prompt the template writes when the conversation has none (template text:
    the model's identity; note the trailing space)."""
    no_functions = "You do not currently have access to any functions. <functions></functions>"
    """What follows the default system prompt when no tools are declared."""
    with_functions = (
        "You are provided with function signatures within <functions></functions> XML tags. "
        "You may call one or more functions to assist with the user query. Output any "
        "function calls within <function_calls></function_calls> XML tags. Do not make "
        "assumptions about what values to plug into functions."
    )
    """What follows the default system prompt before the declared tools."""

    def system_text(self, system: str | None, ctx: Conversation) -> str | None:
        """The system message (or the default prompt and its instruction), then the tools.
        Oddity: the default prompt's instruction depends on the tools (a sentence saying
        there are none), and there is no opening turn when a later message is a system
        message (the template writes its default prompt only when no message is)."""
        declared = _declared(ctx)
        if system is not None:
            return system + declared
        if ctx.once("olmo_system", lambda: any(m.role == "system" for m in ctx.messages)):
            return None
        if declared:
            return self.default_system + self.with_functions + declared
        return self.default_system + self.no_functions

    def parse_system(self, body: str) -> str | None:
        """The system message without the declarations; ``None`` for the default prompt
        (the inverse of :meth:`system_text`'s oddity: two defaults; the declarations found
        as the trailing ``<functions>`` block that holds a JSON list)."""
        default = self.default_system
        if body == default + self.no_functions or body.startswith(
            default + self.with_functions + _OPEN
        ):
            return None
        return _undeclared(body)

    def user_text(self, index: int, ctx: Conversation) -> str:
        """A user turn's content. Oddity: a later system message's with the tools after it
        (the template declares them after every system message)."""
        text = self.text(ctx.messages[index].content)
        if ctx.messages[index].role == "system":
            return text + _declared(ctx)
        return text

    def parse_user(self, body: str) -> str:
        """A user (or later system) turn's content without trailing declarations (the inverse
        of :meth:`user_text`'s oddity)."""
        return _undeclared(body)


def _declared(ctx: Conversation) -> str:
    """The tool declarations as the template writes them after a system message."""
    return _OPEN + tool_json(list(ctx.tools)) + _CLOSE if ctx.tools else ""


def _undeclared(body: str) -> str:
    """``body`` without the declarations the template appended to it (a trailing
    ``<functions>`` + JSON list + ``</functions>``)."""
    if body.endswith(_CLOSE):
        at = body.find(_OPEN)
        while at >= 0:
            if _is_json_list(body[at + len(_OPEN) : -len(_CLOSE)]):
                return body[:at]
            at = body.find(_OPEN, at + 1)
    return body


def _is_json_list(text: str) -> bool:
    if not (text.startswith("[") and text.endswith("]")):
        return False
    try:
        return isinstance(json.loads(text), list)
    except ValueError:
        return False
