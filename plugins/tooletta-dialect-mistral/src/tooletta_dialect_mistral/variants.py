"""The other Mistral tokenizer generations' spellings of ``[TOOL_CALLS]``, as variant dialects.

The base ``mistral`` dialect renders the v11 form (``[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{json}``,
the id part when the call has one), which Mistral-Small-3.2 writes. Its variants parse like it
(one parser reads every generation) and render their own form; they are picked by their
``models`` patterns (more specific than the base's) or by name, never by detection:

* ``mistral_v13`` (mistral-common ``InstructTokenizerV13``, Devstral-Small-2507 and Ministral 3):
  ``[TOOL_CALLS]NAME[ARGS]{json}`` per call, no call id ever;
* ``mistral_v3`` (alias ``mistral_nemo``; ``InstructTokenizerV3``, Mistral-Nemo-Instruct-2407):
  one ``[TOOL_CALLS]`` and a JSON list of ``{"name", "arguments", "id"}`` objects, every call
  with a 9-character id (derived when missing, :func:`~tooletta_dialect_mistral.ids.written_id`);
  also the calls of the v7 models (Mistral Small 3 and 3.1, Large 2411), whose templates
  write no calls;
* ``mistral_v3_spaced`` (``InstructTokenizerV3``, as the Mistral-7B-Instruct-v0.3 template
  writes it, which Mixtral-8x22B-Instruct-v0.1 and Mistral-Small-Instruct-2409 serve too):
  the same list after ``[TOOL_CALLS]`` and a space.
"""

from __future__ import annotations

from tooletta import ToolCall, to_json
from tooletta.plugin import variant_info

from . import TOOL_CALLS, MistralDialect, chat_2512, render_pre_v11
from .chat import (
    Codestral22BChat,
    DevstralSmall2507Chat,
    Ministral3ReasoningChat,
    Ministral3ReasoningHubChat,
    Mistral7BV03Chat,
    MistralLarge2411Chat,
    MistralNemoChat,
    MistralSmall3Chat,
)
from .ids import written_id

__all__ = ["MistralV3Dialect", "MistralV3SpacedDialect", "MistralV13Dialect"]

_SOURCE = "mistralai/mistral-common src/mistral_common/tokens/tokenizers/instruct.py"


class MistralV13Dialect(MistralDialect):
    """``[TOOL_CALLS]NAME[ARGS]{json}`` per call, never a call id (tokenizer v13)."""

    info = variant_info(
        MistralDialect.info,
        "mistral_v13",
        description="Mistral tokenizer v13: [TOOL_CALLS]NAME[ARGS]{json} per call, no call id",
        source=f"{_SOURCE} (InstructTokenizerV13); Devstral-Small-2507 and Ministral-3 templates",
    )
    chat_formats = (
        Ministral3ReasoningChat(),
        DevstralSmall2507Chat(),
        Ministral3ReasoningHubChat(),
        *chat_2512.FORMATS,
    )

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``[TOOL_CALLS]NAME[ARGS]{json}`` per call (ids are not written)."""
        return self.write_calls(calls, ids=False)


class MistralV3Dialect(MistralDialect):
    """``[TOOL_CALLS][{"name", "arguments", "id"}, ...]`` (tokenizer v3, Mistral-Nemo)."""

    info = variant_info(
        MistralDialect.info,
        "mistral_v3",
        aliases=("mistral_nemo",),
        description='Mistral tokenizer v3: [TOOL_CALLS][{"name", "arguments", "id"}, ...]',
        source=f"{_SOURCE} (InstructTokenizerV3); Mistral-Nemo-Instruct-2407 template",
    )
    chat_formats = (MistralNemoChat(), MistralSmall3Chat(), MistralLarge2411Chat())

    def render_calls(self, calls: list[ToolCall]) -> str:
        """One ``[TOOL_CALLS]`` and the JSON list, each call with its 9-character id."""
        items = [
            # a written id is 9 of [A-Za-z0-9]: its JSON is itself in quotes
            f'{{"name": {to_json(c.name)}, "arguments": {to_json(c.arguments)}, '
            f'"id": "{written_id(c, i)}"}}'
            for i, c in enumerate(calls)
        ]
        return TOOL_CALLS + "[" + ", ".join(items) + "]"


class MistralV3SpacedDialect(MistralDialect):
    """``[TOOL_CALLS] [{"name", "arguments", "id"}, ...]`` (tokenizer v3, as Mistral 7B v0.3's
    template writes it): the ``mistral_v3`` list after a space."""

    info = variant_info(
        MistralDialect.info,
        "mistral_v3_spaced",
        description=(
            'Mistral tokenizer v3, spaced: [TOOL_CALLS] [{"name", "arguments", "id"}, ...] '
            "(Mistral 7B v0.3's template)"
        ),
        source=f"{_SOURCE} (InstructTokenizerV3); Mistral-7B-Instruct-v0.3 template",
    )
    chat_formats = (Mistral7BV03Chat(), Codestral22BChat())

    def render_calls(self, calls: list[ToolCall]) -> str:
        """``[TOOL_CALLS] [`` and the JSON list, each call with its 9-character id."""
        return render_pre_v11(calls)
