"""Conversation format of GLM-5.1 (its chat template, ``zai-org/GLM-5.1`` ``chat_template.jinja``
at revision 26e1bd6e).

GLM-5.1 keeps GLM-4.7's turns (``[gMASK]<sop>``, ``<|system|>``/``<|user|>``/``<|assistant|>``
headers with no end-of-turn token, results after one ``<|observation|>`` as
``<tool_response>`` blocks, the compact ``<tool_call>`` form, ``<|assistant|></think>`` as
thinking off's generation prompt) and declares the tools as GLM-5.2 does (each tool's bare
function object, key by key, without ``defer_loading`` and ``strict``). It has no reasoning
effort turn. Its reasoning blocks:

* a turn before the last user message writes a lone ``</think>`` (GLM-4.7's, where GLM-5.2
  writes ``<think></think>``);
* a turn after it writes its reasoning, as given (unstripped), in ``<think>...</think>``; with
  none, ``<think></think>`` with thinking on (the default) and a lone ``</think>`` with
  thinking off (GLM-4.7 writes ``</think>`` either way).

Not declared: ``clear_thinking`` (the template reads it; with it false, a past turn keeps its
reasoning, and an empty block is written only in a user round where some assistant turn has
reasoning); ``identify`` lists it as a switch this format ignores.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tooletta.plugin import Conversation, Reasoning, ToolsTurn, TruthyPrompt, defaults

from .chat import _GlmCompact
from .chat5 import TOOLS_HEAD, declared_tools

__all__ = ["Glm51Chat"]


def _thinking(options: Mapping[str, Any]) -> bool:
    """The template's thinking switch: on unless ``enable_thinking`` is given and false."""
    return bool(options.get("enable_thinking", True))


class Glm51Chat(_GlmCompact):
    """GLM-5.1's chat template (``enable_thinking`` on by default)."""

    name = "glm51"
    unwritten_options = defaults(clear_thinking=True)
    """The template's ``clear_thinking``, given false (``None`` too), keeps past turns' reasoning;
    refused."""
    source = "zai-org/GLM-5.1 chat_template.jinja (revision 26e1bd6e)"
    reasoning = Reasoning(
        "<think>", "</think>", strip="", keep="after_last_user", empty="kept", dropped="</think>"
    )
    """Kept after the last user message, as given (unstripped), the block written even
    empty; a turn that keeps none writes a lone ``</think>`` (and see :meth:`kept_in`)."""
    system_block = ToolsTurn(
        lambda tools: TOOLS_HEAD + declared_tools(list(tools)) + _GlmCompact.tools_tail,
        head=TOOLS_HEAD,
    )
    """The tool declarations (bare function objects), a turn of their own."""
    prompt = TruthyPrompt(on="<think>", off="</think>")
    """``<|assistant|><think>``, or ``<|assistant|></think>`` with thinking off (read back as
    no message; any false ``enable_thinking``)."""

    def kept_in(self, index: int, ctx: Conversation) -> bool:
        """Oddity: a turn after the last user message writes a reasoning block unless thinking
        is off and it has no reasoning (then a lone ``</think>``, as a past turn)."""
        if index <= ctx.last_user:
            return False
        return bool(ctx.messages[index].reasoning) or _thinking(ctx.options)
