"""The Gemma dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import NAMED, Export, region, template

__all__ = ["FUNCTIONGEMMA", "GEMMA4", "GEMMA4_2607"]

GEMMA4 = Export(
    template(
        "<|turn>model\n",
        region(
            r"\s*<\|tool_call>call:(?P<name>[\w.\-]+)",
            r"\s*<tool_call\|>\s*",
            content="json",
            content_args={"unquoted_keys": True, "string_delims": [['<|"|>', '<|"|>']]},
            transform=NAMED,
        ),
        ends=("<turn|>", "<|tool_response>", "<eos>"),
        reasoning={
            "open_pattern": r"<\|channel>(?:thought)?\n?",
            "close_pattern": r"<channel\|>\s*",
            "content": "text",
        },
    )
)

GEMMA4_2607 = Export(GEMMA4.template)
"""``gemma4``'s template: the canonical template's ``null`` is JSON to the same reading."""

FUNCTIONGEMMA = Export(
    template(
        "<start_of_turn>model\n",
        region(
            r"\s*<start_function_call>call:(?P<name>[\w.\-]+)",
            r"\s*<end_function_call>\s*",
            content="json",
            content_args={"unquoted_keys": True, "string_delims": [["<escape>", "<escape>"]]},
            transform=NAMED,
        ),
        ends=("<end_of_turn>", "<start_function_response>"),
    )
)
