"""The MiniMax dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, invoke, region, tagged, template, think

__all__ = ["MINIMAX_M1", "MINIMAX_M2", "MINIMAX_M3"]

MINIMAX_M1 = Export(
    template(
        "<beginning_of_sentence>ai name=MiniMax AI\n",
        region(
            r'\s*(?:<tool_calls>)?\s*\{"name":\s*"(?P<name>[^"]+)",\s*"arguments":\s*',
            r"\}[ \t]*(?:\r?\n\s*(?:</tool_calls>\s*)?|</tool_calls>\s*|\Z)",
            content="json",
            transform=NAMED,
        ),
        ends=("<end_of_sentence>",),
        reasoning=think(),
    )
)

MINIMAX_M2 = Export(
    template(
        "]~b]ai\n",
        invoke("", "<minimax:tool_call>", "</minimax:tool_call>", "invoke", "parameter"),
        ends=("[e~[",),
        reasoning=think(),
    )
)

MINIMAX_M3 = Export(
    template(
        "]~b]ai\n",
        tagged(
            r"\s*(?:\]<\]minimax\[>\[\s*<tool_call>\s*)?\]<\]minimax\[>\[\s*"
            r"<invoke name=\"(?P<name>[^\"]+)\">",
            r"\]<\]minimax\[>\[\s*</invoke>\s*(?:\]<\]minimax\[>\[\s*</tool_call>\s*)?",
            r"\]<\]minimax\[>\[\s*<(?P<key>[^\s<>/]+)>(?P<value>[^\]]*?)"
            r"\]<\]minimax\[>\[\s*</(?P=key)>",
        ),
        ends=("[e~[",),
        reasoning=think("<mm:think>", "</mm:think>"),
    ),
    note="flat arguments: an object or list written as nested elements stays text",
)
