"""The Qwen3-Coder family's other spellings of the assistant turn, as variant dialects.

They parse like ``qwen3_coder`` (one parser reads every spelling) and render their model's
own form; they are picked by their ``models`` patterns or by name, never by detection:

* ``nemotron3`` (NVIDIA Nemotron 3 Nano): the content, a newline, then every call followed by
  a newline (``...</tool_call>\\n`` before ``<|im_end|>``);
* ``step35`` (StepFun Step-3.5-Flash): the calls written right after the content, with nothing
  between the content and the first call nor between calls.

The call itself (``<tool_call>\\n<function=NAME>\\n<parameter=KEY>\\nVALUE\\n</parameter>\\n
</function>\\n</tool_call>``) and the writing of values are the same in all three templates.
"""

from __future__ import annotations

from tooletta.plugin import variant_info

from . import Qwen3CoderDialect
from .chat import Nemotron3Chat, Step35Chat

__all__ = ["Nemotron3Dialect", "Step35Dialect"]


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
    chat_formats = (Nemotron3Chat(),)


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
    chat_formats = (Step35Chat(),)
