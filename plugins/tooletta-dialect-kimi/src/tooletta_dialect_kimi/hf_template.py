"""The Kimi dialects' ``response_template`` exports (:mod:`tooletta.interop.hf.spec`)."""

from __future__ import annotations

from tooletta.interop.hf.spec import (
    NAMED,
    NAMED_ID,
    Export,
    message,
    region,
    tagged,
    template,
    think,
)

__all__ = ["KIMI", "KIMI_K2", "KIMI_K3"]

_ASSISTANT = "<|im_assistant|>assistant<|im_middle|>"

KIMI_K2 = Export(
    template(
        _ASSISTANT,
        region(
            r"\s*(?:<\|tool_calls?_section_begin\|>)?\s*<\|tool_call_begin\|>\s*"
            r"(?P<id>(?:functions\.)?(?P<name>[\w.\-]+?):\d+)\s*<\|tool_call_argument_begin\|>",
            r"\s*<\|tool_call_end\|>\s*(?:<\|tool_calls?_section_end\|>\s*)?",
            content="json",
            transform=NAMED_ID,
        ),
        ends=("<|im_end|>",),
        reasoning=think(),
    ),
    note="the id is the header (functions.NAME:IDX), kept as the call's id",
)

KIMI = Export(
    template(
        _ASSISTANT,
        region(
            r"(?:\A|\n)[ \t]*## Calling:[ \t]*(?P<name>\S+)[ \t]*\r?\n",
            r"\s*(?=\n[^\s}\]])|\s*\Z",
            content="json",
            transform=NAMED,
        ),
        ends=("<|im_end|>",),
    )
)

KIMI_K3 = Export(
    message(
        '<|open|>message role="assistant"<|sep|>',
        {
            "reasoning_content": think("<|open|>think<|sep|>", "<|close|>think<|sep|>"),
            "tool_calls": tagged(
                r'\s*(?:<\|open\|>tools<\|sep\|>)?\s*<\|open\|>call tool="(?P<name>[^"]*)"'
                r'(?: index="\d+")?<\|sep\|>',
                r"\s*<\|close\|>call<\|sep\|>\s*(?:<\|close\|>tools<\|sep\|>\s*)?",
                r'<\|open\|>argument key="(?P<key>[^"]*)"(?: type="[^"]*")?<\|sep\|>'
                r"(?P<value>.*?)<\|close\|>argument<\|sep\|>",
            ),
            "markup": {
                "open_pattern": (
                    r"<\|open\|>(?:response|message[^<]*)<\|sep\|>|"
                    r"<\|close\|>message<\|sep\|>|<\|end_of_msg\|>"
                ),
                "close_pattern": "",
                "content": "text",
            },
            "content": {
                "close_pattern": r"\s*<\|close\|>response<\|sep\|>\s*",
                "content": "text",
            },
        },
    ),
    note=(
        "argument values are text whatever type= says (pass the request's tools); the "
        "<|open|>json form of arguments is a second shape the field cannot also have"
    ),
)
