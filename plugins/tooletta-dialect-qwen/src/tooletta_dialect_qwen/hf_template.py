"""The qwen family's ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import Export, chatml, tagged

__all__ = [
    "MIMO_V2",
    "NEMOTRON3",
    "NEMOTRON3_SUPER",
    "NEMOTRON3_ULTRA",
    "NEMOTRON_CASCADE2",
    "QWEN3_CODER",
    "QWEN36",
    "STEP35",
]

_TEXT_VALUES = "parameter values are text: pass the request's tools to type them"

_QWEN3_CODER = chatml(
    tagged(
        r"\s*<tool_call>\s*<function=(?P<name>[^>\n]+)>",
        r"\s*</function>\s*</tool_call>\s*",
        r"<parameter=(?P<key>[^>\n]+)>\n?(?P<value>.*?)\n?</parameter>",
    ),
    ends=("<|endoftext|>",),
)

QWEN3_CODER = Export(_QWEN3_CODER, note=_TEXT_VALUES)
NEMOTRON3 = Export(_QWEN3_CODER, note=_TEXT_VALUES)
"""The qwen3_coder template: other newlines around the calls read the same."""
NEMOTRON3_SUPER = NEMOTRON3
"""Nemotron 3 Nano's calls: the nemotron3 template."""
NEMOTRON3_ULTRA = NEMOTRON3
"""Nemotron 3 Nano's calls: the nemotron3 template."""
NEMOTRON_CASCADE2 = NEMOTRON3
"""Nemotron 3 Nano's calls: the nemotron3 template."""
STEP35 = Export(_QWEN3_CODER, note=_TEXT_VALUES)
"""The qwen3_coder template: calls right after the content read the same."""
QWEN36 = Export(_QWEN3_CODER, note=_TEXT_VALUES)
"""The qwen3_coder template: Qwen3.6 writes ``None`` and booleans as JSON literals, text to
the same reading."""
MIMO_V2 = Export(_QWEN3_CODER, note=_TEXT_VALUES)
"""The qwen3_coder template: MiMo-V2's bare values and unjoined calls read the same (one
framing newline taken off each side of a value, as the parser does)."""
